// A small streaming JSON writer for Carom's outputs (state, saved scenes,
// query answers, bench reports).
//
// Floats are written with the shortest text that reads back to the same
// float (std::to_chars), so a saved scene reloads bit for bit; doubles the
// same way. Commas are placed automatically; newline() starts a new line
// before the next element, indented by the nesting depth, for files meant
// to be read by people.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <carom/math.hpp>

namespace carom::scene {

/// Shortest round-trip text of a float / double ("0.1", "-2.5e-07").
std::string formatFloat(float v);
std::string formatDouble(double v);
/// s as a JSON string literal with quotes and escapes.
std::string jsonQuote(std::string_view s);

class JsonWriter {
   public:
    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view k);
    JsonWriter& value(float v);
    JsonWriter& value(double v);
    JsonWriter& value(int v) { return value(static_cast<int64_t>(v)); }
    JsonWriter& value(int64_t v);
    JsonWriter& value(uint64_t v);
    JsonWriter& value(bool v);
    JsonWriter& value(std::string_view v);
    JsonWriter& value(const char* v) { return value(std::string_view(v)); }
    JsonWriter& null();
    JsonWriter& value(Vec2 v);
    /// Inserts raw, already valid JSON as the next value.
    JsonWriter& raw(std::string_view json);
    /// The next element starts on a new line.
    JsonWriter& newline();

    const std::string& str() const { return out_; }
    std::string take() { return std::move(out_); }

   private:
    void beforeValue();
    std::string out_;
    std::vector<bool> first_;  // per open container: no element written yet
    bool afterKey_ = false;
    bool pendingNewline_ = false;
};

}  // namespace carom::scene
