#include "reader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <tuple>

#include <carom/json_writer.hpp>
#include <carom/validate.hpp>

namespace carom::scene::detail {

void Reader::fail(const Node& at, const std::string& path, const std::string& message) const {
    failAt(at.line, at.column, path, message);
}

void Reader::failAt(int line, int column, const std::string& path,
                    const std::string& message) const {
    throw SceneError(file_, line, column, path.empty() ? "(root)" : path, message);
}

void Reader::failAt(const SourceLoc& loc, const std::string& message) const {
    failAt(loc.line, loc.column, loc.path, message);
}

namespace {

// File order: position, then the order recorded.
bool before(const SceneError& a, std::int64_t ai, const SceneError& b, std::int64_t bi) {
    return std::tie(a.line, a.column, ai) < std::tie(b.line, b.column, bi);
}

}  // namespace

void Reader::record(const SceneError& e) const {
    errors_.push_back(e);
    order_.push_back(count_++);
    if (errors_.size() <= static_cast<std::size_t>(kMaxReportedErrors)) return;
    // Drop the last in file order: the kept ones stay the first.
    std::size_t last = 0;
    for (std::size_t k = 1; k < errors_.size(); ++k)
        if (before(errors_[last], order_[last], errors_[k], order_[k])) last = k;
    errors_.erase(errors_.begin() + static_cast<std::ptrdiff_t>(last));
    order_.erase(order_.begin() + static_cast<std::ptrdiff_t>(last));
}

bool Reader::failed(std::string_view key) const {
    return failed_.find(key) != failed_.end();
}

void Reader::finish() const {
    if (errors_.empty()) return;
    std::vector<std::size_t> index(errors_.size());
    for (std::size_t k = 0; k < index.size(); ++k) index[k] = k;
    std::sort(index.begin(), index.end(), [&](std::size_t a, std::size_t b) {
        return before(errors_[a], order_[a], errors_[b], order_[b]);
    });
    SceneError first = errors_[index[0]];
    for (std::size_t k : index) first.errors.push_back(errors_[k]);
    first.moreErrors = count_ - static_cast<std::int64_t>(errors_.size());
    throw first;
}

std::string childPath(const std::string& path, std::string_view key) {
    if (path.empty()) return std::string(key);
    std::string p = path;
    p += '.';
    p += key;
    return p;
}

std::string indexPath(const std::string& path, std::size_t index) {
    return path + "[" + std::to_string(index) + "]";
}

int levenshtein(std::string_view a, std::string_view b) {
    // Classic dynamic programme over one row: row[j] = distance(a[0..i), b[0..j)).
    std::vector<int> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int>(j);
    for (std::size_t i = 1; i <= a.size(); ++i) {
        int diagonal = row[0];
        row[0] = static_cast<int>(i);
        for (std::size_t j = 1; j <= b.size(); ++j) {
            int up = row[j];
            int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
            diagonal = up;
        }
    }
    return row[b.size()];
}

std::string nearestKey(std::string_view key, const std::vector<std::string_view>& allowed) {
    std::string best;
    int bestDistance = std::numeric_limits<int>::max();
    for (std::string_view candidate : allowed) {
        int d = levenshtein(key, candidate);
        if (d < bestDistance) {
            bestDistance = d;
            best = std::string(candidate);
        }
    }
    // Near enough: at most a third of the longer word (at least 2) changed.
    int limit = std::max<int>(2, static_cast<int>(std::max(key.size(), best.size())) / 3);
    return bestDistance <= limit ? best : std::string();
}

double asNumber(const Reader& r, const Node& n, const std::string& path) {
    if (!n.isNumber()) r.fail(n, path, "expected a number, got " + describe(n));
    if (!std::isfinite(n.number)) r.fail(n, path, "must be a finite number, got " + describe(n));
    return n.number;
}

float asFloat(const Reader& r, const Node& n, const std::string& path) {
    double v = asNumber(r, n, path);
    if (std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max())) {
        r.fail(n, path, "must be a finite number (at most 3.4e38 in size), got " + describe(n));
    }
    return static_cast<float>(v);
}

int64_t asInteger(const Reader& r, const Node& n, const std::string& path) {
    if (n.kind == Node::Kind::Int) return n.integer;
    if (n.kind == Node::Kind::UInt) {
        if (n.unsignedInteger > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
            r.fail(n, path, "integer too large, got " + describe(n));
        }
        return static_cast<int64_t>(n.unsignedInteger);
    }
    if (n.kind == Node::Kind::Float && std::isfinite(n.number) &&
        std::floor(n.number) == n.number && std::fabs(n.number) < 9.0e15) {
        return static_cast<int64_t>(n.number);
    }
    r.fail(n, path, "expected an integer, got " + describe(n));
}

uint64_t asBits(const Reader& r, const Node& n, const std::string& path) {
    if (n.kind == Node::Kind::UInt) return n.unsignedInteger;
    if (n.kind == Node::Kind::Int && n.integer >= 0) return static_cast<uint64_t>(n.integer);
    if (n.kind == Node::Kind::Float && std::floor(n.number) == n.number && n.number >= 0.0 &&
        n.number < 9.0e15) {
        return static_cast<uint64_t>(n.number);
    }
    r.fail(n, path, "expected an unsigned 64-bit integer, got " + describe(n));
}

bool asBool(const Reader& r, const Node& n, const std::string& path) {
    if (n.kind != Node::Kind::Bool) r.fail(n, path, "expected true or false, got " + describe(n));
    return n.boolean;
}

const std::string& asString(const Reader& r, const Node& n, const std::string& path) {
    if (n.kind != Node::Kind::String) r.fail(n, path, "expected a string, got " + describe(n));
    return n.text;
}

Vec2 asVec2(const Reader& r, const Node& n, const std::string& path) {
    if (n.kind != Node::Kind::Array || n.items.size() != 2) {
        r.fail(n, path, "expected [x, y], got " + describe(n));
    }
    return {asFloat(r, n.items[0], indexPath(path, 0)), asFloat(r, n.items[1], indexPath(path, 1))};
}

namespace {

// [x, y] by an engine rule (validatePosition, validateTranslation): its
// refusal reported at n in the rule's words, the value quoted as written.
template <class Rule>
Vec2 asRuledVec2(const Reader& r, const Node& n, const std::string& path, Rule&& rule) {
    const Vec2 v = asVec2(r, n, path);
    try {
        rule(v);
    } catch (const carom::Error& e) {
        // "position must be ..., got [1e+10, 0]" -> "must be ..., got [1e10, 0]"
        std::string message = e.what();
        if (message.rfind(e.field() + " ", 0) == 0) message.erase(0, e.field().size() + 1);
        const std::size_t got = message.rfind(", got ");
        if (got != std::string::npos) message.erase(got + 6);
        r.fail(n, path, message + describeVec2(n));
    }
    return v;
}

}  // namespace

Vec2 asPosition(const Reader& r, const Node& n, const std::string& path) {
    return asRuledVec2(r, n, path, [](Vec2 v) { validatePosition(v); });
}

Vec2 asTranslation(const Reader& r, const Node& n, const std::string& path) {
    return asRuledVec2(r, n, path, [](Vec2 v) { validateTranslation(v); });
}

std::string describeVec2(const Node& n) {
    if (n.kind != Node::Kind::Array || n.items.size() != 2) return describe(n);
    std::string out = "[";
    out.append(describe(n.items[0]));
    out.append(", ");
    out.append(describe(n.items[1]));
    out.push_back(']');
    return out;
}

const std::vector<Node>& asArray(const Reader& r, const Node& n, const std::string& path) {
    if (n.kind != Node::Kind::Array) r.fail(n, path, "expected an array, got " + describe(n));
    return n.items;
}

void requireObject(const Reader& r, const Node& n, const std::string& path) {
    if (n.kind != Node::Kind::Object) r.fail(n, path, "expected an object, got " + describe(n));
}

Obj::Obj(const Reader& r, const Node& node, std::string path, std::vector<std::string_view> allowed)
    : r_(r), node_(node), path_(std::move(path)) {
    requireObject(r, node, path_);
    for (const Node::Member& m : node.members) {
        if (std::find(allowed.begin(), allowed.end(), m.key) != allowed.end()) continue;
        std::string message = "unknown key \"" + m.key + "\"";
        std::string near = nearestKey(m.key, allowed);
        if (!near.empty()) {
            message += ", did you mean \"" + near + "\"?";
        } else {
            message += "; expected one of:";
            for (std::size_t k = 0; k < allowed.size(); ++k) {
                message += (k ? ", " : " ") + std::string(allowed[k]);
            }
        }
        r.failAt(m.line, m.column, childPath(path_, m.key), message);
    }
}

const Node& Obj::required(std::string_view key) const {
    const Node* n = node_.find(key);
    if (!n) r_.fail(node_, path_, "missing required key \"" + std::string(key) + "\"");
    return *n;
}

void Obj::fail(std::string_view key, const std::string& message) const {
    const Node* n = node_.find(key);
    if (n) r_.fail(*n, path(key), message);
    r_.fail(node_, path_, message);
}

float Obj::number(std::string_view key, float fallback) const {
    const Node* n = get(key);
    return n ? asFloat(r_, *n, path(key)) : fallback;
}

std::optional<float> Obj::optNumber(std::string_view key) const {
    const Node* n = get(key);
    if (!n) return std::nullopt;
    return asFloat(r_, *n, path(key));
}

float Obj::positive(std::string_view key, float fallback) const {
    const Node* n = get(key);
    if (!n) return fallback;
    float v = asFloat(r_, *n, path(key));
    if (!(v > 0.0f)) r_.fail(*n, path(key), "must be > 0, got " + describe(*n));
    return v;
}

float Obj::nonNegative(std::string_view key, float fallback) const {
    std::optional<float> v = optNonNegative(key);
    return v ? *v : fallback;
}

std::optional<float> Obj::optNonNegative(std::string_view key) const {
    const Node* n = get(key);
    if (!n) return std::nullopt;
    float v = asFloat(r_, *n, path(key));
    if (!(v >= 0.0f)) r_.fail(*n, path(key), "must be >= 0, got " + describe(*n));
    return v;
}

double Obj::number64(std::string_view key, double fallback) const {
    const Node* n = get(key);
    return n ? asNumber(r_, *n, path(key)) : fallback;
}

int64_t Obj::integer(std::string_view key, int64_t fallback, int64_t lo, int64_t hi) const {
    const Node* n = get(key);
    if (!n) return fallback;
    int64_t v = asInteger(r_, *n, path(key));
    if (v < lo)
        r_.fail(*n, path(key), "must be >= " + std::to_string(lo) + ", got " + describe(*n));
    if (v > hi)
        r_.fail(*n, path(key), "must be <= " + std::to_string(hi) + ", got " + describe(*n));
    return v;
}

bool Obj::flag(std::string_view key, bool fallback) const {
    const Node* n = get(key);
    return n ? asBool(r_, *n, path(key)) : fallback;
}

std::string Obj::string(std::string_view key, const std::string& fallback) const {
    const Node* n = get(key);
    return n ? asString(r_, *n, path(key)) : fallback;
}

Vec2 Obj::vec2(std::string_view key, Vec2 fallback) const {
    const Node* n = get(key);
    return n ? asVec2(r_, *n, path(key)) : fallback;
}

std::optional<Vec2> Obj::optVec2(std::string_view key) const {
    const Node* n = get(key);
    if (!n) return std::nullopt;
    return asVec2(r_, *n, path(key));
}

}  // namespace carom::scene::detail

namespace carom::scene::detail {

Vec2 Obj::point(std::string_view key, Vec2 fallback) const {
    const Node* n = get(key);
    return n ? asPosition(r_, *n, path(key)) : fallback;
}

Vec2 Obj::translation(std::string_view key, Vec2 fallback) const {
    const Node* n = get(key);
    return n ? asTranslation(r_, *n, path(key)) : fallback;
}

}  // namespace carom::scene::detail

namespace carom::scene::detail {

namespace {

std::string snakeCase(std::string_view field) {
    std::string out;
    for (char c : field) {
        if (c >= 'A' && c <= 'Z') {
            out.push_back('_');
            out.push_back(static_cast<char>(c - 'A' + 'a'));
        } else {
            out.push_back(c);
        }
    }
    return out;
}

// Replaces whole-word occurrences of `word` in text.
void replaceWord(std::string& text, std::string_view word, std::string_view by) {
    auto isWordChar = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    std::size_t at = 0;
    while ((at = text.find(word, at)) != std::string::npos) {
        std::size_t end = at + word.size();
        if ((at == 0 || !isWordChar(text[at - 1])) &&
            (end >= text.size() || !isWordChar(text[end]))) {
            text.replace(at, word.size(), by);
            at += by.size();
        } else {
            at = end;
        }
    }
}

}  // namespace

void Obj::failEngine(const carom::Error& e, const std::vector<FieldKey>& renames,
                     std::string_view fallbackKey) const {
    const std::string& field = e.field();
    std::string key;
    for (const FieldKey& fk : renames) {
        if (fk.field == field) key = std::string(fk.key);
    }
    if (key.empty()) key = snakeCase(field);
    // Walks a dotted key below this object; null when a part is missing.
    auto resolve = [&](std::string_view dotted, std::string& path) -> const Node* {
        const Node* at = &node_;
        path = path_;
        while (!dotted.empty()) {
            std::size_t dot = dotted.find('.');
            std::string_view part = dotted.substr(0, dot);
            if (at->kind != Node::Kind::Object) return nullptr;
            const Node* child = at->find(part);
            if (!child) return nullptr;
            path = childPath(path, part);
            at = child;
            dotted = dot == std::string_view::npos ? std::string_view() : dotted.substr(dot + 1);
        }
        return at;
    };
    std::string path;
    const Node* at = field.empty() ? nullptr : resolve(key, path);
    bool atValue = at != nullptr;
    if (!at && !fallbackKey.empty()) at = resolve(fallbackKey, path);
    if (!at) {
        at = &node_;
        path = path_;
    }

    // "radius must be within [...], got 1e+20" -> "must be within [...], got 1e20"
    std::string message = e.what();
    if (!field.empty() && message.rfind(field + " ", 0) == 0) {
        message.erase(0, field.size() + 1);
        if (!atValue)
            message = key.substr(key.rfind('.') == std::string::npos ? 0 : key.rfind('.') + 1) +
                      " " + message;
    }
    if (atValue && (at->isNumber() || at->kind == Node::Kind::Array)) {
        std::size_t got = message.rfind(", got ");
        if (got != std::string::npos) {
            message.erase(got + 6);
            message += at->kind == Node::Kind::Array ? describeVec2(*at) : describe(*at);
        }
    }
    // Other members named in the message, in the file's words.
    for (const FieldKey& fk : renames) {
        std::string_view last =
            fk.key.substr(fk.key.rfind('.') == std::string_view::npos ? 0 : fk.key.rfind('.') + 1);
        replaceWord(message, fk.field, last);
    }
    r_.fail(*at, path.empty() ? std::string() : path, message);
}

}  // namespace carom::scene::detail
