// Size and time of World::snapshot, restore and the byte form on a scene
// file, after a number of steps (default 100), and of the scene file written
// cold and warm (SaveOptions::warm) and the warm one loaded back. Prints the
// median of 21 runs of each operation, and checks that a restore repeats the
// steps exactly.
//
//   carom_bench_snapshot SCENE.json [steps]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <carom/carom.hpp>
#include <carom/scene.hpp>

namespace {

template <class Fn>
double medianMs(Fn&& fn) {
    std::vector<double> ms;
    for (int i = 0; i < 21; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        fn();
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s SCENE.json [steps]\n", argv[0]);
        return 2;
    }
    const long steps = argc > 2 ? std::atol(argv[2]) : 100;
    carom::scene::SceneRunner runner(carom::scene::loadFile(argv[1]));
    runner.run(steps);
    carom::World& world = runner.world();
    const carom::Counters c = world.counters();

    carom::Snapshot snap = world.snapshot();
    const std::vector<uint8_t> bytes = snap.bytes();
    const double tSnapshot = medianMs([&] { snap = world.snapshot(); });
    const double tRestore = medianMs([&] { world.restore(snap); });
    std::vector<uint8_t> out;
    const double tBytes = medianMs([&] { out = snap.bytes(); });
    const double tFromBytes = medianMs([&] { snap = carom::Snapshot::fromBytes(bytes); });
    const double tPlainStep = medianMs([&] { world.step(runner.timestep()); });
    world.restore(snap);
    const double tStep = medianMs([&] {
                             world.restore(snap);
                             world.step(runner.timestep());
                         }) -
                         tRestore;

    // The scene file, cold and warm (docs/scene-format.md, "Cold and warm files").
    world.restore(snap);
    std::string cold, warm;
    carom::scene::SaveOptions warmOptions;
    warmOptions.warm = true;
    const double tCold = medianMs([&] { cold = carom::scene::worldJson(world); });
    const double tWarm = medianMs([&] { warm = carom::scene::worldJson(world, warmOptions); });
    const double tWarmLoad =
        medianMs([&] { carom::scene::SceneRunner(carom::scene::loadString(warm, "warm.json")); });

    // The check: restore, 10 steps, same hash as the first time.
    world.restore(snap);
    for (int i = 0; i < 10; ++i) world.step(runner.timestep());
    const uint64_t h = world.stateHash();
    world.restore(carom::Snapshot::fromBytes(bytes));
    for (int i = 0; i < 10; ++i) world.step(runner.timestep());
    const bool exact = world.stateHash() == h;

    std::printf("scene %s after %ld steps: %d bodies, %d contacts (%d touching), %d awake\n",
                argv[1], steps, c.bodies, c.contacts, c.touchingContacts, c.awakeBodies);
    std::printf("bytes        %zu (%.1f per body)\n", bytes.size(),
                double(bytes.size()) / double(c.bodies));
    std::printf("snapshot()   %.3f ms\n", tSnapshot);
    std::printf("restore()    %.3f ms\n", tRestore);
    std::printf("bytes()      %.3f ms\n", tBytes);
    std::printf("fromBytes()  %.3f ms\n", tFromBytes);
    std::printf("step         %.3f ms (for comparison), %.3f ms right after a restore\n",
                tPlainStep, tStep);
    std::printf("cold file    %zu bytes, written in %.3f ms\n", cold.size(), tCold);
    std::printf("warm file    %zu bytes, written in %.3f ms, loaded and built in %.3f ms\n",
                warm.size(), tWarm, tWarmLoad);
    std::printf("restore from bytes repeats the steps: %s\n", exact ? "yes" : "NO");
    return exact ? 0 : 1;
}
