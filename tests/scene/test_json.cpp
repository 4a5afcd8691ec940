// The JSON pieces: float text that reads back bit for bit, positions of
// parsed values, and the key suggestions.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>

#include <nlohmann/json.hpp>

#include <carom/json_writer.hpp>

#include "json_tree.hpp"
#include "reader.hpp"

namespace carom::scene {
namespace {

TEST(JsonText, FloatsReadBackBitForBit) {
    std::mt19937 rng(12345);
    for (int k = 0; k < 200000; ++k) {
        uint32_t bits = rng();
        float f;
        std::memcpy(&f, &bits, sizeof f);
        if (!std::isfinite(f)) continue;
        std::string text = formatFloat(f);
        float back = 0.0f;
#if defined(__cpp_lib_to_chars)
        auto res = std::from_chars(text.data(), text.data() + text.size(), back);
        ASSERT_EQ(res.ec, std::errc()) << text;
#else  // no floating-point from_chars (Emscripten 3.1.6's libc++)
        char* end = nullptr;
        back = std::strtof(text.c_str(), &end);
        ASSERT_EQ(end, text.c_str() + text.size()) << text;
#endif
        uint32_t backBits;
        std::memcpy(&backBits, &back, sizeof back);
        ASSERT_EQ(backBits, bits) << text;
        // And through a JSON reader that parses doubles (nlohmann), then narrows.
        if (k % 50 == 0) {
            float viaJson = nlohmann::json::parse(text).get<float>();
            std::memcpy(&backBits, &viaJson, sizeof viaJson);
            ASSERT_EQ(backBits, bits) << text;
        }
    }
}

TEST(JsonText, WriterProducesValidJson) {
    JsonWriter j;
    j.beginObject().key("a\"b").value("x\ny\x01").key("v").value(Vec2{0.1f, -2.0f}).key("n").null();
    j.key("list").beginArray().newline().value(1).newline().value(true).endArray().endObject();
    nlohmann::json parsed = nlohmann::json::parse(j.str());
    EXPECT_EQ(parsed["a\"b"], "x\ny\x01");
    EXPECT_EQ(parsed["v"][0].get<float>(), 0.1f);
    EXPECT_TRUE(parsed["n"].is_null());
    EXPECT_EQ(parsed["list"].size(), 2u);
}

// A saved -0.0f is written "-0"; nlohmann reports it as the integer 0, and
// the tree must keep the sign (warm records reload bit for bit).
TEST(JsonTree, MinusZeroKeepsItsSign) {
    using detail::Node;
    EXPECT_EQ(formatFloat(-0.0f), "-0");
    Node root;
    detail::ParseFailure failure;
    ASSERT_TRUE(detail::parseJson("[-0, 0, -0.0, -1]", 64, root, failure)) << failure.message;
    ASSERT_EQ(root.items.size(), 4u);
    EXPECT_TRUE(std::signbit(root.items[0].number));
    EXPECT_FALSE(std::signbit(root.items[1].number));
    EXPECT_TRUE(std::signbit(root.items[2].number));
    EXPECT_EQ(root.items[3].number, -1.0);
}

TEST(JsonTree, PositionsOfValuesAndKeys) {
    using detail::Node;
    std::string text =
        "{\n  \"a\": [1, -2.5, \"x\"],\n\t\"b\": {\"c\": null, \"d\": true}, \"\xC3\xA9\": 7}";
    Node root;
    detail::ParseFailure failure;
    ASSERT_TRUE(detail::parseJson(text, 64, root, failure)) << failure.message;
    ASSERT_EQ(root.members.size(), 3u);
    EXPECT_EQ(root.line, 1);
    EXPECT_EQ(root.column, 1);
    const Node::Member& a = root.members[0];
    EXPECT_EQ(a.line, 2);
    EXPECT_EQ(a.column, 3);
    EXPECT_EQ(a.value.column, 8);
    EXPECT_EQ(a.value.items[1].kind, Node::Kind::Float);
    EXPECT_EQ(a.value.items[1].column, 12);
    EXPECT_EQ(a.value.items[2].column, 18);
    const Node::Member& b = root.members[1];
    EXPECT_EQ(b.line, 3);
    EXPECT_EQ(b.column, 2);  // after a tab
    EXPECT_EQ(b.value.members[1].value.column, 24);
    const Node::Member& e = root.members[2];
    EXPECT_EQ(e.key, "\xC3\xA9");
    EXPECT_EQ(e.value.column, 36);  // the two-byte character counts once
    EXPECT_EQ(e.value.unsignedInteger, 7u);
}

TEST(JsonTree, Suggestions) {
    EXPECT_EQ(detail::levenshtein("kitten", "sitting"), 3);
    EXPECT_EQ(detail::levenshtein("", "abc"), 3);
    EXPECT_EQ(detail::levenshtein("same", "same"), 0);
    std::vector<std::string_view> keys = {"friction", "restitution", "density"};
    EXPECT_EQ(detail::nearestKey("frction", keys), "friction");
    EXPECT_EQ(detail::nearestKey("Density", keys), "density");
    EXPECT_EQ(detail::nearestKey("colour", keys), "");
}

}  // namespace
}  // namespace carom::scene
