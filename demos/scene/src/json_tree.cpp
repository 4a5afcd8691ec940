#include "json_tree.hpp"

#include <carom/json_writer.hpp>

#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

namespace carom::scene::detail {

const Node* Node::find(std::string_view key) const {
    for (const Member& m : members) {
        if (m.key == key) return &m.value;
    }
    return nullptr;
}

namespace {

// Walks the text in step with the SAX callbacks and keeps the line and
// column (in characters: UTF-8 continuation bytes do not count) of the
// cursor.
class Cursor {
   public:
    explicit Cursor(std::string_view text) : text_(text) {
        if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // nlohmann skips a BOM too
    }

    /// Skips whitespace and the separators ',' and ':' that precede a token.
    void skipToToken() {
        while (pos_ < text_.size()) {
            char c = text_[pos_];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ':') {
                advance();
            } else {
                break;
            }
        }
    }
    void skipString() {
        advance();  // opening quote
        while (pos_ < text_.size() && text_[pos_] != '"') {
            if (text_[pos_] == '\\') advance();
            advance();
        }
        advance();  // closing quote
    }
    void skipNumber() {
        while (pos_ < text_.size()) {
            char c = text_[pos_];
            if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' ||
                c == 'E') {
                advance();
            } else {
                break;
            }
        }
    }
    void skip(std::size_t n) {
        for (std::size_t k = 0; k < n; ++k) advance();
    }
    /// True when the token at the cursor starts with '-' (call after
    /// skipToToken).
    bool atMinus() const { return pos_ < text_.size() && text_[pos_] == '-'; }
    int line() const { return line_; }
    int column() const { return column_; }

   private:
    void advance() {
        if (pos_ >= text_.size()) return;
        unsigned char c = static_cast<unsigned char>(text_[pos_]);
        ++pos_;
        if (c == '\n') {
            ++line_;
            column_ = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++column_;
        }
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    int line_ = 1;
    int column_ = 1;
};

void lineColumnAt(std::string_view text, std::size_t offset, int& line, int& column) {
    line = 1;
    column = 1;
    std::size_t end = offset < text.size() ? offset : text.size();
    for (std::size_t k = 0; k < end; ++k) {
        unsigned char c = static_cast<unsigned char>(text[k]);
        if (c == '\n') {
            ++line;
            column = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++column;
        }
    }
}

std::string formatDouble(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return carom::scene::formatDouble(v);
}

class TreeBuilder {
   public:
    using json = nlohmann::json;

    TreeBuilder(std::string_view text, int maxDepth)
        : text_(text), cursor_(text), maxDepth_(maxDepth) {}

    bool null() {
        Node n = scalar(Node::Kind::Null);
        cursor_.skip(4);
        return add(std::move(n));
    }
    bool boolean(bool v) {
        Node n = scalar(Node::Kind::Bool);
        n.boolean = v;
        cursor_.skip(v ? 4 : 5);
        return add(std::move(n));
    }
    bool number_integer(json::number_integer_t v) {
        Node n = scalar(Node::Kind::Int);
        n.integer = v;
        // nlohmann reads "-0" as the integer 0; the sign matters to a float
        // field (a saved -0.0f must load back bit for bit: warm records).
        n.number = v == 0 && cursor_.atMinus() ? -0.0 : static_cast<double>(v);
        cursor_.skipNumber();
        return add(std::move(n));
    }
    bool number_unsigned(json::number_unsigned_t v) {
        Node n = scalar(Node::Kind::UInt);
        n.unsignedInteger = v;
        n.number = static_cast<double>(v);
        cursor_.skipNumber();
        return add(std::move(n));
    }
    bool number_float(json::number_float_t v, const json::string_t& raw) {
        Node n = scalar(Node::Kind::Float);
        n.number = v;
        n.text = raw;  // as written, for messages (1e-7 stays 1e-7)
        cursor_.skipNumber();
        return add(std::move(n));
    }
    bool string(json::string_t& v) {
        Node n = scalar(Node::Kind::String);
        n.text = std::move(v);
        cursor_.skipString();
        return add(std::move(n));
    }
    bool binary(json::binary_t&) { return false; }  // never produced by the JSON parser

    bool start_object(std::size_t) { return open(Node::Kind::Object); }
    bool start_array(std::size_t) { return open(Node::Kind::Array); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(json::string_t& k) {
        cursor_.skipToToken();
        Node& object = stack_.back();
        for (const Node::Member& m : object.members) {
            if (m.key == k) {
                failure_.line = cursor_.line();
                failure_.column = cursor_.column();
                failure_.path = childPath(k);
                failure_.message =
                    "duplicate key \"" + k + "\" (first at line " + std::to_string(m.line) + ")";
                return false;
            }
        }
        Node::Member m;
        m.key = std::move(k);
        m.line = cursor_.line();
        m.column = cursor_.column();
        object.members.push_back(std::move(m));
        cursor_.skipString();
        return true;
    }

    bool parse_error(std::size_t position, const std::string& lastToken,
                     const nlohmann::detail::exception& ex) {
        if (ex.id == 406 && lastToken.size() <= position) {
            // A number too large for a double: point at the number itself.
            lineColumnAt(text_, position - lastToken.size(), failure_.line, failure_.column);
            failure_.path = pendingPath();
            failure_.message = "must be a finite number, got " + lastToken;
            return false;
        }
        lineColumnAt(text_, position > 0 ? position - 1 : 0, failure_.line, failure_.column);
        failure_.path = currentPath();
        std::string what = ex.what();
        // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
        std::size_t colon = what.find("column ");
        if (colon != std::string::npos) colon = what.find(": ", colon);
        std::string detail = colon != std::string::npos ? what.substr(colon + 2) : what;
        failure_.message = "malformed JSON: " + detail;
        return false;
    }

    Node& result() { return root_; }
    ParseFailure& failure() { return failure_; }

   private:
    Node scalar(Node::Kind kind) {
        cursor_.skipToToken();
        Node n;
        n.kind = kind;
        n.line = cursor_.line();
        n.column = cursor_.column();
        return n;
    }

    bool open(Node::Kind kind) {
        Node n = scalar(kind);
        if (static_cast<int>(stack_.size()) >= maxDepth_) {
            failure_.line = n.line;
            failure_.column = n.column;
            failure_.path = currentPath();
            failure_.message = "nesting deeper than " + std::to_string(maxDepth_) + " levels";
            return false;
        }
        cursor_.skip(1);
        stack_.push_back(std::move(n));
        return true;
    }

    bool close() {
        cursor_.skipToToken();
        cursor_.skip(1);
        Node n = std::move(stack_.back());
        stack_.pop_back();
        return add(std::move(n));
    }

    bool add(Node&& n) {
        if (stack_.empty()) {
            root_ = std::move(n);
        } else if (stack_.back().kind == Node::Kind::Array) {
            stack_.back().items.push_back(std::move(n));
        } else {
            stack_.back().members.back().value = std::move(n);
        }
        return true;
    }

    // The path of the innermost open container, as the validator writes it.
    std::string currentPath() const {
        std::string path;
        for (std::size_t k = 1; k < stack_.size(); ++k) {
            const Node& parent = stack_[k - 1];
            if (parent.kind == Node::Kind::Array) {
                path.push_back('[');
                path.append(std::to_string(parent.items.size()));
                path.push_back(']');
            } else if (!parent.members.empty()) {
                if (!path.empty()) path += ".";
                path += parent.members.back().key;
            }
        }
        return path;
    }
    // The path of the value about to be added to the innermost container.
    std::string pendingPath() const {
        std::string p = currentPath();
        if (stack_.empty()) return p;
        const Node& top = stack_.back();
        if (top.kind == Node::Kind::Array) {
            p.push_back('[');
            p.append(std::to_string(top.items.size()));
            p.push_back(']');
            return p;
        }
        return top.members.empty() ? p : childPath(top.members.back().key);
    }
    std::string childPath(const std::string& key) const {
        std::string p = currentPath();
        return p.empty() ? key : p + "." + key;
    }

    std::string_view text_;
    Cursor cursor_;
    int maxDepth_;
    std::vector<Node> stack_;
    Node root_;
    ParseFailure failure_;
};

}  // namespace

bool parseJson(std::string_view text, int maxDepth, Node& out, ParseFailure& failure) {
    TreeBuilder builder(text, maxDepth);
    bool ok = false;
    try {
        ok = nlohmann::json::sax_parse(text, &builder, nlohmann::json::input_format_t::json,
                                       /*strict=*/true, /*ignore_comments=*/false);
    } catch (const nlohmann::json::exception& e) {
        builder.failure().message = std::string("malformed JSON: ") + e.what();
        ok = false;
    }
    if (!ok) {
        failure = std::move(builder.failure());
        if (failure.message.empty()) failure.message = "malformed JSON";
        return false;
    }
    out = std::move(builder.result());
    return true;
}

std::string describe(const Node& node) {
    switch (node.kind) {
        case Node::Kind::Null:
            return "null";
        case Node::Kind::Bool:
            return node.boolean ? "true" : "false";
        case Node::Kind::Int:
            return std::to_string(node.integer);
        case Node::Kind::UInt:
            return std::to_string(node.unsignedInteger);
        case Node::Kind::Float:
            return node.text.empty() ? formatDouble(node.number) : node.text;
        case Node::Kind::String: {
            std::string s = node.text.size() > 40 ? node.text.substr(0, 40) + "..." : node.text;
            return "the string \"" + s + "\"";
        }
        case Node::Kind::Array:
            return "an array of " + std::to_string(node.items.size()) + " items";
        case Node::Kind::Object:
            return "an object";
    }
    return "a value";
}

}  // namespace carom::scene::detail
