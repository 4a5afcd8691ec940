// Finding scene files: the bundled default scene, the folders the scene
// browser lists, and noticing when the open file changes on disk.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace carom::sandbox {

/// A folder of scene files shown in the browser.
struct SceneFolder {
    std::string label;  ///< "demos", "bench"
    std::filesystem::path path;
};

/// The demo and benchmark scene folders that exist, looked for in order:
/// next to the executable in an install tree (../share/carom/scenes),
/// in a build tree inside the source tree (../../demos/scenes), and at the
/// source paths compiled in (CAROM_SANDBOX_SOURCE_SCENES).
std::vector<SceneFolder> sceneFolders();

/// The bundled default scene (demos/scenes/default.json), or an empty path
/// when no scene folder has one.
std::filesystem::path defaultScenePath();

/// The .json files of a folder, sorted by name.
std::vector<std::filesystem::path> listScenes(const std::filesystem::path& folder);

/// Polls a file's modification time. changed() is true once per change
/// (and once when a missing file appears). A file being rewritten may be
/// seen half-written: the caller reloads, and a parse error keeps the old
/// scene until the next change.
class FileWatcher {
   public:
    void watch(const std::filesystem::path& file);
    const std::filesystem::path& file() const { return file_; }
    bool changed();

   private:
    std::filesystem::path file_;
    std::filesystem::file_time_type stamp_{};
    bool exists_ = false;
};

}  // namespace carom::sandbox
