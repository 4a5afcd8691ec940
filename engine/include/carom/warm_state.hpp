// The solver state a step reads besides the bodies' poses and velocities
// (World::warmState / World::setWarmState): contact impulses carried from
// step to step (warm starting), joints' accumulated impulses, gears' turn
// counts, the exact centres of mass, sleep timers, the islands, the order of
// the awake bodies and of each body's contacts, the broadphase's fat boxes,
// and what the next step's events are reported against (contacts' begin
// events sent, sensors' overlaps).
//
// A World rebuilt from a description of its bodies, shapes and joints (a
// scene file) starts "cold": no contacts, zero impulses, fresh islands and
// fat boxes, so it soon drifts from the original in its last bits. Exporting
// the WarmState of the original and importing it into the rebuilt world,
// before its first step, makes the two step to the same bits
// (docs/scene-format.md, "Saving"). The scene library writes it as the
// `warm` section of a saved scene; the exact binary path is the world
// snapshot, this is the readable one.
#pragma once

#include <cstdint>
#include <vector>

#include <carom/geometry.hpp>
#include <carom/id.hpp>
#include <carom/math.hpp>

namespace carom {

/// A contact point: its feature id and the impulses it carries to the next
/// step, and the rest of the manifold point as the last collide left it. A
/// step recomputes the manifolds of the contacts it visits first, but a
/// sleeping pile woken by a new touch is solved with the manifolds it fell
/// asleep with, so those are part of the state too.
struct WarmContactPoint {
    uint32_t id = 0;              ///< feature id (ContactData::Point::id)
    float normalImpulse = 0.0f;   ///< N·s, >= 0
    float tangentImpulse = 0.0f;  ///< N·s
    Vec2 point{0.0f, 0.0f};       ///< world point
    Vec2 anchorA{0.0f, 0.0f};     ///< relative to A's origin, world orientation
    Vec2 anchorB{0.0f, 0.0f};     ///< relative to B's origin, world orientation
    float separation = 0.0f;
    float totalNormalImpulse = 0.0f;
    float normalVelocity = 0.0f;
    bool persisted = false;
};

/// What the last narrowphase run of a contact saw, for manifold reuse
/// (WorldDef::contactReuseDistance, docs/solver.md "Manifold reuse"): the
/// pose it ran at and its points as material points of either body. A step
/// keeps the manifold, moved with the bodies, while the pair has moved less
/// than the reuse distance from that pose, so the record decides whether the
/// next steps run the narrowphase and is part of the state. Body A and B are
/// those of shapeA and shapeB.
struct WarmContactReuse {
    bool valid = false;               ///< false: no record (the next step runs the narrowphase)
    bool referenceIsB = false;        ///< the body the pose is measured in: false = A, true = B
    int pointCount = 0;               ///< 0..2: the manifold's point count when recorded
    Rot rotationA{};                  ///< A's rotation when recorded (unit)
    Rot rotationB{};                  ///< B's rotation when recorded (unit)
    Vec2 relativeCenter{0.0f, 0.0f};  ///< the other body's origin in the reference body's frame
    Rot relativeRotation{};  ///< the other body's rotation relative to the reference body (unit)
    Vec2 localPointA[2]{};   ///< the points in A's body frame (the first pointCount)
    Vec2 localPointB[2]{};   ///< the points in B's body frame
    Vec2 localNormal{
        0.0f, 0.0f};  ///< the normal in the reference body's frame (unit when pointCount > 0)
    float baseSeparation[2]{};  ///< separation less its part from the recorded pose
};

/// A contact (a pair of shapes whose fat boxes overlap), touching or not.
struct WarmContact {
    ShapeId shapeA{};
    ShapeId shapeB{};
    bool touching = false;    ///< the manifold has points
    int pointCount = 0;       ///< 0..2; 0 unless touching
    Vec2 normal{0.0f, 0.0f};  ///< the manifold normal, A to B
    WarmContactPoint points[2];
    float rollingImpulse = 0.0f;
    /// The GJK warm-start cache (chain segments against polygons).
    int cacheCount = 0;  ///< 0..3
    uint8_t cacheIndexA[3] = {0, 0, 0};
    uint8_t cacheIndexB[3] = {0, 0, 0};
    /// Positions in the contact lists of shapeA's and shapeB's bodies
    /// (the order the solver visits them in); -1: unknown.
    int orderA = -1;
    int orderB = -1;
    /// The manifold reuse record (invalid: the next step recomputes).
    WarmContactReuse reuse{};
    /// Touching, with a begin event sent: the end event is owed when it
    /// stops touching (only when either shape enables contact events).
    bool beginEventSent = false;
};

/// A movable shape's broadphase box and the margin it is grown by.
struct WarmShape {
    ShapeId shape{};
    AABB fatAABB{};
    float margin = 0.0f;
};

/// A non-static body's sleep timer, the force and torque accumulated for
/// the next step, its centre of mass as the solver keeps it, and whether
/// its last step was a fast one.
struct WarmBody {
    BodyId body{};
    float sleepTime = 0.0f;  ///< seconds slow enough to sleep, >= 0
    Vec2 force{0.0f, 0.0f};
    float torque = 0.0f;
    /// The world centre of mass as the solver moves it. The origin is
    /// derived from it after each step, and the centre rebuilt from that
    /// origin may differ in its last bit. Within rounding of the body's
    /// origin plus its rotated local centre.
    Vec2 center{0.0f, 0.0f};
    /// Used continuous collision in its last step: the next step's manifold
    /// reuse leaves its contacts out (docs/solver.md "Manifold reuse").
    bool fast = false;
};

/// A joint's accumulated impulses (which ones a type uses: solver/joint_solver.hpp),
/// and a gear's state.
struct WarmJoint {
    JointId joint{};
    Vec2 linearImpulse{0.0f, 0.0f};
    float angularImpulse = 0.0f;
    float perpImpulse = 0.0f;
    float springImpulse = 0.0f;
    float motorImpulse = 0.0f;
    float lowerImpulse = 0.0f;
    float upperImpulse = 0.0f;
    /// true for a gear joint: the fields below are its state (ignored, and
    /// must be false, for other joints). A gear counts its joints' angles
    /// over whole turns from step to step, so its coordinates cannot be
    /// measured again from the poses, and its constant is that of its
    /// creation.
    bool gear = false;
    float gearCoordinate[2]{};  ///< joint_a's and joint_b's coordinates at the last step start (rad
                                ///< or m)
    float gearWrapped[2]{};     ///< a revolute side's angle last seen, in [-pi, pi] (rad)
    float gearConstant = 0.0f;  ///< coordinate_a + ratio * coordinate_b at creation
};

/// A sensor shape and the shapes overlapping it after the last step: the
/// next step reports begin and end events against this list.
struct WarmSensor {
    ShapeId sensor{};
    std::vector<ShapeId> overlaps;  ///< live shapes, sorted by id
};

/// An island: dynamic bodies linked by touching contacts and joints.
struct WarmIsland {
    int slot = 0;  ///< its slot number (merges break ties by slot)
    bool awake = true;
    int constraintRemoveCount = 0;  ///< links removed since the island was last split
    std::vector<BodyId> bodies;     ///< in link order
};

struct WarmState {
    std::vector<BodyId> awakeBodies;  ///< the awake non-static bodies in solver order
    std::vector<WarmBody> bodies;     ///< every non-static body
    std::vector<WarmShape> shapes;    ///< every shape of a non-static body
    std::vector<WarmContact> contacts;
    std::vector<WarmJoint> joints;
    std::vector<WarmSensor> sensors;   ///< sensors with overlaps
    std::vector<WarmIsland> islands;   ///< by slot
    int islandSlots = 0;               ///< slots in use or free
    std::vector<int> freeIslandSlots;  ///< the free slots, in reuse order (last first)
};

}  // namespace carom
