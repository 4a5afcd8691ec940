// Typed, position-aware access to a parsed JSON tree for the validators.
//
// Every accessor either returns a value that obeys its rule or throws
// SceneError at the offending value, with its path and "what was expected,
// got what". Obj wraps one JSON object whose allowed keys are known: it
// refuses unknown keys up front, suggesting the nearest allowed key
// (Levenshtein distance), so that a typo never falls back to a default.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <carom/constants.hpp>
#include <carom/error.hpp>
#include <carom/math.hpp>
#include <carom/scene.hpp>

#include "json_tree.hpp"

namespace carom::scene::detail {

/// The file name used in messages, and failure helpers.
class Reader {
public:
    explicit Reader(std::string file) : file_(std::move(file)) {}
    [[noreturn]] void fail(const Node& at, const std::string& path, const std::string& message) const;
    [[noreturn]] void failAt(int line, int column, const std::string& path, const std::string& message) const;
    [[noreturn]] void failAt(const SourceLoc& loc, const std::string& message) const;
    SourceLoc loc(const Node& at, const std::string& path) const { return {at.line, at.column, path}; }
    const std::string& file() const { return file_; }

private:
    std::string file_;
};

std::string childPath(const std::string& path, std::string_view key);
std::string indexPath(const std::string& path, std::size_t index);
/// Edit distance between a and b (insertions, deletions, substitutions).
int levenshtein(std::string_view a, std::string_view b);
/// The allowed key nearest to key, or "" when none is near enough.
std::string nearestKey(std::string_view key, const std::vector<std::string_view>& allowed);

// ---- scalar rules on one node ---------------------------------------------------

double asNumber(const Reader& r, const Node& n, const std::string& path);
/// A number that is finite as a 32-bit float.
float asFloat(const Reader& r, const Node& n, const std::string& path);
int64_t asInteger(const Reader& r, const Node& n, const std::string& path);
uint64_t asBits(const Reader& r, const Node& n, const std::string& path);
bool asBool(const Reader& r, const Node& n, const std::string& path);
const std::string& asString(const Reader& r, const Node& n, const std::string& path);
Vec2 asVec2(const Reader& r, const Node& n, const std::string& path);
/// The user's [x, y] as written (every digit kept), for messages.
std::string describeVec2(const Node& n);
const std::vector<Node>& asArray(const Reader& r, const Node& n, const std::string& path);
void requireObject(const Reader& r, const Node& n, const std::string& path);

/// Where an engine rule's field (carom::Error::field(), named as in the C++
/// API) sits in the file: a key of the object, or a dotted path below it
/// ("motor.speed"). Fields not listed are looked up in snake_case
/// (linearVelocity -> linear_velocity).
struct FieldKey {
    std::string_view field;
    std::string_view key;
};

/// A JSON object with a known set of keys.
class Obj {
public:
    Obj(const Reader& r, const Node& node, std::string path, std::vector<std::string_view> allowed);

    const Reader& reader() const { return r_; }
    const Node& node() const { return node_; }
    const std::string& path() const { return path_; }
    std::string path(std::string_view key) const { return childPath(path_, key); }
    SourceLoc loc() const { return r_.loc(node_, path_); }

    const Node* get(std::string_view key) const { return node_.find(key); }
    bool has(std::string_view key) const { return node_.find(key) != nullptr; }
    /// The value of a required key (missing: an error at the object).
    const Node& required(std::string_view key) const;
    [[noreturn]] void fail(std::string_view key, const std::string& message) const;
    /// Runs an engine rule (a carom::validate function, say). A refusal is
    /// reported at the file key its field() names, in the file's words: the
    /// key instead of the C++ member, the value quoted as the user wrote it.
    /// A field whose key is not in the object (a default) is reported at
    /// fallbackKey when that is given and present, else at the object.
    template <class Check>
    void engineRule(Check&& check, std::initializer_list<FieldKey> renames = {},
                    std::string_view fallbackKey = {}) const {
        try {
            check();
        } catch (const carom::Error& e) {
            failEngine(e, std::vector<FieldKey>(renames), fallbackKey);
        }
    }
    [[noreturn]] void failEngine(const carom::Error& e, const std::vector<FieldKey>& renames,
                                 std::string_view fallbackKey) const;

    float number(std::string_view key, float fallback) const;
    std::optional<float> optNumber(std::string_view key) const;
    /// > 0
    float positive(std::string_view key, float fallback) const;
    /// >= 0
    float nonNegative(std::string_view key, float fallback) const;
    std::optional<float> optNonNegative(std::string_view key) const;
    double number64(std::string_view key, double fallback) const;
    int64_t integer(std::string_view key, int64_t fallback, int64_t lo, int64_t hi) const;
    bool flag(std::string_view key, bool fallback) const;
    std::string string(std::string_view key, const std::string& fallback) const;
    Vec2 vec2(std::string_view key, Vec2 fallback) const;
    std::optional<Vec2> optVec2(std::string_view key) const;
    /// [x, y] with both coordinates within +-limit (metres), as scene positions are.
    Vec2 point(std::string_view key, Vec2 fallback, float limit = kHuge) const;

private:
    const Reader& r_;
    const Node& node_;
    std::string path_;
};

}  // namespace carom::scene::detail
