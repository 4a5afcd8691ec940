// The buffer forms of the World calls that list ids or contacts give what
// the vector forms give, the first out.size() of it when the buffer is
// short, always the full count, and allocate nothing.
#include <gtest/gtest.h>

#include <carom/world.hpp>

#include <array>
#include <span>
#include <vector>

#include "tests/support/alloc_counter.hpp"

namespace carom {
namespace {

bool same(const ContactData& a, const ContactData& b) {
    return a.shapeA == b.shapeA && a.shapeB == b.shapeB && a.pointCount == b.pointCount;
}
template <class T>
bool same(const T& a, const T& b) {
    return a == b;
}

// Checks the buffer form `fill` against `all`, the vector form's result:
// into a buffer that fits, into one of half the size, and into none.
template <class T, class Fill>
void expectBufferForm(const char* what, const std::vector<T>& all, Fill fill) {
    SCOPED_TRACE(what);
    ASSERT_FALSE(all.empty()) << "the scene must give something to list";
    std::array<T, 64> buffer{};
    ASSERT_LE(all.size(), buffer.size());
    for (size_t capacity : {all.size(), all.size() / 2, size_t{0}}) {
        const long long before = test::allocationCount();
        const int count = fill(std::span<T>(buffer.data(), capacity));
        EXPECT_EQ(test::allocationCount(), before) << "the buffer form allocated";
        EXPECT_EQ(count, int(all.size()));
        for (size_t i = 0; i < capacity; ++i) EXPECT_TRUE(same(buffer[i], all[i])) << "item " << i;
    }
}

TEST(Listings, BufferFormsGiveTheVectorFormsWithoutAllocating) {
    World w;
    const BodyId ground = w.createBody(BodyDef{});
    w.createShape(ground, ShapeDef{}, makeBox(20.0f, 0.5f));
    ChainDef chain;
    for (int i = 0; i <= 4; ++i) chain.points.push_back({10.0f - 5.0f * float(i), 3.0f});
    const ChainId floor = w.createChain(ground, chain);
    ShapeDef sensorDef;
    sensorDef.isSensor = true;
    const ShapeId sensor = w.createShape(ground, sensorDef, makeBox(3.0f, 2.0f));
    std::vector<BodyId> boxes;
    for (int i = 0; i < 6; ++i) {
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = {-2.5f + float(i), 1.0f};
        boxes.push_back(w.createBody(bd));
        w.createShape(boxes.back(), ShapeDef{}, makeBox(0.4f, 0.4f));
        w.createShape(boxes.back(), ShapeDef{}, Circle{{0.0f, 0.3f}, 0.2f});
        if (i > 0) {
            RevoluteJointDef jd;
            jd.bodyA = boxes[size_t(i - 1)];
            jd.bodyB = boxes.back();
            jd.localAnchorA = {0.5f, 0.0f};
            jd.localAnchorB = {-0.5f, 0.0f};
            w.createJoint(jd);
        }
    }
    w.destroyBody(boxes[0]);  // a free slot: creation order is not index order
    BodyDef late;
    late.type = BodyType::Dynamic;
    late.position = {-2.5f, 1.0f};
    w.createShape(w.createBody(late), ShapeDef{}, makeBox(0.4f, 0.4f));
    for (int i = 0; i < 30; ++i) w.step(1.0f / 60.0f);

    expectBufferForm("bodies", w.bodies(), [&](std::span<BodyId> out) { return w.bodies(out); });
    expectBufferForm("joints", w.joints(), [&](std::span<JointId> out) { return w.joints(out); });
    expectBufferForm("shapes", w.shapes(ground),
                     [&](std::span<ShapeId> out) { return w.shapes(ground, out); });
    expectBufferForm("body joints", w.joints(boxes[2]),
                     [&](std::span<JointId> out) { return w.joints(boxes[2], out); });
    expectBufferForm("chains", w.chains(ground),
                     [&](std::span<ChainId> out) { return w.chains(ground, out); });
    expectBufferForm("chain segments", w.chainSegments(floor),
                     [&](std::span<ShapeId> out) { return w.chainSegments(floor, out); });
    expectBufferForm("contacts", w.contacts(),
                     [&](std::span<ContactData> out) { return w.contacts(out); });
    expectBufferForm("body contacts", w.contacts(ground),
                     [&](std::span<ContactData> out) { return w.contacts(ground, out); });
    expectBufferForm("sensor overlaps", w.sensorOverlaps(sensor),
                     [&](std::span<ShapeId> out) { return w.sensorOverlaps(sensor, out); });
    const Vec2 p = w.position(boxes[3]);
    expectBufferForm("query point", w.queryPoint(p),
                     [&](std::span<ShapeId> out) { return w.queryPoint(p, QueryFilter{}, out); });
}

}  // namespace
}  // namespace carom
