// The shipped scenes: each validates and runs a second with finite state,
// and together they show every feature of the format.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include <carom/scene.hpp>

#include "scene_test_util.hpp"

namespace carom::scene {
namespace {

std::string fileName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

TEST(ShippedScenes, AtLeastFifteenAndADefault) {
    std::vector<std::string> files = test::jsonFiles(CAROM_SCENES_DIR);
    EXPECT_GE(files.size(), 15u);
    EXPECT_TRUE(std::filesystem::exists(std::string(CAROM_SCENES_DIR) + "/default.json"));
}

TEST(ShippedScenes, EachValidatesAndRunsOneSecondWithFiniteState) {
    for (const std::string& file : test::jsonFiles(CAROM_SCENES_DIR)) {
        SCOPED_TRACE(fileName(file));
        SceneDesc d = loadFile(file);
        EXPECT_FALSE(d.description.empty());
        EXPECT_TRUE(d.view.has_value());
        SceneRunner r(d);
        r.run(r.stepsFor(1.0));
        EXPECT_TRUE(test::stateIsFinite(r.world()));
        for (BodyId id : r.world().bodies()) {
            Vec2 p = r.world().position(id);
            EXPECT_LT(std::fabs(p.x) + std::fabs(p.y), 1.0e4f)
                << r.nameOf(id).value_or("(unnamed)");
        }
    }
}

TEST(ShippedScenes, TogetherShowEveryFeature) {
    std::set<std::string> seen;
    auto shapeFeatures = [&](const BodyDesc& b) {
        static const char* kinds[] = {"circle", "capsule", "box", "polygon", "segment", "chain"};
        for (const ShapeDesc& s : b.shapes) {
            seen.insert(std::string("shape:") + kinds[static_cast<int>(s.kind)]);
            if (s.def.isSensor) seen.insert("sensor");
            if (s.oneWay) seen.insert("one_way");
            if (s.material) seen.insert("material");
            if (s.def.filter.groupIndex < 0) seen.insert("negative group");
            if (s.def.filter.maskBits != ~0ull) seen.insert("mask");
            if (s.def.rollingResistance > 0.0f) seen.insert("rolling resistance");
            if (s.def.restitution > 0.0f) seen.insert("restitution");
            if (s.kind == ShapeKind::Chain && s.chainLoop) seen.insert("chain loop");
            if (const auto* p = std::get_if<Polygon>(&s.geometry); p && p->radius > 0.0f)
                seen.insert("rounded");
        }
        if (b.def.type == BodyType::Kinematic) seen.insert("kinematic");
        if (b.def.isBullet) seen.insert("bullet");
        if (b.def.fixedRotation) seen.insert("fixed rotation");
        if (b.def.gravityScale != 1.0f) seen.insert("gravity scale");
        if (b.def.linearDamping > 0.0f) seen.insert("damping");
        if (!b.def.enableSleep) seen.insert("allow_sleep false");
        if (b.character) seen.insert("character");
        if (b.path) seen.insert("path");
    };
    static const char* jointNames[] = {"revolute", "prismatic", "distance", "weld",   "wheel",
                                       "motor",    "mouse",     "gear",     "pulley", "rope"};
    static const char* actionNames[] = {"impulse", "set_velocity", "spawn",
                                        "destroy", "gravity",      "explode"};
    for (const std::string& file : test::jsonFiles(CAROM_SCENES_DIR)) {
        SceneDesc d = loadFile(file);
        for (const BodyDesc& b : d.bodies) shapeFeatures(b);
        for (const JointDesc& j : d.joints) {
            seen.insert(std::string("joint:") + jointNames[static_cast<int>(j.type)]);
            if (j.limit) seen.insert("joint limit");
            if (j.motor) seen.insert("joint motor");
            if (j.spring) seen.insert("joint spring");
        }
        for (const EventDesc& e : d.events) {
            seen.insert(std::string("event:") + actionNames[static_cast<int>(e.action)]);
            for (const BodyDesc& b : e.bodies) shapeFeatures(b);
            if (!e.joints.empty()) seen.insert("spawned joint");
        }
        if (d.world.broadphase == BroadphaseType::SortAndSweep) seen.insert("sap");
        if (!d.world.sleep) seen.insert("sleep off");
        if (d.world.substeps != 4) seen.insert("substeps");
        if (d.world.threads > 1) seen.insert("threads");
        if (!d.materials.empty()) seen.insert("materials");
    }
    for (const char* feature : {"shape:circle",
                                "shape:capsule",
                                "shape:box",
                                "shape:polygon",
                                "shape:segment",
                                "shape:chain",
                                "sensor",
                                "one_way",
                                "material",
                                "materials",
                                "negative group",
                                "mask",
                                "rolling resistance",
                                "restitution",
                                "rounded",
                                "kinematic",
                                "bullet",
                                "fixed rotation",
                                "gravity scale",
                                "damping",
                                "allow_sleep false",
                                "joint:revolute",
                                "joint:prismatic",
                                "joint:distance",
                                "joint:weld",
                                "joint:wheel",
                                "joint:motor",
                                "joint:gear",
                                "joint:pulley",
                                "joint:rope",
                                "joint limit",
                                "joint motor",
                                "joint spring",
                                "event:impulse",
                                "event:set_velocity",
                                "event:spawn",
                                "event:destroy",
                                "event:gravity",
                                "spawned joint",
                                "sap",
                                "sleep off",
                                "substeps",
                                "threads",
                                "character",
                                "path",
                                "event:explode"}) {
        EXPECT_TRUE(seen.count(feature)) << "no shipped scene shows " << feature;
    }
}

TEST(BenchScenes, LoadAndRun) {
    std::vector<std::string> files = test::jsonFiles(CAROM_BENCH_SCENES_DIR);
    EXPECT_EQ(files.size(), 8u);  // the six of Box2D v3's set plus compounds and washer
    for (const std::string& file : files) {
        SCOPED_TRACE(fileName(file));
        SceneDesc d = loadFile(file);
        EXPECT_GT(d.bodies.size(), 1000u);
        SceneRunner r(d);
        r.run(2);
        EXPECT_TRUE(test::stateIsFinite(r.world()));
        EXPECT_EQ(r.world().counters().bodies, static_cast<int>(d.bodies.size()));
    }
}

}  // namespace
}  // namespace carom::scene
