#include "scene_files.hpp"

#include <algorithm>
#include <system_error>

#include <SDL.h>

namespace carom::sandbox {

namespace fs = std::filesystem;

namespace {

fs::path executableDir() {
    char* base = SDL_GetBasePath();
    if (base == nullptr) return {};
    fs::path p(base);
    SDL_free(base);
    return p;
}

void addFirstExisting(std::vector<SceneFolder>& out, const std::string& label,
                      const std::vector<fs::path>& candidates) {
    std::error_code ec;
    for (const fs::path& c : candidates) {
        if (!c.empty() && fs::is_directory(c, ec)) {
            out.push_back({label, fs::weakly_canonical(c, ec)});
            return;
        }
    }
}

}  // namespace

std::vector<SceneFolder> sceneFolders() {
    fs::path exe = executableDir();
    std::vector<SceneFolder> out;
    addFirstExisting(out, "demos",
                     {exe.empty() ? fs::path{} : exe / ".." / "share" / "carom" / "scenes",
                      exe.empty() ? fs::path{} : exe / ".." / ".." / "demos" / "scenes",
                      fs::path(CAROM_SANDBOX_SOURCE_SCENES)});
    addFirstExisting(out, "bench",
                     {exe.empty() ? fs::path{} : exe / ".." / "share" / "carom" / "bench-scenes",
                      exe.empty() ? fs::path{} : exe / ".." / ".." / "bench" / "scenes",
                      fs::path(CAROM_SANDBOX_BENCH_SCENES)});
    return out;
}

fs::path defaultScenePath() {
    std::error_code ec;
    for (const SceneFolder& f : sceneFolders()) {
        fs::path p = f.path / "default.json";
        if (f.label == "demos" && fs::is_regular_file(p, ec)) return p;
    }
    return {};
}

std::vector<fs::path> listScenes(const fs::path& folder) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".json" && it->is_regular_file(ec)) out.push_back(it->path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

void FileWatcher::watch(const fs::path& file) {
    file_ = file;
    std::error_code ec;
    stamp_ = fs::last_write_time(file_, ec);
    exists_ = !ec;
}

bool FileWatcher::changed() {
    if (file_.empty()) return false;
    std::error_code ec;
    auto now = fs::last_write_time(file_, ec);
    if (ec) {
        exists_ = false;
        return false;
    }
    if (!exists_ || now != stamp_) {
        exists_ = true;
        stamp_ = now;
        return true;
    }
    return false;
}

}  // namespace carom::sandbox
