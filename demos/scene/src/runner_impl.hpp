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
    std::size_t nextEvent = 0;             // desc.events[nextEvent] is the next to apply
    std::vector<std::int64_t> eventSteps;  // the step each event is applied before
    std::vector<BodyRecord> records;
    std::map<std::string, BodyId, std::less<>> byName;
    std::map<BodyId, std::string> nameById;
    std::vector<ShapeId> oneWay;  // sorted, for binary search in the pre-solve callback
    View view;
    std::vector<BodyId> sleepers;        // created asleep; put to sleep after their joints
    std::map<ShapeId, BoxParams> boxes;  // shapes created from `box` entries, so save writes boxes
    std::vector<std::pair<ShapeId, Wind>> winds;  // project key `wind`, in creation order
    std::map<std::string, JointId, std::less<>>
        jointByName;  // the joint list being created (gears name joints in it)
    std::map<JointId, std::string> jointNameById;

    // Project keys `character` and `path` (characters.cpp). A character is
    // a carom::Character on the body; desc keeps its keys (desc.velocity is
    // brought up to date after each move, for save).
    struct Hero {
        carom::Character character;
        CharacterDesc desc;
    };
    struct Platform {
        BodyId body;
        PathDesc path;  // path.at is the distance travelled
    };
    std::vector<Hero> characters;
    std::vector<Platform> platforms;
    CharacterInput input;
    // The character budget (kMaxCharacterWork): shapes the movers examined
    // this step, characters left where they were, whether any step left one.
    std::int64_t moverWork = 0;
    int charactersOverBudget = 0;
    bool characterBudgetExceeded = false;

    void createBody(const BodyDesc& b);
    void createJoint(const JointDesc& j);
    void applyEvent(const EventDesc& e);
    void installPreSolve();
    bool anyOneWayLater() const;
    void setExactRotation(BodyId id, Rot q);
    void putSleepersToSleep();
    void addGameplay(const BodyDesc& b, BodyId id);
    void shareOneWay();  // the one-way list, to every character
    void forgetGameplay(BodyId id);
    void drivePlatforms();
    void probeGround();
    void moveCharacters();
    void applyWarm(const WarmSection& section);
};

}  // namespace carom::scene
