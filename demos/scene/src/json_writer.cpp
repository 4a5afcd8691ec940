#include <carom/json_writer.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>

namespace carom::scene {

std::string formatFloat(float v) {
    if (!std::isfinite(v)) return "null";  // JSON has no infinities; the state is checked finite elsewhere
    char buf[48];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

std::string formatDouble(double v) {
    if (!std::isfinite(v)) return "null";
    char buf[48];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

std::string jsonQuote(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 2);
    out += '"';
    for (char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                    out += buf;
                } else {
                    out += c;
                }
        }
    }
    out += '"';
    return out;
}

void JsonWriter::beforeValue() {
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (!first_.empty()) {
        if (!first_.back()) out_ += ", ";
        first_.back() = false;
    }
    if (pendingNewline_) {
        if (!out_.empty() && out_.back() == ' ') out_.pop_back();
        out_ += '\n';
        out_.append(first_.size(), ' ');
        pendingNewline_ = false;
    }
}

JsonWriter& JsonWriter::beginObject() {
    beforeValue();
    out_ += '{';
    first_.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endObject() {
    first_.pop_back();
    pendingNewline_ = false;
    out_ += '}';
    return *this;
}

JsonWriter& JsonWriter::beginArray() {
    beforeValue();
    out_ += '[';
    first_.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endArray() {
    first_.pop_back();
    pendingNewline_ = false;
    out_ += ']';
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
    beforeValue();
    out_ += jsonQuote(k);
    out_ += ": ";
    afterKey_ = true;
    return *this;
}

JsonWriter& JsonWriter::value(float v) {
    beforeValue();
    out_ += formatFloat(v);
    return *this;
}

JsonWriter& JsonWriter::value(double v) {
    beforeValue();
    out_ += formatDouble(v);
    return *this;
}

JsonWriter& JsonWriter::value(int64_t v) {
    beforeValue();
    out_ += std::to_string(v);
    return *this;
}

JsonWriter& JsonWriter::value(uint64_t v) {
    beforeValue();
    out_ += std::to_string(v);
    return *this;
}

JsonWriter& JsonWriter::value(bool v) {
    beforeValue();
    out_ += v ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view v) {
    beforeValue();
    out_ += jsonQuote(v);
    return *this;
}

JsonWriter& JsonWriter::null() {
    beforeValue();
    out_ += "null";
    return *this;
}

JsonWriter& JsonWriter::value(Vec2 v) {
    beforeValue();
    out_ += '[';
    out_ += formatFloat(v.x);
    out_ += ", ";
    out_ += formatFloat(v.y);
    out_ += ']';
    return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
    beforeValue();
    out_ += json;
    return *this;
}

JsonWriter& JsonWriter::newline() {
    pendingNewline_ = true;
    return *this;
}

}  // namespace carom::scene
