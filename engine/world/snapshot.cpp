// World::snapshot / restore and the snapshot's byte form.
//
// In memory a snapshot is a copy of the world's WorldState (world_impl.hpp):
// the whole simulation state, copied by its copy constructor and assigned
// back whole, so restore is exact by construction and a field added to the
// state is carried without edits here. The runtime machinery (callbacks,
// scratch, worker pool, profile) lives in WorldImpl outside WorldState and is
// never copied.
//
// The byte form is written and read by one codec (SnapshotCodec below: the
// same function body serialises and deserialises, so the two cannot drift
// apart). Plain structs (manifolds, tree nodes, joint solver data, geometry)
// are copied as their object bytes; structs with vectors are written member
// by member, and a static_assert on their size fails the build when one
// gains a member, so the codec is updated with it. Layout:
//
//   header  "CAROMSNP"  u32 format version  u32 0  u64 layout signature
//           u64 payload size  u64 checksum of the payload
//   payload the state
//
// The layout signature mixes the sizes of every struct copied as bytes and
// the byte order, so a buffer from a build with another layout is refused
// rather than misread. Reading checks every count against the bytes left
// before it allocates, every bool and enum against its range, and the
// checksum before anything else, so a truncated or corrupted buffer is
// refused with carom::Error and never read out of bounds.
#include <carom/snapshot.hpp>

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <variant>

#include "engine/core/platform.hpp"
#include "engine/core/rules.hpp"
#include "engine/world/snapshot_bytes.hpp"
#include "engine/world/world_impl.hpp"

namespace carom {
namespace detail {

// A 64-bit checksum of the payload, a word at a time (an eighth of the
// rounds of byte-wise FNV-1a). Every round, x -> (x ^ word) * odd then
// x -> x ^ (x >> 32), is a bijection of the running value, so a change
// confined to one word (or one tail byte) always changes the result; wider
// corruptions collide with probability about 2^-64.
uint64_t snapshotChecksum(const uint8_t* p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull ^ uint64_t(n);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t word;
        std::memcpy(&word, p + i, 8);
        h = (h ^ word) * 0x9e3779b97f4a7c15ull;
        h ^= h >> 32;
    }
    for (; i < n; ++i) {
        h = (h ^ p[i]) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}

namespace {

constexpr char kMagic[8] = {'C', 'A', 'R', 'O', 'M', 'S', 'N', 'P'};
constexpr uint32_t kFormatVersion =
    12;  // 2: Contact::tangentSpeed, WorldDef::contactReuseDistance, Contact::reuse; 3:
         // WorldDef::frictionInRelaxOnly, contactRelaxPasses, enableJointDirectSolve; 4: a tree
         // broadphase's sweep lists; 5: WorldDef::relaxShockScale; 6:
         // WorldDef::relaxShockScaledMasses; 7: WorldDef::contactPushHoldsLoad; 8: a joint record
         // carries only its impulses and gear slot (JointCarried); 9: WorldDef::contactLeakScale;
         // 10: the tile-seam index is rebuilt from the shapes, not written; 11:
         // WorldDef::maxSensorOverlaps, the sensor budget's counters; 12: the revolute's
         // targetAngle, the prismatic's targetTranslation, the distance joint's motor,
         // the filter joint, Body::enableContactReuse

[[noreturn]] void refuseBytes(const std::string& why) {
    detail::refuseWhy("bytes", "Snapshot::fromBytes: " + why);
}

class Writer {
   public:
    static constexpr bool kReading = false;

    /// The bytes written, moved out.
    std::vector<uint8_t> take() {
        out_.resize(used_);
        used_ = 0;
        return std::move(out_);
    }
    const uint8_t* data() const { return out_.data(); }
    size_t size() const { return used_; }
    void reserve(size_t n) { out_.resize(std::max(out_.size(), n)); }

    // Most calls write a few bytes: grow by doubling, copy with memcpy.
    void bytes(const void* p, size_t n) {
        if (out_.size() - used_ < n) out_.resize(std::max(2 * out_.size(), used_ + n));
        std::memcpy(out_.data() + used_, p, n);
        used_ += n;
    }
    /// The object's bytes with its padding zeroed, so equal states give
    /// equal bytes. except names a member to write as zeros (a pointer).
    template <class T>
    void pod(const T& x, const void* except = nullptr, size_t exceptSize = 0) {
        static_assert(std::is_trivially_copyable_v<T>);
        if constexpr (std::has_unique_object_representations_v<T> || sizeof(T) == 1) {
            if (except == nullptr) {
                bytes(&x, sizeof(T));
                return;
            }
        }
        alignas(T) unsigned char buf[sizeof(T)];
        std::memcpy(buf, &x, sizeof(T));
        clearPadding(reinterpret_cast<T*>(buf));
        if (except != nullptr)
            std::memset(buf + (static_cast<const unsigned char*>(except) -
                               reinterpret_cast<const unsigned char*>(&x)),
                        0, exceptSize);
        bytes(buf, sizeof(T));
    }
    void flag(bool& b) {
        uint8_t v = b ? 1 : 0;
        pod(v);
    }
    template <class E>
    void enumeration(E& e, int /*count*/) {
        auto v = static_cast<std::underlying_type_t<E>>(e);
        pod(v);
    }
    size_t count(size_t n, size_t /*minBytesEach*/) {
        uint64_t v = n;
        pod(v);
        return n;
    }
    template <class T>
    void podVec(std::vector<T>& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        count(v.size(), 0);
        if constexpr (std::has_unique_object_representations_v<T> || sizeof(T) == 1) {
            if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
        } else {
            for (const T& x : v) pod(x);
        }
    }
    /// The same bytes as a std::vector<int> of the same ints.
    void podVec(SmallIntList& v) {
        count(v.size(), 0);
        if (!v.empty()) bytes(v.data(), v.size() * sizeof(int));
    }

   private:
    std::vector<uint8_t> out_;
    size_t used_ = 0;
};

class Reader {
   public:
    static constexpr bool kReading = true;
    Reader(const uint8_t* p, size_t n) : p_(p), n_(n) {}

    size_t left() const { return n_ - at_; }
    void bytes(void* dst, size_t n) {
        if (n > left())
            refuseBytes("truncated state (" + std::to_string(left()) + " bytes left, " +
                        std::to_string(n) + " needed)");
        std::memcpy(dst, p_ + at_, n);
        at_ += n;
    }
    template <class T>
    void pod(T& x) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes(&x, sizeof(T));
    }
    void flag(bool& b) {
        uint8_t v = 0;
        pod(v);
        if (v > 1) refuseBytes("a flag is " + std::to_string(v));
        b = v == 1;
    }
    template <class E>
    void enumeration(E& e, int count) {
        std::underlying_type_t<E> v{};
        pod(v);
        if (int64_t(v) < 0 || int64_t(v) >= count)
            refuseBytes("an enumeration value is out of range");
        e = static_cast<E>(v);
    }
    /// A count of items that take at least minBytesEach bytes each: checked
    /// against what is left before anything is allocated for them.
    size_t count(size_t /*unused*/, size_t minBytesEach) {
        uint64_t v = 0;
        pod(v);
        if (v > left() / (minBytesEach > 0 ? minBytesEach : 1))
            refuseBytes("a count exceeds the bytes left");
        return size_t(v);
    }
    template <class T>
    void podVec(std::vector<T>& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        const size_t n = count(0, sizeof(T));
        v.resize(n);
        if (n > 0) bytes(v.data(), n * sizeof(T));
    }
    void podVec(SmallIntList& v) {
        const size_t n = count(0, sizeof(int));
        v.resize(n);
        if (n > 0) bytes(v.data(), n * sizeof(int));
    }

   private:
    const uint8_t* p_;
    size_t n_;
    size_t at_ = 0;
};

}  // namespace

// Friend of BroadPhase, DynamicTree, SweepAndPrune and PairMap.
struct SnapshotCodec {
    // When one of these fails, a struct the byte form writes member by member
    // has changed: add the new member to its function below (and bump
    // kFormatVersion), then update the size here. The sizes are those of a
    // 64-bit target; a 32-bit one (WebAssembly) has smaller pointers and
    // containers and is checked by the 64-bit builds.
    static constexpr bool kSizesChecked = sizeof(void*) == 8;
    static_assert(!kSizesChecked || sizeof(WorldDef) == 120,
                  "WorldDef changed: update SnapshotCodec::def and restore's check");
    static_assert(!kSizesChecked || sizeof(Body) == 296,
                  "Body changed: update SnapshotCodec::body");
    // Shape::seamTile and seamTileLinked, and SeamIndex's tiles, are rebuilt
    // from the shapes (seamRebuild), not written.
    static_assert(!kSizesChecked || sizeof(Shape) == 320,
                  "Shape changed: update SnapshotCodec::shape");
    static_assert(!kSizesChecked || sizeof(Chain) == 120,
                  "Chain changed: update SnapshotCodec::chain");
    static_assert(!kSizesChecked || sizeof(Joint) == 208,
                  "Joint changed: update SnapshotCodec::joint");
    static_assert(!kSizesChecked || sizeof(Contact) == 256,
                  "Contact changed: update SnapshotCodec::contact");
    static_assert(!kSizesChecked || sizeof(Island) == 40,
                  "Island changed: update SnapshotCodec::island");
    static_assert(!kSizesChecked || sizeof(Sensor) == 56,
                  "Sensor changed: update SnapshotCodec::sensor");
    static_assert(!kSizesChecked || sizeof(WorldState) == 1888,
                  "WorldState changed: update SnapshotCodec::state");

    /// Sizes of everything written as object bytes, and the byte order.
    static uint64_t layoutSignature() {
        const uint64_t sizes[] = {sizeof(Vec2),
                                  sizeof(Rot),
                                  sizeof(Transform),
                                  sizeof(AABB),
                                  sizeof(Filter),
                                  sizeof(Shape::Geometry),
                                  sizeof(Polygon),
                                  sizeof(Manifold),
                                  sizeof(SimplexCache),
                                  sizeof(ManifoldReuseCache),
                                  sizeof(JointCarried),
                                  sizeof(JointDefVariant),
                                  sizeof(BroadPhase::Proxy),
                                  sizeof(TreeNode),
                                  sizeof(SweepAndPrune::Entry),
                                  sizeof(SweepAndPrune::Slot),
                                  sizeof(PairMap::Slot),
                                  sizeof(BodyMoveEvent),
                                  sizeof(ContactHitEvent),
                                  sizeof(ContactBeginEvent),
                                  sizeof(SensorBeginEvent),
                                  sizeof(ShapeId),
                                  std::variant_size_v<JointDefVariant>,
                                  std::endian::native == std::endian::little};
        uint64_t h = 1469598103934665603ull;
        for (uint64_t s : sizes) h = (h ^ s) * 1099511628211ull;
        return h;
    }

    /// A struct with a userData member, written with it null.
    template <class Ar, class T>
    static void withoutUserData(Ar& ar, T& x) {
        if constexpr (Ar::kReading) {
            ar.pod(x);
            x.userData = nullptr;
        } else {
            ar.pod(x, &x.userData, sizeof x.userData);
        }
    }
    template <class Ar, class T, class Fn>
    static void vec(Ar& ar, std::vector<T>& v, size_t minBytesEach, Fn&& fn) {
        const size_t n = ar.count(v.size(), minBytesEach);
        if constexpr (Ar::kReading) v.resize(n);
        for (T& x : v) fn(ar, x);
    }

    /// The slot of a WorldDef switch the solver no longer has, kept so that
    /// the format stays the same: written as `always`, the behaviour every
    /// world now has. A snapshot whose slot says otherwise was written with
    /// the switch set the other way, which this build cannot continue.
    template <class Ar>
    static void removedSwitch(Ar& ar, bool always, const char* name, const char* now) {
        bool value = always;
        ar.flag(value);
        if constexpr (Ar::kReading) {
            if (value != always)
                refuseBytes(std::string("the snapshot's world has WorldDef::") + name + " " +
                            (value ? "on" : "off") + ", a switch this build no longer has (" + now +
                            ")");
        }
    }

    template <class Ar>
    static void def(Ar& ar, WorldDef& d) {
        ar.pod(d.gravity);
        ar.pod(d.substeps);
        ar.enumeration(d.broadphase, 2);
        ar.flag(d.enableSleep);
        ar.flag(d.enableContinuous);
        ar.pod(d.workerCount);
        ar.pod(d.contactHertz);
        ar.pod(d.contactDampingRatio);
        ar.pod(d.jointHertz);
        ar.pod(d.jointDampingRatio);
        ar.pod(d.contactPushMaxSpeed);
        ar.pod(d.restitutionThreshold);
        ar.pod(d.hitEventThreshold);
        ar.pod(d.maxLinearSpeed);
        ar.enumeration(d.frictionMixing, 4);
        ar.enumeration(d.restitutionMixing, 4);
        ar.enumeration(d.simdWidth, 4);
        ar.pod(d.maxContacts);
        ar.pod(d.maxSensorOverlaps);
        ar.flag(d.joinTileSeams);
        ar.flag(d.enableWarmStarting);
        ar.flag(d.tuning.enableJointDirectSolve);
        ar.pod(d.contactReuseDistance);
        removedSwitch(ar, false, "frictionInRelaxOnly",
                      "friction always runs in the solve and the relax pass");
        ar.pod(d.tuning.contactRelaxPasses);
        ar.pod(d.tuning.relaxShockScale);
        removedSwitch(ar, true, "relaxShockScaledMasses",
                      "the shock-scaled relax pass always uses the scaled bodies' masses");
        removedSwitch(ar, false, "contactPushHoldsLoad",
                      "contactPushMaxSpeed always bounds the whole push-out bias");
        ar.pod(d.tuning.contactLeakScale);
        // userData and the task hooks are the game's: restore keeps the
        // target world's, and the byte form holds no pointers.
    }

    template <class Ar>
    static void body(Ar& ar, Body& b) {
        ar.pod(b.generation);
        ar.flag(b.alive);
        ar.pod(b.creationSeq);
        ar.enumeration(b.type, 3);
        ar.pod(b.xf);
        ar.pod(b.center);
        ar.pod(b.localCenter);
        ar.pod(b.center0);
        ar.pod(b.q0);
        ar.pod(b.v);
        ar.pod(b.w);
        ar.pod(b.force);
        ar.pod(b.torque);
        ar.pod(b.mass);
        ar.pod(b.invMass);
        ar.pod(b.inertia);
        ar.pod(b.invInertia);
        ar.flag(b.massOverridden);
        ar.pod(b.linearDamping);
        ar.pod(b.angularDamping);
        ar.pod(b.gravityScale);
        ar.pod(b.sleepThreshold);
        ar.pod(b.sleepTime);
        ar.flag(b.fixedRotation);
        ar.flag(b.lockLinearX);
        ar.flag(b.lockLinearY);
        ar.flag(b.enabled);
        ar.flag(b.isBullet);
        ar.flag(b.enableContactReuse);
        ar.flag(b.awake);
        ar.flag(b.enableSleep);
        ar.flag(b.isFast);
        ar.podVec(b.shapes);
        ar.podVec(b.joints);
        ar.podVec(b.chains);
        ar.podVec(b.contacts);
        ar.pod(b.islandId);
        ar.pod(b.stepIndex);
        ar.pod(b.awakeIndex);
        ar.flag(b.extentsDirty);
        ar.flag(b.massSumsValid);
        ar.pod(b.sumMass);
        ar.pod(b.sumMoment);
        ar.pod(b.sumInertiaAtOrigin);
        ar.pod(b.minExtent);
        ar.pod(b.maxExtent);
        ar.pod(b.ccdEnd);
    }

    template <class Ar>
    static void shape(Ar& ar, Shape& s) {
        ar.pod(s.generation);
        ar.flag(s.alive);
        ar.pod(s.body);
        ar.enumeration(s.type, int(ShapeType::Count));
        // Only the live member of the union: the other bytes are not state.
        auto member = [&ar](auto& m) {
            if constexpr (Ar::kReading)
                m = std::remove_reference_t<decltype(m)>{};  // makes it the live member
            ar.pod(m);
        };
        switch (s.type) {
            case ShapeType::Circle:
                member(s.geom.circle);
                break;
            case ShapeType::Capsule:
                member(s.geom.capsule);
                break;
            case ShapeType::Segment:
                member(s.geom.segment);
                break;
            case ShapeType::Polygon:
                member(s.geom.polygon);
                break;
            default:
                member(s.geom.chainSegment);
                break;
        }
        ar.pod(s.bodySlot);
        ar.pod(s.polygon);
        ar.pod(s.chain);
        ar.pod(s.density);
        ar.pod(s.friction);
        ar.pod(s.restitution);
        ar.pod(s.rollingResistance);
        ar.flag(s.isSensor);
        ar.flag(s.enableContactEvents);
        ar.flag(s.enableSensorEvents);
        ar.flag(s.enableHitEvents);
        ar.flag(s.enablePreSolveEvents);
        ar.pod(s.filter);
        ar.pod(s.tangentSpeed);
        ar.pod(s.userMaterialId);
        ar.pod(s.aabb);
        ar.pod(s.proxy);
        ar.pod(s.sensorIndex);
        ar.pod(s.seamShape);
        ar.pod(s.seamGhost);
        ar.pod(s.seamPoint);
        ar.pod(s.seamGroup);
        ar.pod(s.seamEnds);
    }

    template <class Ar>
    static void chain(Ar& ar, Chain& c) {
        ar.pod(c.generation);
        ar.flag(c.alive);
        ar.pod(c.body);
        ar.podVec(c.def.points);
        ar.flag(c.def.isLoop);
        ar.pod(c.def.friction);
        ar.pod(c.def.restitution);
        ar.pod(c.def.rollingResistance);
        ar.pod(c.def.filter);
        ar.flag(c.def.enableSensorEvents);
        ar.podVec(c.shapes);
    }

    template <class Ar, size_t I = 0>
    static void readJointDef(Ar& ar, JointDefVariant& v, size_t index) {
        if constexpr (I < std::variant_size_v<JointDefVariant>) {
            if (index != I) return readJointDef<Ar, I + 1>(ar, v, index);
            withoutUserData(ar, v.template emplace<I>());
        } else {
            refuseBytes("a joint def of unknown type");
        }
    }

    template <class Ar>
    static void joint(Ar& ar, Joint& j) {
        ar.pod(j.generation);
        ar.flag(j.alive);
        ar.pod(j.creationSeq);
        ar.enumeration(j.type, int(std::variant_size_v<JointDefVariant>));
        ar.pod(j.bodyA);
        ar.pod(j.bodyB);
        uint32_t index = uint32_t(j.def.index());
        ar.pod(index);
        if constexpr (Ar::kReading)
            readJointDef(ar, j.def, index);
        else
            std::visit([&](auto& d) { withoutUserData(ar, d); }, j.def);
        ar.pod(j.reactionForce);
        ar.pod(j.reactionTorque);
        ar.pod(j.carried);
        ar.flag(j.islandLinked);
    }

    template <class Ar>
    static void contact(Ar& ar, Contact& c) {
        ar.flag(c.alive);
        ar.pod(c.generation);
        ar.pod(c.shapeA);
        ar.pod(c.shapeB);
        ar.pod(c.bodyA);
        ar.pod(c.bodyB);
        ar.pod(c.edgeA);
        ar.pod(c.edgeB);
        ar.pod(c.flags);
        ar.pod(c.friction);
        ar.pod(c.restitution);
        ar.pod(c.rollingResistance);
        ar.pod(c.tangentSpeed);
        ar.pod(c.manifold);
        ar.pod(c.cache);
        ar.pod(c.reuse);
    }

    template <class Ar>
    static void island(Ar& ar, Island& i) {
        ar.flag(i.alive);
        ar.flag(i.awake);
        ar.podVec(i.bodies);
        ar.pod(i.constraintRemoveCount);
        ar.pod(i.sleepPass);
    }

    template <class Ar>
    static void sensor(Ar& ar, Sensor& s) {
        ar.pod(s.shape);
        ar.podVec(s.overlaps);
        ar.podVec(s.previous);
    }

    template <class Ar>
    static void tree(Ar& ar, DynamicTree& t) {
        ar.podVec(t.nodes_);
        ar.pod(t.root_);
        ar.pod(t.freeList_);
        ar.pod(t.leafCount_);
        ar.podVec(t.pending_);
        ar.podVec(t.enlarged_);
        // buildItems_, spare_, top_, tasks_ and the build flags are the
        // scratch of one flush.
    }

    template <class Ar>
    static void sweep(Ar& ar, SweepAndPrune& s) {
        for (int k = 0; k < 2; ++k) {
            ar.podVec(s.lists_[k]);
            ar.flag(s.sorted_[k]);
            ar.pod(s.dead_[k]);
            ar.pod(s.maxLength_[k]);
        }
        ar.podVec(s.slots_);
        ar.pod(s.axis_);
        ar.pod(s.live_);
    }

    template <class Ar>
    static void broadphase(Ar& ar, BroadPhase& b) {
        ar.enumeration(b.type_, 2);
        ar.podVec(b.proxies_);
        ar.pod(b.freeProxy_);
        ar.pod(b.proxyCount_);
        ar.podVec(b.moveBuffer_);
        // candidates_ and parts_ are the scratch of one pair search,
        // sweptSearches_ a statistic.
        tree(ar, b.trees_[0]);
        tree(ar, b.trees_[1]);
        sweep(ar, b.sap_);
        ar.flag(b.sweepStale_[0]);
        ar.flag(b.sweepStale_[1]);
    }

    template <class Ar>
    static void pairMap(Ar& ar, PairMap& m) {
        ar.podVec(m.slots_);
        uint64_t mask = m.mask_, count = m.count_;
        ar.pod(mask);
        ar.pod(count);
        if constexpr (Ar::kReading) {
            // find() walks the table masked by mask_: it must match the size.
            const size_t n = m.slots_.size();
            if ((n != 0 && (std::popcount(n) != 1 || mask != n - 1)) ||
                (n == 0 && (mask != 0 || count != 0)) || 2 * count > n)
                refuseBytes("the contact pair table is inconsistent");
            m.mask_ = size_t(mask);
            m.count_ = size_t(count);
        }
    }

    // Body names (cold per-body strings), each as its bytes.
    template <class Ar>
    static void names(Ar& ar, std::vector<std::string>& v) {
        vec(ar, v, 8, [](Ar& a, std::string& name) {
            std::vector<char> bytes(name.begin(), name.end());
            a.podVec(bytes);
            if constexpr (Ar::kReading) name.assign(bytes.begin(), bytes.end());
        });
    }

    template <class Ar>
    static void state(Ar& ar, WorldState& s) {
        def(ar, s.def);
        vec(ar, s.bodies, 8, [](Ar& a, Body& b) { body(a, b); });
        names(ar, s.bodyNames);
        ar.podVec(s.freeBodies);
        vec(ar, s.shapes, 8, [](Ar& a, Shape& x) { shape(a, x); });
        ar.podVec(s.freeShapes);
        ar.podVec(s.polygons);
        ar.podVec(s.freePolygons);
        vec(ar, s.chains, 8, [](Ar& a, Chain& x) { chain(a, x); });
        ar.podVec(s.freeChains);
        vec(ar, s.joints, 8, [](Ar& a, Joint& x) { joint(a, x); });
        ar.podVec(s.freeJoints);
        ar.podVec(s.gears);
        ar.podVec(s.freeGears);
        ar.pod(s.nextCreationSeq);
        ar.pod(s.bodyCount);
        ar.pod(s.shapeCount);
        ar.pod(s.jointCount);
        ar.pod(s.boundedBodies);
        ar.podVec(s.dirtyExtents);
        ar.pod(s.shapeVisits);
        vec(ar, s.moveEvents, sizeof(BodyMoveEvent),
            [](Ar& a, BodyMoveEvent& e) { withoutUserData(a, e); });
        broadphase(ar, s.broadphase);
        vec(ar, s.contacts, 8, [](Ar& a, Contact& x) { contact(a, x); });
        if constexpr (Ar::kReading) {  // derived, not in the bytes
            rebuildContactEnds(s);
            rebuildAwakeSlots(s);
        }
        ar.podVec(s.freeContacts);
        ar.pod(s.contactCount);
        ar.pod(s.contactsCreated);
        ar.pod(s.contactsDestroyed);
        ar.pod(s.pairsOverBudget);
        ar.flag(s.contactBudgetExceeded);
        ar.pod(s.sensorsOverBudget);
        ar.flag(s.sensorBudgetExceeded);
        pairMap(ar, s.pairMap);
        vec(ar, s.islands, 8, [](Ar& a, Island& x) { island(a, x); });
        ar.podVec(s.freeIslands);
        ar.podVec(s.awakeBodies);
        vec(ar, s.sensors, 8, [](Ar& a, Sensor& x) { sensor(a, x); });
        ar.podVec(s.freeSensors);
        ar.pod(s.sleepPass);
        if constexpr (Ar::kReading) seamRebuild(s);  // derived from the shapes, not in the bytes
        ar.podVec(s.contactBeginEvents);
        ar.podVec(s.contactEndEvents);
        ar.podVec(s.pendingContactEndEvents);
        ar.podVec(s.contactHitEvents);
        vec(ar, s.jointEvents, sizeof(JointEvent),
            [](Ar& a, JointEvent& e) { withoutUserData(a, e); });
        ar.podVec(s.sensorBeginEvents);
        ar.podVec(s.sensorEndEvents);
        ar.podVec(s.pendingSensorEndEvents);
    }
};

namespace {

// The WorldDef fields a state depends on that no setter changes: a snapshot
// only fits a world that agrees on all of them. (Fields with setters, such as
// gravity, the contact and joint tuning, thresholds, mixing rules and warm
// starting, are state and come from the snapshot; workerCount, simdWidth,
// userData and the task hooks are the game's and never change results: the
// target world keeps its own.)
void checkCompatible(const WorldDef& snap, const WorldDef& world) {
    auto refuseField = [](const char* field, const std::string& a, const std::string& b) {
        detail::refuseWhy(std::string("snapshot.def.") + field,
                          std::string("World::restore: the snapshot's WorldDef::") + field + " (" +
                              a + ") differs from this world's (" + b + ")");
    };
#define CAROM_SAME_INT(f)                    \
    if (int64_t(snap.f) != int64_t(world.f)) \
    refuseField(#f, std::to_string(int64_t(snap.f)), std::to_string(int64_t(world.f)))
    CAROM_SAME_INT(broadphase);
    CAROM_SAME_INT(substeps);
    CAROM_SAME_INT(maxContacts);
    CAROM_SAME_INT(maxSensorOverlaps);
    CAROM_SAME_INT(joinTileSeams);
    CAROM_SAME_INT(tuning.contactRelaxPasses);
    CAROM_SAME_INT(tuning.enableJointDirectSolve);
#undef CAROM_SAME_INT
    // Compared bit for bit: the masses the relax pass uses follow from it.
    if (detail::bitCast<uint32_t>(snap.tuning.relaxShockScale) !=
        detail::bitCast<uint32_t>(world.tuning.relaxShockScale))
        refuseField("tuning.relaxShockScale", std::to_string(snap.tuning.relaxShockScale),
                    std::to_string(world.tuning.relaxShockScale));
    // Likewise: the contacts' softness follows from it.
    if (detail::bitCast<uint32_t>(snap.tuning.contactLeakScale) !=
        detail::bitCast<uint32_t>(world.tuning.contactLeakScale))
        refuseField("tuning.contactLeakScale", std::to_string(snap.tuning.contactLeakScale),
                    std::to_string(world.tuning.contactLeakScale));
}

// The last step's event arrays (World::contactEvents, sensorEvents,
// bodyMoveEvents, jointEvents): the record of that step, not state, since
// step() clears them before anything reads them. A snapshot holds none of
// them and restore leaves the world's own in place, so spans the game
// holds keep their contents until the next step() (events.hpp) however
// many restores come first, and restore(s) then snapshot() gives s's bytes.
// The end events waiting for the next step are state, and are carried.
template <class Fn>
void forStepEvents(WorldState& a, WorldState& b, Fn&& fn) {
    fn(a.moveEvents, b.moveEvents);
    fn(a.contactBeginEvents, b.contactBeginEvents);
    fn(a.contactEndEvents, b.contactEndEvents);
    fn(a.contactHitEvents, b.contactHitEvents);
    fn(a.sensorBeginEvents, b.sensorBeginEvents);
    fn(a.sensorEndEvents, b.sensorEndEvents);
    fn(a.jointEvents, b.jointEvents);
}

}  // namespace
}  // namespace detail

// ---- World -------------------------------------------------------------------

Snapshot World::snapshot() const {
    const detail::WorldImpl& w = live();
    w.checkUnlocked();  // mid-step, the state is half updated
    auto state = std::make_shared<detail::WorldState>(static_cast<const detail::WorldState&>(w));
    detail::forStepEvents(
        *state, *state, [](auto& events, auto&) { std::decay_t<decltype(events)>().swap(events); });
    return Snapshot(std::move(state));
}

void World::restore(const Snapshot& snapshot) {
    detail::WorldImpl& w = live();
    w.checkUnlocked();
    if (snapshot.empty()) detail::refuseWhy("snapshot", "World::restore: the snapshot is empty");
    detail::checkCompatible(snapshot.state_->def, w.def);
    // Copy into the spare state first (this may throw bad_alloc; the world
    // is still untouched), then swap it in with non-throwing moves. The
    // spare keeps the buffers of the state swapped out, so a rollback loop
    // (restore, step a few frames, restore...) copies into warm vectors and
    // its steps stop allocating once both states have grown to the scene.
    if (!w.restoreSpare)
        w.restoreSpare = std::make_unique<detail::WorldState>(*snapshot.state_);
    else
        *w.restoreSpare = *snapshot.state_;
    detail::WorldState& next = *w.restoreSpare;
    next.def.workerCount = w.def.workerCount;
    next.def.simdWidth = w.def.simdWidth;
    next.def.userData = w.def.userData;
    next.def.enqueueTask = w.def.enqueueTask;
    next.def.finishTask = w.def.finishTask;
    next.def.userTaskContext = w.def.userTaskContext;
    static_assert(std::is_nothrow_move_constructible_v<detail::WorldState> &&
                  std::is_nothrow_move_assignable_v<detail::WorldState>);
    using std::swap;
    // The last step's events stay the world's own (forStepEvents): their
    // arrays are swapped back in untouched.
    detail::forStepEvents(w, next, [](auto& mine, auto& theirs) { swap(mine, theirs); });
    swap(static_cast<detail::WorldState&>(w), next);
    w.profile = Profile{};
}

// ---- Snapshot ------------------------------------------------------------------

std::vector<uint8_t> Snapshot::bytes() const {
    if (!state_) detail::refuseWhy("snapshot", "Snapshot::bytes: the snapshot is empty");
    // The payload goes after room left for the header, which is written
    // once the payload's size and checksum are known.
    detail::Writer out;
    out.reserve(1u << 16);
    const uint8_t zeros[detail::kSnapshotHeaderSize] = {};
    out.bytes(zeros, sizeof zeros);
    detail::SnapshotCodec::state(out, const_cast<detail::WorldState&>(*state_));
    std::vector<uint8_t> bytes = out.take();
    detail::Writer header;
    header.bytes(detail::kMagic, sizeof detail::kMagic);
    uint32_t version = detail::kFormatVersion, reserved = 0;
    uint64_t layout = detail::SnapshotCodec::layoutSignature();
    uint64_t size = bytes.size() - detail::kSnapshotHeaderSize;
    uint64_t sum =
        detail::snapshotChecksum(bytes.data() + detail::kSnapshotHeaderSize, size_t(size));
    header.pod(version);
    header.pod(reserved);
    header.pod(layout);
    header.pod(size);
    header.pod(sum);
    std::memcpy(bytes.data(), header.data(), detail::kSnapshotHeaderSize);
    return bytes;
}

Snapshot Snapshot::fromBytes(std::span<const uint8_t> bytes) {
    using detail::refuseBytes;
    if (bytes.size() < detail::kSnapshotHeaderSize)
        refuseBytes("truncated header (" + std::to_string(bytes.size()) + " bytes, " +
                    std::to_string(detail::kSnapshotHeaderSize) + " needed)");
    detail::Reader header(bytes.data(), detail::kSnapshotHeaderSize);
    char magic[8];
    header.bytes(magic, sizeof magic);
    if (std::memcmp(magic, detail::kMagic, sizeof magic) != 0)
        refuseBytes("not a Carom snapshot (bad magic)");
    uint32_t version = 0, reserved = 0;
    uint64_t layout = 0, size = 0, sum = 0;
    header.pod(version);
    header.pod(reserved);
    header.pod(layout);
    header.pod(size);
    header.pod(sum);
    if (version != detail::kFormatVersion)
        refuseBytes("format version " + std::to_string(version) + ", this build reads " +
                    std::to_string(detail::kFormatVersion));
    if (reserved != 0) refuseBytes("reserved header field is not zero");
    if (layout != detail::SnapshotCodec::layoutSignature())
        refuseBytes("written by a build with another memory layout");
    if (size != bytes.size() - detail::kSnapshotHeaderSize)
        refuseBytes("payload of " + std::to_string(bytes.size() - detail::kSnapshotHeaderSize) +
                    " bytes, the header says " + std::to_string(size));
    const uint8_t* payload = bytes.data() + detail::kSnapshotHeaderSize;
    if (detail::snapshotChecksum(payload, size_t(size)) != sum)
        refuseBytes("checksum mismatch (corrupted)");
    auto state = std::make_shared<detail::WorldState>(WorldDef{});
    detail::Reader in(payload, size_t(size));
    detail::SnapshotCodec::state(in, *state);
    if (in.left() != 0) refuseBytes(std::to_string(in.left()) + " bytes after the state");
    return Snapshot(std::move(state));
}

}  // namespace carom
