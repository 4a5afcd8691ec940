// Workers and snapshots: a pile stepped on one thread is saved as bytes and
// continued on four threads in a new world; both worlds end in the same bits.
#include <carom/carom.hpp>
#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
    carom::World world;  // WorldDef::workerCount = 1
    world.createShape(world.createBody(carom::BodyDef{}), carom::ShapeDef{},
                      carom::makeBox(20.0f, 0.5f));
    for (int i = 0; i < 200; ++i) {
        carom::BodyDef box;
        box.type = carom::BodyType::Dynamic;
        box.position = {float(i % 20) - 10.0f, 1.0f + float(i / 20)};
        world.createShape(world.createBody(box), carom::ShapeDef{}, carom::makeBox(0.4f, 0.4f));
    }
    for (int i = 0; i < 60; ++i) world.step(1.0f / 60.0f);

    std::vector<uint8_t> bytes = world.snapshot().bytes();  // the whole state, checksummed
    carom::WorldDef def;
    def.workerCount = 4;  // threads that share each step
    carom::World copy(def);
    copy.restore(carom::Snapshot::fromBytes(bytes));
    for (int i = 0; i < 60; ++i) {
        world.step(1.0f / 60.0f);
        copy.step(1.0f / 60.0f);
    }
    std::printf("%zu bytes; 1 worker %016llx, 4 workers %016llx\n", bytes.size(),
                (unsigned long long)world.stateHash(), (unsigned long long)copy.stateHash());
    return world.stateHash() == copy.stateHash() ? 0 : 1;
}
