// SceneRunner's private state (shared by runner.cpp, state.cpp, save.cpp).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <carom/scene.hpp>

namespace carom::scene {

struct SceneRunner::Impl {
    SceneDesc desc;
    std::unique_ptr<World> world;
    float dt = 1.0f / 60.0f;
    std::int64_t steps = 0;
    std::size_t nextEvent = 0;            // desc.events[nextEvent] is the next to apply
    std::vector<std::int64_t> eventSteps;  // the step each event is applied before
    std::vector<BodyRecord> records;
    std::map<std::string, BodyId, std::less<>> byName;
    std::map<BodyId, std::string> nameById;
    std::vector<ShapeId> oneWay;          // sorted, for binary search in the pre-solve callback
    View view;
    std::vector<BodyId> sleepers;         // created asleep; put to sleep after their joints
    std::map<ShapeId, BoxParams> boxes;   // shapes created from `box` entries, so save writes boxes


    void createBody(const BodyDesc& b);
    void createJoint(const JointDesc& j);
    void applyEvent(const EventDesc& e);
    void installPreSolve();
    bool anyOneWayLater() const;
    void setExactRotation(BodyId id, Rot q);
    void putSleepersToSleep();
    void applyWarm(const WarmSection& section);
};

}  // namespace carom::scene
