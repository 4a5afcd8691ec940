// Internal pieces of the scene loader, shared by the scene and query parsers.
#pragma once

#include <map>
#include <string>

#include <carom/scene.hpp>

#include "json_tree.hpp"
#include "reader.hpp"

namespace carom::scene::detail {

using MaterialMap = std::map<std::string, Material, std::less<>>;

/// Names of the bodies alive at one moment of the script, with where each
/// was given (for "already used at line N" messages).
class NameSet {
   public:
    /// Adds name; a duplicate is an error reported at `at`.
    void add(const Reader& r, const std::string& name, const Node& at, const std::string& path,
             const char* what);
    void remove(const std::string& name) { alive_.erase(name); }
    bool has(std::string_view name) const { return alive_.find(name) != alive_.end(); }
    /// True when some alive name starts with prefix.
    bool hasPrefix(std::string_view prefix) const {
        auto it = alive_.lower_bound(prefix);
        return it != alive_.end() && std::string_view(it->first).substr(0, prefix.size()) == prefix;
    }
    /// The alive name nearest to name, or "".
    std::string nearest(std::string_view name) const;

   private:
    std::map<std::string, int, std::less<>> alive_;  // name -> line
};

/// Parses `materials`.
MaterialMap parseMaterials(const Reader& r, const Node& node, const std::string& path);

/// Parses one shape object. With materials null (the query file) material
/// keys are accepted and ignored, and chains are refused.
ShapeDesc parseShape(const Reader& r, const Node& node, const std::string& path,
                     const MaterialMap* materials);

/// Parses one body object (not a generator entry).
BodyDesc parseBody(const Reader& r, const Node& node, const std::string& path,
                   const MaterialMap& materials);

/// Parses a `bodies` array (bodies and generators), appending to out in
/// creation order, and adds their names to names. bodyBudget is the number of bodies still allowed;
/// it is decreased, and a generator that would exceed it is refused before its copies are made.
/// Each entry is checked on its own (Reader::attempt); an entry that fails leaves its names marked
/// (markBodyEntryFailed).
void parseBodyList(const Reader& r, const Node& node, const std::string& path,
                   const MaterialMap& materials, int64_t& bodyBudget, NameSet& names,
                   std::vector<BodyDesc>& out);

/// Marks the names an entry of a body list would have made (its name, or a
/// generator's copies' names) as failed, for an entry that failed or was
/// never parsed (an event that failed).
void markBodyEntryFailed(const Reader& r, const Node& entry);
/// True when no body named `name` is alive because an entry that would have
/// made it failed (or the whole list did: key "bodies"): what names it is
/// skipped (Cascade), not reported.
bool failedBodyName(const Reader& r, std::string_view name);

/// Parses a body's `character` (project key).
CharacterDesc parseCharacter(const Reader& r, const Node& node, const std::string& path);
/// Parses a body's `path` (project key).
PathDesc parsePath(const Reader& r, const Node& node, const std::string& path);

/// Parses one joint object (names are checked by the caller).
JointDesc parseJoint(const Reader& r, const Node& node, const std::string& path);

/// Parses the project key `warm` against the scene's bodies and joints
/// (positions in range); the engine checks the rest when the runner applies it.
WarmSection parseWarm(const Reader& r, const Node& node, const SceneDesc& scene);

/// Parses a transform object {"position", "angle"} (query files).
Transform parseTransform(const Reader& r, const Node& node, const std::string& path);

/// Reads a whole file, refusing files above kMaxFileBytes. Throws SceneError.
std::string readFileText(const std::string& path);

/// Parses JSON text into a tree; throws SceneError on malformed JSON.
Node parseTree(std::string_view text, const std::string& fileName);

}  // namespace carom::scene::detail
