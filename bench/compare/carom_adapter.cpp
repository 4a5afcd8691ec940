// Carom behind the Adapter interface: the scene library's own SceneRunner
// builds the world, so Carom runs each scene exactly as `carom run` does
// (same settings, same timed events); nothing is approximated.
#include <cmath>
#include <string>

#include "adapter.hpp"

namespace carom::compare {

namespace {

class CaromAdapter final : public Adapter {
   public:
    explicit CaromAdapter(const scene::SceneDesc& desc) : runner_(desc) {}

    void step() override { runner_.step(); }

    int bodyCount() const override { return static_cast<int>(runner_.bodies().size()); }

    Sanity sanity() const override {
        const World& w = runner_.world();
        Sanity s;
        double sumY = 0.0;
        double sumV = 0.0;
        double sumW = 0.0;
        for (const scene::SceneRunner::BodyRecord& r : runner_.bodies()) {
            if (w.bodyType(r.id) != BodyType::Dynamic) continue;
            Vec2 p = w.position(r.id);
            Vec2 v = w.linearVelocity(r.id);
            sumY += static_cast<double>(p.y);
            sumV += std::hypot(static_cast<double>(v.x), static_cast<double>(v.y));
            sumW += static_cast<double>(w.angularVelocity(r.id));
            ++s.dynamicBodies;
        }
        if (s.dynamicBodies > 0) {
            s.meanY = sumY / s.dynamicBodies;
            s.meanSpeed = sumV / s.dynamicBodies;
            s.meanAngularVelocity = sumW / s.dynamicBodies;
        }
        return s;
    }

    std::string settings() const override {
        const scene::WorldSettings& ws = runner_.desc().world;
        return "substeps " + std::to_string(ws.substeps) + ", broadphase " +
               (ws.broadphase == BroadphaseType::Tree ? "tree" : "sort-and-sweep") + ", sleep " +
               (ws.sleep ? "on" : "off") + ", continuous " + (ws.continuous ? "on" : "off") +
               ", threads " + std::to_string(ws.threads);
    }

   private:
    scene::SceneRunner runner_;
};

}  // namespace

std::unique_ptr<Adapter> makeCaromAdapter(const scene::SceneDesc& desc) {
    return std::make_unique<CaromAdapter>(desc);
}

}  // namespace carom::compare
