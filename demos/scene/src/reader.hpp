// Typed, position-aware access to a parsed JSON tree for the validators.
//
// Every accessor either returns a value that obeys its rule or throws
// SceneError at the offending value, with its path and "what was expected,
// got what". Obj wraps one JSON object whose allowed keys are known: it
// refuses unknown keys up front, suggesting the nearest allowed key
// (Levenshtein distance), so that a typo never falls back to a default.
//
// One file, every error: the loader parses each element that can be wrong
// on its own (a section, a body, a shape, a joint, an event) inside
// Reader::attempt, which records the element's error and lets the loader
// go on with the next element. An element that depends on one that failed
// (a joint naming a body whose entry failed) throws Cascade instead of an
// error of its own, so that one mistake is reported once. Reader::finish
// then throws the first error in file order with the others attached.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <carom/constants.hpp>
#include <carom/error.hpp>
#include <carom/math.hpp>
#include <carom/scene.hpp>

#include "json_tree.hpp"

namespace carom::scene::detail {

/// Thrown by an element that depends on one whose error is already recorded:
/// Reader::attempt skips it without an error of its own.
struct Cascade {};

/// The file name used in messages, failure helpers, and the errors of the
/// file collected so far (see the top of this file).
class Reader {
   public:
    explicit Reader(std::string file) : file_(std::move(file)) {}
    [[noreturn]] void fail(const Node& at, const std::string& path,
                           const std::string& message) const;
    [[noreturn]] void failAt(int line, int column, const std::string& path,
                             const std::string& message) const;
    [[noreturn]] void failAt(const SourceLoc& loc, const std::string& message) const;
    SourceLoc loc(const Node& at, const std::string& path) const {
        return {at.line, at.column, path};
    }
    const std::string& file() const { return file_; }

    /// Runs the parse of one element that can be wrong on its own. A
    /// SceneError it throws (kind Invalid) is recorded and false returned,
    /// so the caller goes on with the next element; a Cascade gives false
    /// and records nothing.
    template <class Fn>
    bool attempt(Fn&& fn) const {
        try {
            fn();
            return true;
        } catch (const SceneError& e) {
            if (e.kind != SceneError::Kind::Invalid) throw;
            record(e);
        } catch (const Cascade&) {
        }
        return false;
    }
    /// Records an error of the file (kept: the first kMaxReportedErrors in
    /// file order; counted: all).
    void record(const SceneError& e) const;
    bool hasErrors() const { return count_ > 0; }
    /// Notes that the element behind `key` failed (a generator's body name,
    /// a joint name, a section): what refers to it throws Cascade (cascade).
    void markFailed(std::string key) const { failed_.insert(std::move(key)); }
    bool failed(std::string_view key) const;
    /// Throws the errors recorded, if any: the first in file order, with
    /// every one listed in SceneError::errors.
    void finish() const;

   private:
    std::string file_;
    mutable std::vector<SceneError> errors_;  // at most kMaxReportedErrors, the first in file order
    mutable std::vector<std::int64_t>
        order_;  // the order each was recorded in (ties at one position)
    mutable std::int64_t count_ = 0;
    mutable std::set<std::string, std::less<>> failed_;
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
/// [x, y] by the engine's rule for a position (validatePosition), refused at n.
Vec2 asPosition(const Reader& r, const Node& n, const std::string& path);
/// [x, y] by the engine's rule for a cast's translation (validateTranslation).
Vec2 asTranslation(const Reader& r, const Node& n, const std::string& path);
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
    /// [x, y] by the engine's rule for a position (validatePosition).
    Vec2 point(std::string_view key, Vec2 fallback) const;
    /// [x, y] by the engine's rule for a cast's translation (validateTranslation).
    Vec2 translation(std::string_view key, Vec2 fallback) const;

   private:
    const Reader& r_;
    const Node& node_;
    std::string path_;
};

}  // namespace carom::scene::detail
