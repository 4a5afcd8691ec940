// carom-compare: one scene, several engines, one process.
//
// Each engine sits behind an Adapter built from the same parsed SceneDesc
// (carom::scene::loadFile). An adapter owns its engine's world; step()
// advances it by the scene's timestep and nothing else, so the time the
// driver measures around step() is the engine's own step time. Building the
// world happens in the factory, outside any timed region.
//
// Engines differ in what they can express (Box2D 2.4.1 has no capsule and at
// most 8 polygon vertices, Chipmunk has no per-body gravity scale, ...). An
// adapter never refuses a scene for that: it builds the closest equivalent
// and records what it approximated with note(), so the report can list every
// approximation with a count next to the numbers it affects.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include <carom/scene.hpp>

namespace carom::compare {

/// What a reader checks to see the engines simulated something comparable:
/// where the dynamic bodies ended up and how fast they still move. Positions
/// are body origins (every engine reports those the same way).
struct Sanity {
    int dynamicBodies = 0;
    double meanY = 0.0;      ///< mean height of the dynamic bodies, m
    double meanSpeed = 0.0;  ///< mean linear speed of the dynamic bodies, m/s
    double meanAngularVelocity =
        0.0;  ///< mean signed angular velocity, rad/s (counter-clockwise > 0)
};

class Adapter {
   public:
    virtual ~Adapter() = default;
    Adapter() = default;
    Adapter(const Adapter&) = delete;
    Adapter& operator=(const Adapter&) = delete;

    /// Advances the world by one scene timestep.
    virtual void step() = 0;
    /// Bodies in the world (static ones included).
    virtual int bodyCount() const = 0;
    virtual Sanity sanity() const = 0;
    /// Solver settings used, one line, for the report.
    virtual std::string settings() const = 0;

    /// Approximations made while building the world, with how often each was made.
    const std::map<std::string, std::int64_t>& notes() const { return notes_; }

   protected:
    void note(const std::string& what, std::int64_t count = 1) { notes_[what] += count; }

   private:
    std::map<std::string, std::int64_t> notes_;
};

// Factories: build the scene's world (untimed). They throw std::runtime_error
// (or carom::scene::SceneError for Carom) when the scene cannot be built.
std::unique_ptr<Adapter> makeCaromAdapter(const scene::SceneDesc& desc);
std::unique_ptr<Adapter> makeBox2dAdapter(const scene::SceneDesc& desc);
std::unique_ptr<Adapter> makeChipmunkAdapter(const scene::SceneDesc& desc);

/// The version string of each third-party engine, for the report.
std::string box2dVersion();
std::string chipmunkVersion();

}  // namespace carom::compare
