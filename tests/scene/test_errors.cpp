// Every rule of scene-format.md has a malformed file here. Each case marks
// the offending value with '@' (removed before parsing): the error must
// point at that line and column, name the JSON path, and say what was
// expected. A few cases also go through the `carom` command (exit 2,
// nothing on standard output, the message on standard error).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <string>

#include <carom/scene.hpp>

#include "scene_test_util.hpp"

namespace carom::scene {
namespace {

struct BadCase {
    const char* label;
    const char* json;     // with '@' just before the offending value
    const char* path;     // expected JSON path
    const char* message;  // expected part of the message
};

// Strips the '@' marker and returns its line and column (1-based, characters).
std::string stripMarker(const std::string& marked, int& line, int& column) {
    std::string out;
    line = 1;
    column = 1;
    int l = 1, c = 1;
    bool found = false;
    for (char ch : marked) {
        if (ch == '@' && !found) {
            line = l;
            column = c;
            found = true;
            continue;
        }
        out += ch;
        if (ch == '\n') {
            ++l;
            c = 1;
        } else if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) {
            ++c;
        }
    }
    EXPECT_TRUE(found) << "test case without a marker";
    return out;
}

void expectRefused(const BadCase& bc) {
    int line = 0, column = 0;
    std::string json = stripMarker(bc.json, line, column);
    try {
        loadString(json, "bad.json");
        ADD_FAILURE() << bc.label << ": accepted a bad file";
    } catch (const SceneError& e) {
        EXPECT_EQ(e.kind, SceneError::Kind::Invalid) << bc.label;
        EXPECT_EQ(e.path, bc.path) << bc.label << ": " << e.what();
        EXPECT_NE(e.message.find(bc.message), std::string::npos) << bc.label << ": " << e.what();
        EXPECT_EQ(e.line, line) << bc.label << ": " << e.what();
        EXPECT_EQ(e.column, column) << bc.label << ": " << e.what();
        std::string expected = "bad.json:" + std::to_string(line) + ":" + std::to_string(column) +
                               ": error: " + bc.path + ": " + e.message;
        EXPECT_EQ(std::string(e.what()), expected) << bc.label;
        // One mistake, one error: nothing that depends on the bad value is
        // reported as well (the loader goes on after an error).
        EXPECT_EQ(e.errors.size(), 1u) << bc.label << ":\n" << e.report();
    }
}

// Top level, world, materials, view.
const BadCase kTopCases[] = {
    {"missing version", R"J(@{"name": "x"})J", "(root)", "missing required key \"carom\""},
    {"version 2", R"J({"carom": @2})J", "carom", "unsupported format version: expected 1, got 2"},
    {"version string", R"J({"carom": @"1"})J", "carom", "unsupported format version"},
    {"version float", R"J({"carom": @1.5})J", "carom", "expected an integer, got 1.5"},
    {"not an object", R"J(@[1, 2])J", "(root)", "expected a scene object"},
    {"unknown top key", R"J({"carom": 1, @"bodys": []})J", "bodys",
     "unknown key \"bodys\", did you mean \"bodies\"?"},
    {"unknown key no suggestion", R"J({"carom": 1, @"zzzzzzzzz": 1})J", "zzzzzzzzz",
     "expected one of: carom, name"},
    {"name not string", R"J({"carom": 1, "name": @3})J", "name", "expected a string, got 3"},
    {"description not string", R"J({"carom": 1, "description": @true})J", "description",
     "expected a string, got true"},
    {"duration zero", R"J({"carom": 1, "duration": @0})J", "duration", "must be > 0, got 0"},
    {"duration negative", R"J({"carom": 1, "duration": @-1})J", "duration", "must be > 0, got -1"},
    {"duration string", R"J({"carom": 1, "duration": @"10"})J", "duration", "expected a number"},
    {"world not object", R"J({"carom": 1, "world": @[]})J", "world",
     "expected an object, got an array of 0 items"},
    {"gravity one number", R"J({"carom": 1, "world": {"gravity": @[0]}})J", "world.gravity",
     "expected [x, y], got an array of 1 items"},
    {"gravity string item", R"J({"carom": 1, "world": {"gravity": [0, @"a"]}})J",
     "world.gravity[1]", "expected a number"},
    {"gravity not finite float", R"J({"carom": 1, "world": {"gravity": [0, @1e39]}})J",
     "world.gravity[1]", "must be a finite number"},
    {"gravity overflowing double", R"J({"carom": 1, "world": {"gravity": [0, @1e999]}})J",
     "world.gravity[1]", "finite"},
    {"timestep zero", R"J({"carom": 1, "world": {"timestep": @0}})J", "world.timestep",
     "must be > 0, got 0"},
    {"timestep negative", R"J({"carom": 1, "world": {"timestep": @-0.01}})J", "world.timestep",
     "must be > 0"},
    {"substeps zero", R"J({"carom": 1, "world": {"substeps": @0}})J", "world.substeps",
     "must be >= 1, got 0"},
    {"substeps fraction", R"J({"carom": 1, "world": {"substeps": @2.5}})J", "world.substeps",
     "expected an integer, got 2.5"},
    {"substeps huge", R"J({"carom": 1, "world": {"substeps": @100000}})J", "world.substeps",
     "must be <= 256"},
    {"broadphase", R"J({"carom": 1, "world": {"broadphase": @"bvh"}})J", "world.broadphase",
     "expected \"tree\" or \"sap\", got \"bvh\""},
    {"sleep not bool", R"J({"carom": 1, "world": {"sleep": @1}})J", "world.sleep",
     "expected true or false, got 1"},
    {"continuous not bool", R"J({"carom": 1, "world": {"continuous": @"yes"}})J",
     "world.continuous", "expected true or false"},
    {"threads zero", R"J({"carom": 1, "world": {"threads": @0}})J", "world.threads",
     "must be >= 1, got 0"},
    {"world typo", R"J({"carom": 1, "world": {@"gravty": [0, 0]}})J", "world.gravty",
     "did you mean \"gravity\"?"},
    {"materials not object", R"J({"carom": 1, "materials": @[]})J", "materials",
     "expected an object"},
    {"material density", R"J({"carom": 1, "materials": {"m": {"density": @-1}}})J",
     "materials.m.density", "must be >= 0, got -1"},
    {"material friction", R"J({"carom": 1, "materials": {"m": {"friction": @-0.5}}})J",
     "materials.m.friction", "must be >= 0, got -0.5"},
    {"material restitution", R"J({"carom": 1, "materials": {"m": {"restitution": @-1}}})J",
     "materials.m.restitution", "must be >= 0"},
    {"material rolling", R"J({"carom": 1, "materials": {"m": {"rolling_resistance": @-1}}})J",
     "materials.m.rolling_resistance", "must be >= 0"},
    {"material typo", R"J({"carom": 1, "materials": {"m": {@"frction": 1}}})J",
     "materials.m.frction", "unknown key \"frction\", did you mean \"friction\"?"},
    {"view height", R"J({"carom": 1, "view": {"center": [0, 0], "height": @0}})J", "view.height",
     "must be > 0, got 0"},
    {"view center missing", R"J({"carom": 1, "view": @{"height": 3}})J", "view",
     "missing required key \"center\""},
    {"duplicate key", R"J({"carom": 1, "name": "a", @"name": "b"})J", "name",
     "duplicate key \"name\""},
};

// Bodies and shapes.
const BadCase kBodyCases[] = {
    {"bodies not array", R"J({"carom": 1, "bodies": @{}})J", "bodies",
     "expected an array, got an object"},
    {"body not object", R"J({"carom": 1, "bodies": [@3]})J", "bodies[0]",
     "expected an object, got 3"},
    {"body typo", R"J({"carom": 1, "bodies": [{@"positon": [0, 0]}]})J", "bodies[0].positon",
     "did you mean \"position\"?"},
    {"body name not string", R"J({"carom": 1, "bodies": [{"name": @1}]})J", "bodies[0].name",
     "expected a string, got 1"},
    {"body type", R"J({"carom": 1, "bodies": [{"type": @"dynamc"}]})J", "bodies[0].type",
     "expected \"static\", \"kinematic\" or \"dynamic\", got \"dynamc\""},
    {"position short", R"J({"carom": 1, "bodies": [{"position": @[1]}]})J", "bodies[0].position",
     "expected [x, y]"},
    {"position too far", R"J({"carom": 1, "bodies": [{"position": @[2e6, 0]}]})J",
     "bodies[0].position", "within ±1e+06 m"},
    {"angle string", R"J({"carom": 1, "bodies": [{"angle": @"0"}]})J", "bodies[0].angle",
     "expected a number"},
    {"linear velocity", R"J({"carom": 1, "bodies": [{"linear_velocity": @3}]})J",
     "bodies[0].linear_velocity", "expected [x, y], got 3"},
    {"angular velocity", R"J({"carom": 1, "bodies": [{"angular_velocity": @null}]})J",
     "bodies[0].angular_velocity", "expected a number, got null"},
    {"linear damping", R"J({"carom": 1, "bodies": [{"linear_damping": @-1}]})J",
     "bodies[0].linear_damping", "must be >= 0, got -1"},
    {"angular damping", R"J({"carom": 1, "bodies": [{"angular_damping": @-2}]})J",
     "bodies[0].angular_damping", "must be >= 0, got -2"},
    {"gravity scale", R"J({"carom": 1, "bodies": [{"gravity_scale": @[1]}]})J",
     "bodies[0].gravity_scale", "expected a number"},
    {"bullet", R"J({"carom": 1, "bodies": [{"bullet": @"no"}]})J", "bodies[0].bullet",
     "expected true or false"},
    {"fixed rotation", R"J({"carom": 1, "bodies": [{"fixed_rotation": @0}]})J",
     "bodies[0].fixed_rotation", "expected true or false"},
    {"awake", R"J({"carom": 1, "bodies": [{"awake": @1}]})J", "bodies[0].awake",
     "expected true or false"},
    {"allow sleep", R"J({"carom": 1, "bodies": [{"allow_sleep": @null}]})J",
     "bodies[0].allow_sleep", "expected true or false"},
    {"shapes not array", R"J({"carom": 1, "bodies": [{"shapes": @{}}]})J", "bodies[0].shapes",
     "expected an array"},
    {"duplicate names", "{\"carom\": 1, \"bodies\": [{\"name\": \"a\"},\n {\"name\": @\"a\"}]}",
     "bodies[1].name", "\"a\" is already used by a body alive at the same time (line 1)"},
    {"shape without type", R"J({"carom": 1, "bodies": [{"shapes": [@{"radius": 1}]}]})J",
     "bodies[0].shapes[0]", "missing required key \"type\""},
    {"shape type typo",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": @"circel", "radius": 1}]}]})J",
     "bodies[0].shapes[0].type", "did you mean \"circle\"?"},
    {"shape key typo",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, @"frction": 2}]}]})J",
     "bodies[0].shapes[0].frction", "unknown key \"frction\", did you mean \"friction\"?"},
    {"key of another shape kind",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, @"half_extents": [1, 1]}]}]})J",
     "bodies[0].shapes[0].half_extents", "unknown key \"half_extents\""},
    {"circle radius zero",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": @0}]}]})J",
     "bodies[0].shapes[0].radius", "must be > 0, got 0"},
    {"circle radius negative",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": @-1}]}]})J",
     "bodies[0].shapes[0].radius", "must be > 0, got -1"},
    {"circle radius missing", R"J({"carom": 1, "bodies": [{"shapes": [@{"type": "circle"}]}]})J",
     "bodies[0].shapes[0]", "missing required key \"radius\""},
    {"circle center",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "center": @[0, 0, 0]}]}]})J",
     "bodies[0].shapes[0].center", "expected [x, y], got an array of 3 items"},
    {"capsule same ends",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "capsule", "p1": [1, 2], "p2": @[1, 2], "radius": 1}]}]})J",
     "bodies[0].shapes[0].p2", "must differ from p1"},
    {"capsule radius",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "capsule", "p1": [0, 0], "p2": [1, 0], "radius": @-0.1}]}]})J",
     "bodies[0].shapes[0].radius", "must be > 0"},
    {"capsule p1 missing",
     R"J({"carom": 1, "bodies": [{"shapes": [@{"type": "capsule", "p2": [1, 0], "radius": 1}]}]})J",
     "bodies[0].shapes[0]", "missing required key \"p1\""},
    {"box zero extent",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "box", "half_extents": @[0, 1]}]}]})J",
     "bodies[0].shapes[0].half_extents", "both half extents must be > 0"},
    {"box negative radius",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "box", "half_extents": [1, 1], "radius": @-1}]}]})J",
     "bodies[0].shapes[0].radius", "must be >= 0"},
    {"box angle",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "box", "half_extents": [1, 1], "angle": @"x"}]}]})J",
     "bodies[0].shapes[0].angle", "expected a number"},
    {"polygon two points",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "polygon", "vertices": @[[0, 0], [1, 0]]}]}]})J",
     "bodies[0].shapes[0].vertices", "expected 3 or more vertices, got 2"},
    {"polygon collinear",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "polygon", "vertices": @[[0, 0], [1, 0], [2, 0]]}]}]})J",
     "bodies[0].shapes[0].vertices", "positive area"},
    {"polygon duplicates",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "polygon", "vertices": @[[0, 0], [0, 0], [1, 1], [1, 1]]}]}]})J",
     "bodies[0].shapes[0].vertices", "positive area"},
    {"polygon vertex",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "polygon", "vertices": [[0, 0], [1, 0], @[1]]}]}]})J",
     "bodies[0].shapes[0].vertices[2]", "expected [x, y]"},
    {"polygon radius",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "polygon", "vertices": [[0, 0], [1, 0], [0, 1]], "radius": @-1}]}]})J",
     "bodies[0].shapes[0].radius", "must be >= 0"},
    {"segment same ends",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "segment", "p1": [0, 0], "p2": @[0, 0]}]}]})J",
     "bodies[0].shapes[0].p2", "must differ from p1"},
    {"chain one point",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "chain", "points": @[[0, 0]]}]}]})J",
     "bodies[0].shapes[0].points", "expected 2 or more points, got 1"},
    {"chain loop two points",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "chain", "loop": true, "points": @[[0, 0], [1, 0]]}]}]})J",
     "bodies[0].shapes[0].points", "expected 3 or more points, got 2"},
    {"chain repeated point",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "chain", "points": [[0, 0], [1, 0], @[1, 0]]}]}]})J",
     "bodies[0].shapes[0].points[2]", "must differ from the previous point"},
    {"chain loop flag",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "chain", "points": [[0, 0], [1, 0]], "loop": @"no"}]}]})J",
     "bodies[0].shapes[0].loop", "expected true or false"},
    {"chain sensor",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "chain", "points": [[0, 0], [1, 0]], "sensor": @true}]}]})J",
     "bodies[0].shapes[0].sensor", "a chain cannot be a sensor"},
    {"unknown material",
     R"J({"carom": 1, "materials": {"ice": {}}, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "material": @"ic"}]}]})J",
     "bodies[0].shapes[0].material", "unknown material \"ic\", did you mean \"ice\"?"},
    {"shape density",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "density": @-1}]}]})J",
     "bodies[0].shapes[0].density", "must be >= 0, got -1"},
    {"shape friction",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "friction": @-1}]}]})J",
     "bodies[0].shapes[0].friction", "must be >= 0"},
    {"shape restitution",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "restitution": @-1}]}]})J",
     "bodies[0].shapes[0].restitution", "must be >= 0"},
    {"shape rolling",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "rolling_resistance": @-1}]}]})J",
     "bodies[0].shapes[0].rolling_resistance", "must be >= 0"},
    {"sensor not bool",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "sensor": @1}]}]})J",
     "bodies[0].shapes[0].sensor", "expected true or false"},
    {"filter category negative",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "filter": {"category": @-1}}]}]})J",
     "bodies[0].shapes[0].filter.category", "expected an unsigned 64-bit integer, got -1"},
    {"filter mask string",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "filter": {"mask": @"all"}}]}]})J",
     "bodies[0].shapes[0].filter.mask", "expected an unsigned 64-bit integer"},
    {"filter mask too big",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "filter": {"mask": @18446744073709551616}}]}]})J",
     "bodies[0].shapes[0].filter.mask", "expected an unsigned 64-bit integer"},
    {"filter group fraction",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "filter": {"group": @1.5}}]}]})J",
     "bodies[0].shapes[0].filter.group", "expected an integer"},
    {"filter group range",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "filter": {"group": @3000000000}}]}]})J",
     "bodies[0].shapes[0].filter.group", "must be <= 2147483647"},
    {"filter typo",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "filter": {@"categories": 2}}]}]})J",
     "bodies[0].shapes[0].filter.categories", "did you mean \"category\"?"},
    {"one way not bool",
     R"J({"carom": 1, "bodies": [{"shapes": [{"type": "box", "half_extents": [1, 1], "one_way": @"up"}]}]})J",
     "bodies[0].shapes[0].one_way", "expected true or false"},
};

// Generators.
const BadCase kGeneratorCases[] = {
    {"generator kind",
     R"J({"carom": 1, "bodies": [{"generate": @"hexagon", "rows": 1, "step": [1, 1], "body": {}}]})J",
     "bodies[0].generate", "expected \"grid\" or \"pyramid\", got \"hexagon\""},
    {"rows zero",
     R"J({"carom": 1, "bodies": [{"generate": "pyramid", "rows": @0, "step": [1, 1], "body": {}}]})J",
     "bodies[0].rows", "must be >= 1, got 0"},
    {"rows missing",
     R"J({"carom": 1, "bodies": [@{"generate": "pyramid", "step": [1, 1], "body": {}}]})J",
     "bodies[0]", "missing required key \"rows\""},
    {"columns missing",
     R"J({"carom": 1, "bodies": [@{"generate": "grid", "rows": 2, "step": [1, 1], "body": {}}]})J",
     "bodies[0]", "missing required key \"columns\""},
    {"columns in pyramid",
     R"J({"carom": 1, "bodies": [{"generate": "pyramid", "rows": 2, @"columns": 2, "step": [1, 1], "body": {}}]})J",
     "bodies[0].columns", "unknown key \"columns\""},
    {"step missing",
     R"J({"carom": 1, "bodies": [@{"generate": "grid", "rows": 2, "columns": 2, "body": {}}]})J",
     "bodies[0]", "missing required key \"step\""},
    {"body missing",
     R"J({"carom": 1, "bodies": [@{"generate": "grid", "rows": 2, "columns": 2, "step": [1, 1]}]})J",
     "bodies[0]", "missing required key \"body\""},
    {"template error",
     R"J({"carom": 1, "bodies": [{"generate": "grid", "rows": 2, "columns": 2, "step": [1, 1], "body": {"shapes": [{"type": "circle", "radius": @0}]}}]})J",
     "bodies[0].body.shapes[0].radius", "must be > 0"},
    {"too many bodies grid",
     R"J({"carom": 1, "bodies": [@{"generate": "grid", "rows": 1000, "columns": 1000, "step": [1, 1], "body": {}}]})J",
     "bodies[0]", "makes 1000000 bodies; a scene may create at most 200000"},
    {"too many bodies pyramid",
     R"J({"carom": 1, "bodies": [@{"generate": "pyramid", "rows": 200000, "step": [1, 1], "body": {}}]})J",
     "bodies[0]", "makes 20000100000 bodies"},
    {"too many bodies overall",
     R"J({"carom": 1, "bodies": [{"generate": "grid", "rows": 400, "columns": 400, "step": [1, 1], "body": {}}, @{"generate": "grid", "rows": 300, "columns": 300, "step": [1, 1], "body": {}}]})J",
     "bodies[1]", "(40000 left)"},
    {"generated name clash",
     R"J({"carom": 1, "bodies": [{"name": "box[1]"}, {"generate": "grid", "rows": 1, "columns": 3, "step": [1, 1], "body": {"name": @"box"}}]})J",
     "bodies[1].body.name", "generated name \"box[1]\" is already used"},
    {"copy too far",
     R"J({"carom": 1, "bodies": [@{"generate": "grid", "rows": 1, "columns": 3, "step": [900000, 1], "body": {}}]})J",
     "bodies[0]", "copy 2 lies beyond +-1e6 m"},
};

// Joints.
const char* kTwoBodies =
    R"J("bodies": [{"name": "a", "position": [0, 0]}, {"name": "b", "position": [2, 0]}])J";

std::string withBodies(const std::string& rest) {
    return std::string("{\"carom\": 1, ") + kTwoBodies + ", " + rest + "}";
}

void expectJointRefused(const char* label, const std::string& joints, const char* path,
                        const char* message) {
    std::string json = withBodies(joints);
    BadCase bc{label, json.c_str(), path, message};
    expectRefused(bc);
}

TEST(SceneErrors, TopLevelWorldMaterialsView) {
    for (const BadCase& bc : kTopCases) expectRefused(bc);
}

TEST(SceneErrors, BodiesAndShapes) {
    for (const BadCase& bc : kBodyCases) expectRefused(bc);
}

TEST(SceneErrors, Generators) {
    for (const BadCase& bc : kGeneratorCases) expectRefused(bc);
}

TEST(SceneErrors, Joints) {
    expectJointRefused("joints not array", R"J("joints": @{})J", "joints", "expected an array");
    expectJointRefused("joint type", R"J("joints": [{"type": @"hinge", "a": "a", "b": "b"}])J",
                       "joints[0].type", "expected \"revolute\"");
    expectJointRefused("joint type typo",
                       R"J("joints": [{"type": @"revolut", "a": "a", "b": "b"}])J",
                       "joints[0].type", "did you mean \"revolute\"?");
    expectJointRefused("joint a missing",
                       R"J("joints": [@{"type": "weld", "b": "b", "anchor": [1, 0]}])J",
                       "joints[0]", "missing required key \"a\"");
    expectJointRefused("same bodies",
                       R"J("joints": [{"type": "weld", "a": "a", "b": @"a", "anchor": [1, 0]}])J",
                       "joints[0].b", "must name a different body than a");
    expectJointRefused("unknown body",
                       R"J("joints": [{"type": "weld", "a": @"c", "b": "b", "anchor": [1, 0]}])J",
                       "joints[0].a", "no body named \"c\" is alive");
    expectJointRefused("unknown body suggestion",
                       R"J("joints": [{"type": "weld", "a": "a", "b": @"bb", "anchor": [1, 0]}])J",
                       "joints[0].b", "did you mean \"b\"?");
    expectJointRefused("anchor missing",
                       R"J("joints": [@{"type": "revolute", "a": "a", "b": "b"}])J", "joints[0]",
                       "missing required key \"anchor\"");
    expectJointRefused(
        "limit order",
        R"J("joints": [{"type": "revolute", "a": "a", "b": "b", "anchor": [1, 0], "limit": {"lower": 1, "upper": @0}}])J",
        "joints[0].limit.upper", "must be >= lower (1), got 0");
    expectJointRefused(
        "limit missing upper",
        R"J("joints": [{"type": "revolute", "a": "a", "b": "b", "anchor": [1, 0], "limit": @{"lower": 1}}])J",
        "joints[0].limit", "missing required key \"upper\"");
    expectJointRefused(
        "motor torque missing",
        R"J("joints": [{"type": "revolute", "a": "a", "b": "b", "anchor": [1, 0], "motor": @{"speed": 1}}])J",
        "joints[0].motor", "missing required key \"max_torque\"");
    expectJointRefused(
        "prismatic motor force",
        R"J("joints": [{"type": "prismatic", "a": "a", "b": "b", "anchor": [1, 0], "motor": {"speed": 1, @"max_torque": 3}}])J",
        "joints[0].motor.max_torque", "did you mean \"max_force\"?");
    expectJointRefused(
        "motor torque negative",
        R"J("joints": [{"type": "wheel", "a": "a", "b": "b", "anchor": [1, 0], "motor": {"speed": 1, "max_torque": @-3}}])J",
        "joints[0].motor.max_torque", "must be >= 0");
    expectJointRefused(
        "spring hertz",
        R"J("joints": [{"type": "revolute", "a": "a", "b": "b", "anchor": [1, 0], "spring": {"hertz": @-1}}])J",
        "joints[0].spring.hertz", "must be >= 0, got -1");
    expectJointRefused(
        "spring target angle",
        R"J("joints": [{"type": "revolute", "a": "a", "b": "b", "anchor": [1, 0], "spring": {"hertz": 1, "target": @4}}])J",
        "joints[0].spring.target", "must be within");
    expectJointRefused("filter joint anchor",
                       R"J("joints": [{"type": "filter", "a": "a", "b": "b", @"anchor": [1, 0]}])J",
                       "joints[0].anchor", "unknown key");
    expectJointRefused(
        "spring target on distance",
        R"J("joints": [{"type": "distance", "a": "a", "b": "b", "anchor_a": [0, 0], "anchor_b": [2, 0], "spring": {"hertz": 1, @"target": 1}}])J",
        "joints[0].spring.target", "unknown key");
    expectJointRefused(
        "spring damping",
        R"J("joints": [{"type": "wheel", "a": "a", "b": "b", "anchor": [1, 0], "spring": {"hertz": 1, "damping_ratio": @-1}}])J",
        "joints[0].spring.damping_ratio", "must be >= 0");
    expectJointRefused(
        "axis zero",
        R"J("joints": [{"type": "prismatic", "a": "a", "b": "b", "anchor": [1, 0], "axis": @[0, 0]}])J",
        "joints[0].axis", "non-zero axis");
    expectJointRefused(
        "axis on revolute",
        R"J("joints": [{"type": "revolute", "a": "a", "b": "b", "anchor": [1, 0], @"axis": [0, 1]}])J",
        "joints[0].axis", "unknown key \"axis\"");
    expectJointRefused(
        "distance anchors coincide",
        R"J("joints": [{"type": "distance", "a": "a", "b": "b", "anchor_a": [1, 0], "anchor_b": @[1, 0]}])J",
        "joints[0].anchor_b", "the anchors coincide");
    expectJointRefused(
        "distance length zero",
        R"J("joints": [{"type": "distance", "a": "a", "b": "b", "anchor_a": [0, 0], "anchor_b": [2, 0], "length": @0}])J",
        "joints[0].length", "must be > 0, got 0");
    expectJointRefused(
        "distance min max",
        R"J("joints": [{"type": "distance", "a": "a", "b": "b", "anchor_a": [0, 0], "anchor_b": [2, 0], "min_length": 3, "max_length": @1}])J",
        "joints[0].max_length", "must be >= min_length (3), got 1");
    expectJointRefused(
        "distance anchor typo",
        R"J("joints": [{"type": "distance", "a": "a", "b": "b", "anchor_a": [0, 0], @"anchorb": [2, 0]}])J",
        "joints[0].anchorb", "did you mean \"anchor_b\"?");
    expectJointRefused(
        "weld hertz",
        R"J("joints": [{"type": "weld", "a": "a", "b": "b", "anchor": [1, 0], "linear_hertz": @-1}])J",
        "joints[0].linear_hertz", "must be >= 0");
    expectJointRefused(
        "motor correction",
        R"J("joints": [{"type": "motor", "a": "a", "b": "b", "correction_factor": @2}])J",
        "joints[0].correction_factor", "must be <= 1, got 2");
    expectJointRefused("motor max force",
                       R"J("joints": [{"type": "motor", "a": "a", "b": "b", "max_force": @-2}])J",
                       "joints[0].max_force", "must be >= 0");
    expectJointRefused(
        "collide connected",
        R"J("joints": [{"type": "weld", "a": "a", "b": "b", "anchor": [1, 0], "collide_connected": @"no"}])J",
        "joints[0].collide_connected", "expected true or false");
}

// The live settings' keys (scene-format.md "Additions").
TEST(SceneErrors, LiveSettingsKeys) {
    const BadCase cases[] = {
        {"contact hertz", R"J({"carom": 1, "world": {"contact_hertz": @-1}})J",
         "world.contact_hertz", "must be within [0, 1e+06] Hz, got -1"},
        {"push speed", R"J({"carom": 1, "world": {"contact_push_max_speed": @1e6}})J",
         "world.contact_push_max_speed", "must be within [0, 100000] m/s"},
        {"max speed", R"J({"carom": 1, "world": {"max_linear_speed": @0}})J",
         "world.max_linear_speed", "must be > 0, got 0"},
        {"mixing", R"J({"carom": 1, "world": {"friction_mixing": @"median"}})J",
         "world.friction_mixing",
         "expected \"geometric_mean\", \"min\", \"max\" or \"average\", got \"median\""},
        {"warm starting", R"J({"carom": 1, "world": {"warm_starting": @1}})J",
         "world.warm_starting", "expected true or false"},
        {"sleep threshold", R"J({"carom": 1, "bodies": [{"sleep_threshold": @-1}]})J",
         "bodies[0].sleep_threshold", "must be within [0, 100000] m/s, got -1"},
        {"lock key", R"J({"carom": 1, "bodies": [{"motion_locks": {@"linear_z": true}}]})J",
         "bodies[0].motion_locks.linear_z", "unknown key \"linear_z\""},
        {"enabled", R"J({"carom": 1, "bodies": [{"enabled": @"no"}]})J", "bodies[0].enabled",
         "expected true or false"},
        {"tangent speed",
         R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "tangent_speed": @2e5}]}]})J",
         "bodies[0].shapes[0].tangent_speed", "must be within [-100000, 100000] m/s, got 2e5"},
        {"tangent speed on a chain",
         R"J({"carom": 1, "bodies": [{"type": "static", "shapes": [{"type": "chain", "points": [[0, 0], [1, 0]], @"tangent_speed": 1}]}]})J",
         "bodies[0].shapes[0].tangent_speed", "unknown key \"tangent_speed\""},
        {"wind speed",
         R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "wind": {"velocity": @[2e5, 0]}}]}]})J",
         "bodies[0].shapes[0].wind.velocity", "finite with a speed of at most 100000 m/s"},
        {"wind drag",
         R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "wind": {"drag": @-1}}]}]})J",
         "bodies[0].shapes[0].wind.drag", "got -1"},
        {"wind key",
         R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "wind": {@"speed": 1}}]}]})J",
         "bodies[0].shapes[0].wind.speed", "unknown key \"speed\""},
        {"wind on a chain",
         R"J({"carom": 1, "bodies": [{"type": "static", "shapes": [{"type": "chain", "points": [[0, 0], [1, 0]], "wind": @{}}]}]})J",
         "bodies[0].shapes[0].wind", "a chain takes no wind"},
        {"material id",
         R"J({"carom": 1, "bodies": [{"shapes": [{"type": "circle", "radius": 1, "material_id": @-1}]}]})J",
         "bodies[0].shapes[0].material_id", ""},
    };
    for (const BadCase& bc : cases) expectRefused(bc);
}

// The world keys of the solver switches that were removed: refused at the
// value whatever it is, naming the key and saying what every world now
// does; the keys of WorldDef::tuning refuse a value outside the range,
// reported at their key (the engine names them tuning.X).
TEST(SceneErrors, RemovedSolverSwitchKeysAndTuningKeys) {
    const BadCase cases[] = {
        {"friction in relax only", R"J({"carom": 1, "world": {"friction_in_relax_only": @true}})J",
         "world.friction_in_relax_only",
         "is no longer a setting: friction and rolling resistance always run in both the solve and "
         "the relax pass; remove the key"},
        {"friction in relax only false",
         R"J({"carom": 1, "world": {"friction_in_relax_only": @false}})J",
         "world.friction_in_relax_only", "is no longer a setting"},
        {"relax shock scaled masses",
         R"J({"carom": 1, "world": {"relax_shock_scaled_masses": @false}})J",
         "world.relax_shock_scaled_masses",
         "is no longer a setting: the shock-scaled relax pass (relax_shock_scale) always uses the "
         "scaled bodies' masses; remove the key"},
        {"contact push holds load",
         R"J({"carom": 1, "world": {"contact_push_holds_load": @true}})J",
         "world.contact_push_holds_load",
         "is no longer a setting: contact_push_max_speed always bounds the whole push-out speed; "
         "remove the key"},
        {"relax shock scale", R"J({"carom": 1, "world": {"relax_shock_scale": @0}})J",
         "world.relax_shock_scale", "must be within (0, 1], got 0"},
        {"contact leak scale", R"J({"carom": 1, "world": {"contact_leak_scale": @1.5}})J",
         "world.contact_leak_scale", "must be within (0, 1], got 1.5"},
        {"contact relax passes", R"J({"carom": 1, "world": {"contact_relax_passes": @9}})J",
         "world.contact_relax_passes", "must be <= 8, got 9"},
        {"joint direct solve", R"J({"carom": 1, "world": {"joint_direct_solve": @1}})J",
         "world.joint_direct_solve", "expected true or false"},
    };
    for (const BadCase& bc : cases) expectRefused(bc);
}

TEST(SceneErrors, JointThresholds) {
    expectJointRefused(
        "force threshold negative",
        R"J("joints": [{"type": "weld", "a": "a", "b": "b", "anchor": [1, 0], "force_threshold": @-1}])J",
        "joints[0].force_threshold", "must be >= 0, got -1");
    expectJointRefused(
        "torque threshold text",
        R"J("joints": [{"type": "motor", "a": "a", "b": "b", "torque_threshold": @"big"}])J",
        "joints[0].torque_threshold", "expected a number");
    expectJointRefused(
        "threshold typo",
        R"J("joints": [{"type": "weld", "a": "a", "b": "b", "anchor": [1, 0], @"force_treshold": 3}])J",
        "joints[0].force_treshold", "did you mean \"force_threshold\"?");
}

TEST(SceneErrors, Events) {
    expectJointRefused("events not array", R"J("events": @{})J", "events", "expected an array");
    expectJointRefused("time missing", R"J("events": [@{"action": "destroy", "body": "a"}])J",
                       "events[0]", "missing required key \"time\"");
    expectJointRefused("time negative",
                       R"J("events": [{"time": @-1, "action": "destroy", "body": "a"}])J",
                       "events[0].time", "must be >= 0, got -1");
    expectJointRefused("action missing", R"J("events": [@{"time": 1, "body": "a"}])J", "events[0]",
                       "missing required key \"action\"");
    expectJointRefused("action unknown", R"J("events": [{"time": 1, "action": @"teleport"}])J",
                       "events[0].action", "expected \"impulse\"");
    expectJointRefused("action typo",
                       R"J("events": [{"time": 1, "action": @"destory", "body": "a"}])J",
                       "events[0].action", "did you mean \"destroy\"?");
    expectJointRefused(
        "impulse body unknown",
        R"J("events": [{"time": 1, "action": "impulse", "body": @"z", "impulse": [1, 0]}])J",
        "events[0].body", "no body named \"z\" is alive at t=1");
    expectJointRefused("impulse missing",
                       R"J("events": [@{"time": 1, "action": "impulse", "body": "a"}])J",
                       "events[0]", "missing required key \"impulse\"");
    expectJointRefused(
        "impulse point",
        R"J("events": [{"time": 1, "action": "impulse", "body": "a", "impulse": [1, 0], "point": @"c"}])J",
        "events[0].point", "expected [x, y]");
    expectJointRefused(
        "impulse key of another action",
        R"J("events": [{"time": 1, "action": "impulse", "body": "a", "impulse": [1, 0], @"gravity": [0, 1]}])J",
        "events[0].gravity", "unknown key \"gravity\"");
    expectJointRefused("set velocity nothing",
                       R"J("events": [@{"time": 1, "action": "set_velocity", "body": "a"}])J",
                       "events[0]", "missing key \"linear_velocity\" or \"angular_velocity\"");
    expectJointRefused(
        "set velocity value",
        R"J("events": [{"time": 1, "action": "set_velocity", "body": "a", "angular_velocity": @[1]}])J",
        "events[0].angular_velocity", "expected a number");
    expectJointRefused("gravity missing", R"J("events": [@{"time": 1, "action": "gravity"}])J",
                       "events[0]", "missing required key \"gravity\"");
    expectJointRefused(
        "destroy twice",
        R"J("events": [{"time": 1, "action": "destroy", "body": "a"}, {"time": 2, "action": "destroy", "body": @"a"}])J",
        "events[1].body", "no body named \"a\" is alive at t=2");
    // Events apply in time order, not file order: the impulse at t=2 comes after the destroy at
    // t=1.
    expectJointRefused(
        "impulse after destroy",
        R"J("events": [{"time": 2, "action": "impulse", "body": @"a", "impulse": [1, 0]}, {"time": 1, "action": "destroy", "body": "a"}])J",
        "events[0].body", "no body named \"a\" is alive at t=2");
    expectJointRefused(
        "spawn name clash",
        R"J("events": [{"time": 1, "action": "spawn", "bodies": [{"name": @"a"}]}])J",
        "events[0].bodies[0].name", "\"a\" is already used");
    expectJointRefused("spawn bodies missing", R"J("events": [@{"time": 1, "action": "spawn"}])J",
                       "events[0]", "missing required key \"bodies\"");
    expectJointRefused(
        "spawn joint unknown body",
        R"J("events": [{"time": 1, "action": "spawn", "bodies": [{"name": "c"}], "joints": [{"type": "weld", "a": "c", "b": @"d", "anchor": [0, 0]}]}])J",
        "events[0].joints[0].b", "no body named \"d\" is alive");
    expectJointRefused(
        "spawn joint to later body",
        R"J("events": [{"time": 1, "action": "spawn", "bodies": [{"name": "c"}], "joints": [{"type": "weld", "a": "c", "b": @"e", "anchor": [0, 0]}]}, {"time": 2, "action": "spawn", "bodies": [{"name": "e"}]}])J",
        "events[0].joints[0].b", "no body named \"e\"");
    expectJointRefused(
        "spawned shape",
        R"J("events": [{"time": 1, "action": "spawn", "bodies": [{"shapes": [{"type": "box", "half_extents": @[1, -1]}]}]}])J",
        "events[0].bodies[0].shapes[0].half_extents", "both half extents must be > 0");
    expectJointRefused(
        "spawn budget",
        R"J("events": [{"time": 1, "action": "spawn", "bodies": [@{"generate": "grid", "rows": 1000, "columns": 200, "step": [1, 1], "body": {}}]}])J",
        "events[0].bodies[0]", "a scene may create at most 200000 bodies in all (199998 left)");
}

TEST(SceneErrors, MalformedJson) {
    expectRefused({"trailing comma", "{\"carom\": 1, \"bodies\": [{\"name\": \"a\",@}]}",
                   "bodies[0]", "malformed JSON"});
    expectRefused(
        {"unterminated", "{\"carom\": 1,\n \"name\": \"abc@", "(root)", "malformed JSON"});
    expectRefused({"bad literal", "{\"carom\": 1, \"sleep\": tru@}", "(root)", "malformed JSON"});
    expectRefused({"empty", "@", "(root)", "malformed JSON"});
    expectRefused({"comment", "{\"carom\": 1 @// no comments\n}", "(root)", "malformed JSON"});
    // Columns count characters, not bytes.
    expectRefused({"utf8 columns",
                   "{\"carom\": 1, \"name\": \"\xC3\xA9t\xC3\xA9\", \"duration\": @-2}", "duration",
                   "must be > 0"});
}

TEST(SceneErrors, Limits) {
    std::string deep = std::string(70, '[') + std::string(70, ']');
    try {
        loadString(deep, "deep.json");
        ADD_FAILURE() << "accepted 70 levels of nesting";
    } catch (const SceneError& e) {
        EXPECT_NE(e.message.find("nesting deeper than 64 levels"), std::string::npos) << e.what();
        EXPECT_EQ(e.line, 1);
        EXPECT_EQ(e.column, 65);
    }
    // Nesting within the limit is a different error (not a scene object).
    EXPECT_THROW(loadString(std::string(60, '[') + std::string(60, ']'), "ok.json"), SceneError);

    std::string huge(static_cast<std::size_t>(kMaxFileBytes) + 1, ' ');
    try {
        loadString(huge, "huge.json");
        ADD_FAILURE() << "accepted a file above the size limit";
    } catch (const SceneError& e) {
        EXPECT_NE(e.message.find("larger than the limit"), std::string::npos) << e.what();
    }

    try {
        loadFile(test::tempDir() + "/does_not_exist.json");
        ADD_FAILURE() << "loaded a missing file";
    } catch (const SceneError& e) {
        EXPECT_EQ(e.kind, SceneError::Kind::Io);
        EXPECT_NE(std::string(e.what()).find("does_not_exist.json: error: cannot open the file"),
                  std::string::npos);
    }
}

// A body name over 255 bytes is refused by the loader at the name (not by
// the engine when the world is built, at the body's '{'), and a
// generator whose copies' names ("NAME[index]") grow over the limit at its
// template's name.
TEST(SceneErrors, BodyNameOverTheLimitIsReportedAtTheName) {
    const std::string name256(256, 'n');
    const std::string body =
        "{\"carom\": 1, \"bodies\": [{\"shapes\": [{\"type\": \"circle\", \"radius\": 1}],\n "
        "\"name\": @\"" +
        name256 + "\"}]}";
    expectRefused({"name of 256 bytes", body.c_str(), "bodies[0].name",
                   "must be at most 255 bytes, got 256 bytes"});
    const std::string name252(252, 'g');
    const std::string generator =
        "{\"carom\": 1, \"bodies\": [{\"generate\": \"grid\", \"rows\": 10, \"columns\": 100, "
        "\"step\": [1, 1],\n \"body\": {\"name\": @\"" +
        name252 + "\"}}]}";
    const std::string message = "the name of copy 999, \"" + name252 +
                                "[999]\", would be 257 bytes; a name has at most 255 bytes";
    expectRefused({"generated names over 255 bytes", generator.c_str(), "bodies[0].body.name",
                   message.c_str()});
    // 255 bytes is a name.
    EXPECT_NO_THROW(SceneRunner(loadString(
        "{\"carom\": 1, \"bodies\": [{\"name\": \"" + std::string(255, 'n') + "\"}]}", "ok.json")));
}

// The loader stopped at a file's first error. Three independent errors (a
// joint written before the bodies, a shape, a body's type) are all
// reported, in file order, the first as what() always was, and the command
// prints all three and exits 2.
TEST(SceneErrors, EveryIndependentErrorIsReportedInFileOrder) {
    const std::string json =
        "{\"carom\": 1,\n"
        " \"joints\": [{\"type\": \"revolute\", \"a\": \"a\", \"b\": \"b\", \"anchor\": [0, "
        "\"x\"]}],\n"
        " \"bodies\": [\n"
        "  {\"name\": \"a\", \"shapes\": [{\"type\": \"circle\", \"radius\": -1}]},\n"
        "  {\"name\": \"b\", \"type\": \"dynamc\"}]}\n";
    const std::string first =
        "three.json:2:68: error: joints[0].anchor[1]: expected a number, got the string \"x\"";
    const std::string second =
        "three.json:4:57: error: bodies[0].shapes[0].radius: must be > 0, got -1";
    const std::string third =
        "three.json:5:25: error: bodies[1].type: expected \"static\", \"kinematic\" or "
        "\"dynamic\", got \"dynamc\"";
    try {
        loadString(json, "three.json");
        ADD_FAILURE() << "accepted a file with three errors";
    } catch (const SceneError& e) {
        EXPECT_EQ(std::string(e.what()), first);
        ASSERT_EQ(e.errors.size(), 3u) << e.report();
        EXPECT_EQ(std::string(e.errors[0].what()), first);
        EXPECT_EQ(std::string(e.errors[1].what()), second);
        EXPECT_EQ(std::string(e.errors[2].what()), third);
        EXPECT_EQ(e.moreErrors, 0);
        EXPECT_EQ(e.report(), first + "\n" + second + "\n" + third + "\n");
    }
    const std::string file = test::writeTemp("three.json", json);
    test::CliResult r = test::runCli({"validate", "three.json"}, test::tempDir());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, first + "\n" + second + "\n" + third + "\n");
}

// An element that depends on one that failed is skipped, not reported: one
// mistake, one error. Here five mistakes (materials not an object, a
// generator's misspelt key, a body's misspelt key, a joint's misspelt type,
// an event's negative time) and the elements naming what they broke (a
// shape's material, joints and events naming the generator's copies, a gear
// naming the failed joint, an event naming a body that event would have
// spawned) give five errors; a joint naming the body whose key was
// misspelt is checked as usual (its name stands).
TEST(SceneErrors, WhatNamesAFailedElementIsNotReportedAgain) {
    const std::string json = R"J({"carom": 1,
 "materials": [],
 "bodies": [
  {"name": "ground", "type": "static", "shapes": [{"type": "box", "half_extents": [5, 1], "material": "ice"}]},
  {"generate": "grid", "rows": 2, "colums": 2, "step": [1, 1], "body": {"name": "box", "shapes": [{"type": "circle", "radius": 0.5}]}},
  {"name": "wheel", "positon": [0, 3], "shapes": [{"type": "circle", "radius": 0.5}]}],
 "joints": [
  {"name": "hinge", "type": "revolute", "a": "ground", "b": "box[1]", "anchor": [0, 0]},
  {"name": "axle", "type": "revolve", "a": "ground", "b": "wheel", "anchor": [0, 3]},
  {"type": "gear", "joint_a": "axle", "joint_b": "hinge", "ratio": 1},
  {"type": "weld", "a": "wheel", "b": "ground", "anchor": [0, 0]}],
 "events": [
  {"time": 1, "action": "destroy", "body": "box[0]"},
  {"time": -1, "action": "spawn", "bodies": [{"name": "late", "shapes": [{"type": "circle", "radius": 1}]}]},
  {"time": 2, "action": "impulse", "body": "late", "impulse": [0, 1]}]}
)J";
    try {
        loadString(json, "cascade.json");
        ADD_FAILURE() << "accepted a bad file";
    } catch (const SceneError& e) {
        std::vector<std::string> paths;
        for (const SceneError& x : e.errors) paths.push_back(x.path);
        EXPECT_EQ(paths,
                  (std::vector<std::string>{"materials", "bodies[1].colums", "bodies[2].positon",
                                            "joints[1].type", "events[1].time"}))
            << e.report();
    }
}

// At most kMaxReportedErrors are listed, the first in file order, then how
// many more there were.
TEST(SceneErrors, AtMostTwentyErrorsAreListedThenHowManyMore) {
    std::string json = "{\"carom\": 1, \"bodies\": [";
    for (int k = 0; k < 25; ++k)
        json += std::string(k ? ",\n" : "\n") +
                "{\"shapes\": [{\"type\": \"circle\", \"radius\": -1}]}";
    json += "]}";
    try {
        loadString(json, "many.json");
        ADD_FAILURE() << "accepted a bad file";
    } catch (const SceneError& e) {
        ASSERT_EQ(e.errors.size(), static_cast<std::size_t>(kMaxReportedErrors));
        EXPECT_EQ(kMaxReportedErrors, 20);
        EXPECT_EQ(e.moreErrors, 5);
        for (int k = 0; k < kMaxReportedErrors; ++k)
            EXPECT_EQ(e.errors[static_cast<std::size_t>(k)].line, k + 2);
        const std::string report = e.report();
        EXPECT_EQ(std::count(report.begin(), report.end(), '\n'), 21);
        EXPECT_NE(report.find("\nmany.json: error: and 5 more errors (the first 20 are listed)\n"),
                  std::string::npos)
            << report;
    }
    test::writeTemp("many.json", json);
    test::CliResult r = test::runCli({"validate", "many.json"}, test::tempDir());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 21) << r.err;
    // Malformed JSON is one error, whatever else the text holds.
    try {
        loadString(json + ",", "syntax.json");
        ADD_FAILURE() << "accepted malformed JSON";
    } catch (const SceneError& e) {
        EXPECT_EQ(e.errors.size(), 1u) << e.report();
        EXPECT_NE(e.message.find("malformed JSON"), std::string::npos) << e.what();
    }
}

TEST(SceneErrors, CommandRefusesWithExitTwoAndSimulatesNothing) {
    std::string bad =
        test::writeTemp("bad_radius.json",
                        "{\"carom\": 1,\n \"bodies\": [\n  {\"name\": \"a\", \"shapes\": "
                        "[{\"type\": \"circle\", \"radius\": -1}]}\n ]}\n");
    for (const char* verb : {"run", "bench", "validate"}) {
        test::CliResult r = test::runCli({verb, bad});
        EXPECT_EQ(r.exitCode, 2) << verb;
        EXPECT_EQ(r.out, "") << verb;
        EXPECT_EQ(r.err, bad + ":3:57: error: bodies[0].shapes[0].radius: must be > 0, got -1\n")
            << verb;
    }
    std::string typo = test::writeTemp("typo.json",
                                       "{\"carom\": 1, \"bodies\": [{\"shapes\": [{\"type\": "
                                       "\"circle\", \"radius\": 1, \"frction\": 0.2}]}]}");
    test::CliResult r = test::runCli({"run", typo, "--out", test::tempDir() + "/never.json"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("error: bodies[0].shapes[0].frction: unknown key \"frction\", did you "
                         "mean \"friction\"?"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(std::ifstream(test::tempDir() + "/never.json").good());

    std::string version = test::writeTemp("v2.json", "{\"carom\": 2, \"bodies\": []}");
    r = test::runCli({"validate", version});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err,
              version + ":1:11: error: carom: unsupported format version: expected 1, got 2\n");
}

// Seeded random damage to a valid scene: every variant is either accepted
// (and then builds a world) or refused with a SceneError carrying a
// position inside the text; nothing else may escape.
TEST(SceneErrors, RandomlyDamagedFilesAreRefusedCleanly) {
    std::string good = test::readText(std::string(CAROM_SCENES_DIR) + "/spawn_events.json");
    ASSERT_FALSE(good.empty());
    std::mt19937 rng(2024);
    const std::string alphabet = "{}[],:\"0123456789-.eE tfnaxyz_";
    int refused = 0;
    for (int k = 0; k < 400; ++k) {
        std::string text = good;
        int edits = 1 + static_cast<int>(rng() % 3);
        for (int e = 0; e < edits; ++e) {
            std::size_t at = rng() % text.size();
            switch (rng() % 3) {
                case 0:
                    text.erase(at, 1);
                    break;
                case 1:
                    text[at] = alphabet[rng() % alphabet.size()];
                    break;
                default:
                    text.insert(at, 1, alphabet[rng() % alphabet.size()]);
                    break;
            }
        }
        try {
            SceneDesc d = loadString(text, "damaged.json");
            SceneRunner r(d);
            r.run(2);
        } catch (const SceneError& e) {
            ++refused;
            EXPECT_GE(e.line, 1);
            EXPECT_GE(e.column, 1);
            EXPECT_FALSE(e.path.empty());
            EXPECT_EQ(std::string(e.what()).rfind("damaged.json:", 0), 0u);
        }
    }
    EXPECT_GT(refused, 200);
}

}  // namespace
}  // namespace carom::scene
