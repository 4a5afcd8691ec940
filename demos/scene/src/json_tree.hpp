// A JSON document tree that remembers where each value came from.
//
// nlohmann::json's DOM keeps no source positions, and scene errors must
// point at the offending value (FILE:LINE:COL). So the text is parsed with
// nlohmann::json::sax_parse into this small tree instead: the SAX callbacks
// arrive in document order, and a cursor that walks the same text in step
// (skipping whitespace, ',' and ':', then the token) knows the line and
// column where each value and each key starts. nlohmann has already checked
// the token when the callback fires, so the cursor only needs to skip it.
//
// Numbers keep nlohmann's three kinds (negative integer, unsigned integer,
// floating point) so that 64-bit filter masks stay exact.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace carom::scene::detail {

struct Node {
    enum class Kind : uint8_t { Null, Bool, Int, UInt, Float, String, Array, Object };

    Kind kind = Kind::Null;
    bool boolean = false;
    int64_t integer = 0;           ///< Int
    uint64_t unsignedInteger = 0;  ///< UInt
    double number = 0.0;           ///< Float (and Int/UInt converted, for convenience)
    std::string text;              ///< String; for Float, the number as written in the file
    std::vector<Node> items;       ///< Array
    struct Member;
    std::vector<Member> members;  ///< Object, in file order
    int line = 0;
    int column = 0;

    bool isNumber() const { return kind == Kind::Int || kind == Kind::UInt || kind == Kind::Float; }
    /// The member with this key, or null.
    const Node* find(std::string_view key) const;
};

struct Node::Member {
    std::string key;
    int line = 0;  ///< position of the key
    int column = 0;
    Node value;
};

/// Why a parse failed: position, the path of the innermost container, message.
struct ParseFailure {
    int line = 1;
    int column = 1;
    std::string path;
    std::string message;
};

/// Parses text; returns false and fills failure on malformed JSON, on
/// nesting deeper than maxDepth or on a key repeated in one object.
bool parseJson(std::string_view text, int maxDepth, Node& out, ParseFailure& failure);

/// "an object", "a string", "the number 3", ... for messages.
std::string describe(const Node& node);

}  // namespace carom::scene::detail
