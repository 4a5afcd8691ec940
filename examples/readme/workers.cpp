// Stepping with workers: the same pile stepped on 1 and on 4 threads ends in
// the same bits.
#include <carom/carom.hpp>
#include <cstdint>
#include <cstdio>

static uint64_t pile(int workers) {
    carom::WorldDef def;
    def.workerCount = workers;  // threads used by step(); the results never depend on it
    carom::World world(def);
    world.createShape(world.createBody(carom::BodyDef{}), carom::ShapeDef{},
                      carom::makeBox(20.0f, 0.5f));
    for (int i = 0; i < 200; ++i) {
        carom::BodyDef box;
        box.type = carom::BodyType::Dynamic;
        box.position = {float(i % 20) - 10.0f, 1.0f + float(i / 20)};
        world.createShape(world.createBody(box), carom::ShapeDef{}, carom::makeBox(0.4f, 0.4f));
    }
    for (int i = 0; i < 120; ++i) world.step(1.0f / 60.0f);
    std::printf("%d worker(s): state %016llx, last step %.3f ms\n", workers,
                (unsigned long long)world.stateHash(), world.profile().step);
    return world.stateHash();
}

int main() {
    return pile(1) == pile(4) ? 0 : 1;
}
