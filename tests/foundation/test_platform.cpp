// What every target (x86-64, ARM64, WebAssembly) must keep: a refused call
// throws carom::Error (the WebAssembly build catches C++ exceptions only
// when compiled and linked with -fexceptions), and a workerCount above one
// steps to the same bits whether the target starts threads or runs the
// worker pool's tasks on the calling thread (CAROM_HAS_THREADS).
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include <carom/carom.hpp>

#include "engine/core/platform.hpp"
#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

TEST(Platform, RefusedCallThrowsCaromErrorNamingTheField) {
    World world = test::makeWorld();
    test::addBox(world, {0.0f, 1.0f}, 0.5f, 0.5f);
    const uint64_t before = world.stateHash();
    BodyDef bad;
    bad.type = BodyType::Dynamic;
    bad.position = {std::numeric_limits<float>::quiet_NaN(), 0.0f};
    bool caught = false;
    try {
        world.createBody(bad);
    } catch (const Error& e) {
        caught = true;
        EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
        EXPECT_NE(std::string(e.what()).find("position"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(caught);
    EXPECT_EQ(world.bodies().size(), 1u);
    EXPECT_EQ(world.stateHash(), before);
}

TEST(Platform, WorkerCountAboveOneStepsToTheSameBits) {
    // Without threads the pool runs every task inline; with them, on
    // workerCount - 1 threads. Either way the state is the one-worker state.
    auto hashWith = [](int workers) {
        World world = test::tenRowPyramid(test::awakeDef(workers));
        test::run(world, 120);
        return world.stateHash();
    };
    const uint64_t one = hashWith(1);
    EXPECT_EQ(hashWith(2), one);
    EXPECT_EQ(hashWith(4), one) << "threads on this target: " << CAROM_HAS_THREADS;
}

}  // namespace
}  // namespace carom
