#include <carom/json_writer.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace carom::scene {

namespace {

#if defined(__cpp_lib_to_chars)

template <class T>
std::string shortest(T v) {
    char buf[48];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

#else

// A standard library without floating-point std::to_chars (Emscripten
// 3.1.6's libc++): the same text, the shortest that reads back to the same
// value, written the way to_chars writes it (fixed or scientific, whichever
// is shorter; fixed on a tie; an exponent of at least two digits).
template <class T>
std::string shortest(T v) {
    char buf[64];
    // The fewest significant digits that read back to v.
    int digits = 1;
    for (; digits < std::numeric_limits<T>::max_digits10; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*e", digits - 1, double(v));
        const T back = sizeof(T) == sizeof(float) ? T(std::strtof(buf, nullptr))
                                                  : T(std::strtod(buf, nullptr));
        if (back == v) break;
    }
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, double(v));
    // buf: [-]d[.ddd]e(+|-)XX
    std::string text(buf);
    const bool negative = text[0] == '-';
    const size_t e = text.find('e');
    std::string mantissa;
    for (size_t i = negative ? 1 : 0; i < e; ++i) {
        if (text[i] != '.') mantissa += text[i];
    }
    while (mantissa.size() > 1 && mantissa.back() == '0') mantissa.pop_back();
    const int exponent = std::atoi(text.c_str() + e + 1);
    std::string sci = mantissa.substr(0, 1);
    if (mantissa.size() > 1) sci += "." + mantissa.substr(1);
    char ex[16];
    std::snprintf(ex, sizeof ex, "e%c%02d", exponent < 0 ? '-' : '+',
                  exponent < 0 ? -exponent : exponent);
    sci += ex;
    std::string fixed;
    const int n = int(mantissa.size());
    if (exponent >= n - 1) {
        fixed = mantissa + std::string(size_t(exponent - (n - 1)), '0');
    } else if (exponent >= 0) {
        fixed =
            mantissa.substr(0, size_t(exponent + 1)) + "." + mantissa.substr(size_t(exponent + 1));
    } else {
        fixed = "0." + std::string(size_t(-exponent - 1), '0') + mantissa;
    }
    const std::string& best = fixed.size() <= sci.size() ? fixed : sci;
    return negative ? "-" + best : best;
}

#endif

}  // namespace

std::string formatFloat(float v) {
    if (!std::isfinite(v))
        return "null";  // JSON has no infinities; the state is checked finite elsewhere
    return shortest(v);
}

std::string formatDouble(double v) {
    if (!std::isfinite(v)) return "null";
    return shortest(v);
}

std::string jsonQuote(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 2);
    out += '"';
    for (char c : s) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x",
                                  static_cast<unsigned>(static_cast<unsigned char>(c)));
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
