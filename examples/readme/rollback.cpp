// Rollback: rewind the world, re-run frames with the inputs that arrived late.
#include <carom/carom.hpp>
#include <cstdio>

static carom::BodyId addBall(carom::World& world) {
    carom::BodyDef def;
    def.type = carom::BodyType::Dynamic;
    carom::BodyId ball = world.createBody(def);
    world.createShape(ball, carom::ShapeDef{}, carom::Circle{{0.0f, 0.0f}, 0.5f});
    return ball;
}

int main() {
    auto input = [](int frame) { return carom::Vec2{frame % 3 == 0 ? 2.0f : -1.0f, 0.0f}; };
    carom::World straight, game;
    carom::BodyId a = addBall(straight), b = addBall(game);
    for (int frame = 0; frame < 10; ++frame) {  // what should happen
        straight.applyLinearImpulseToCenter(a, input(frame));
        straight.step(1.0f / 60.0f);
    }

    carom::Snapshot confirmed = game.snapshot();  // frame 0
    for (int frame = 0; frame < 10; ++frame) {    // predicted inputs (wrong)
        game.applyLinearImpulseToCenter(b, {0.0f, 5.0f});
        game.step(1.0f / 60.0f);
    }
    // The real inputs arrive: rewind (here through the byte form a peer
    // would send) and re-run the frames.
    game.restore(carom::Snapshot::fromBytes(confirmed.bytes()));
    for (int frame = 0; frame < 10; ++frame) {
        game.applyLinearImpulseToCenter(b, input(frame));
        game.step(1.0f / 60.0f);
    }
    std::printf("straight %016llx, rolled back %016llx\n", (unsigned long long)straight.stateHash(),
                (unsigned long long)game.stateHash());
    return game.stateHash() == straight.stateHash() ? 0 : 1;
}
