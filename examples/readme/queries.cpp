// Queries: a ray, a point and an exact shape overlap against a row of boxes.
#include <carom/carom.hpp>
#include <cmath>
#include <cstdio>
#include <vector>

int main() {
    carom::World world;
    for (int i = 0; i < 5; ++i) {  // boxes 1 m wide at x = 0, 2, 4, 6, 8
        carom::BodyDef def;
        def.position = {2.0f * float(i), 0.0f};
        world.createShape(world.createBody(def), carom::ShapeDef{}, carom::makeBox(0.5f, 0.5f));
    }

    carom::RayResult ray = world.castRayClosest({-5.0f, 0.0f}, {20.0f, 0.0f});
    std::vector<carom::ShapeId> under = world.queryPoint({4.0f, 0.2f});
    int touched = 0;
    world.overlapShape(carom::Circle{{0.0f, 0.0f}, 0.6f}, carom::makeTransform({3.0f, 0.0f}, 0.0f),
                       carom::QueryFilter{}, [&](carom::ShapeId) {
                           ++touched;
                           return true;  // false stops the query
                       });
    std::printf("ray hits x = %.3f, %zu shape under the point, the circle touches %d\n",
                ray.point.x, under.size(), touched);
    return ray.hit && std::fabs(ray.point.x + 0.5f) < 1e-3f && under.size() == 1 && touched == 2
               ? 0
               : 1;
}
