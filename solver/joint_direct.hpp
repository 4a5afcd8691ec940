// Direct (exact) solve of joint trees: WorldDef::tuning.enableJointDirectSolve.
//
// The iterative soft-step solver moves an impulse one joint per Gauss-Seidel
// sweep and splits it by the mass ratio at every joint: a 1e6 kg load on a
// chain of 0.1 kg links is never held, the load falls
// freely. For the joints of an island that form a tree (no loop through
// dynamic bodies; static and kinematic bodies are not part of the tree, so a
// bridge pinned at both ends is still a tree), the velocity constraints are
// solved exactly instead, in linear time, by Baraff's sparse LDLᵀ
// factorisation ("Linear-time dynamics using Lagrange multipliers",
// SIGGRAPH 1996):
//
//   [ M  Jᵀ ] [Δv]   [    0     ]     Δv: velocity change of the tree's bodies
//   [ J  -E ] [ μ] = [ c - J v  ]     λ = -μ: the joints' impulses (on B)
//
// The graph of this matrix (nodes: the tree's dynamic bodies and its joints,
// edges: a joint and each of its dynamic bodies) is itself a tree, so
// eliminating the nodes children first creates no fill-in: every block is
// 3x3 (body: vx, vy, w; joint: up to three rows). E = εI is a regularisation
// of 1e-6 of the joint's own effective mass: a second joint to the ground is
// a leaf whose block would be 0 and could not be eliminated first (the first
// one is made the root, where its block is the full Schur complement), and
// redundant joints (two welds from one body to the ground) stay solvable.
// Computed in double: the masses span 1e7 and the cost is a few hundred
// flops a node.
//
// Target velocity c: in the solve pass -biasRate·C with the world joint
// softness's bias rate (the position error corrected at the soft rate, but
// rigidly: full mass, no impulse scaling), in the relax pass 0. The
// accumulated impulses stay in the joint's JointSimData (linearImpulse,
// weld's angularImpulse), so warm starting, reactions and breakable-joint
// events work unchanged.
//
// Joints taken: revolute joints (two point rows) and rigid welds (linear
// and angular hertz 0: three rows), whose sides are each either a dynamic
// body with mass and inertia and no motion lock, or a body with no inverse
// mass (static, kinematic, asleep). A tree with a loop among its dynamic
// bodies is left entirely to the iterative path, as is every other joint.
//
// A revolute's spring, motor and limit rows (revoluteAngularRows, the same
// rows as the iterative path's) are solved here too, after the pins, one
// joint after another (Gauss-Seidel): each with the response of the whole
// tree to a turn of that joint with every pin held, found with the pins'
// factorisation (solveTurns), so that its mass is exact and the pins stay
// exact. Turning only the joint's two bodies would move them off the pins
// of their other joints; the direct solve took those back after all rows,
// and the next row was solved from that error, which grew without bound
// where two such rows met (a limit's two sides, a locked joint next to
// another).
//
// Threads: build() runs on one thread (the gather); warmStart/solve/finish
// of one tree write only that tree's bodies and joints, so trees run in
// parallel, and each tree's arithmetic is the same whatever the worker.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/joint_solver.hpp"
#include "solver/solver_types.hpp"

namespace carom::detail {

enum class DirectKind : uint8_t { Point, Weld };

/// A joint the direct solve may take, as the gather finds it (JointDirect::
/// offer): its position in the gather's list, its sides' solver indices,
/// its kind, and which sides are dynamic bodies of a tree (nodeA, nodeB);
/// a joint whose sides cannot be part of a tree is not offered.
struct DirectOffer {
    int position = -1;
    int a = -1, b = -1;
    DirectKind kind = DirectKind::Point;
    bool nodeA = false, nodeB = false;
    /// A revolute with a spring, motor or limit: its angular rows are solved
    /// in the tree too (solveTurns).
    bool angularRows = false;
};

class JointDirect {
   public:
    /// Starts a step's build for bodyCount solver bodies.
    void begin(int bodyCount);
    /// Whether the direct path may take this joint (prepared: active; a
    /// revolute or a rigid weld) and its sides may be part of a tree; if so,
    /// fills out (but its position). Called by the gather, in parallel,
    /// while the joint and its bodies are in cache.
    static bool offer(const JointSim& sim, const StepContext& ctx, DirectOffer& out);
    /// Offers a joint that offer() accepted; the k-th call is offered joint
    /// k. build() walks the compact offers alone: reading every offered
    /// joint and its bodies' parameters again would dominate build's time
    /// when there are many joints.
    void add(JointSim& sim, const DirectOffer& o) {
        joints_.push_back(Offered{o, &sim.s, o.angularRows ? &sim.params.revolute : nullptr, -1});
    }
    /// Finds the trees among the offered joints; afterwards isDirect(k)
    /// says whether the k-th offered joint is solved here.
    void build();
    bool isDirect(int k) const { return joints_[size_t(k)].tree >= 0; }
    int treeCount() const { return int(treeStart_.empty() ? 0 : treeStart_.size() - 1); }
    int directJointCount() const { return directJoints_; }

    /// Sets the substep's mass scaling and applies the tree's accumulated
    /// impulses (with the scaled masses).
    void warmStart(int tree, const StepContext& ctx);
    /// Solves the tree's joint rows exactly (with the position bias when
    /// useBias), then its revolutes' angular rows (solveTurns), and applies
    /// the impulses.
    void solve(int tree, const StepContext& ctx, bool useBias);

   private:
    /// An offer as the gather made it, with the joint's data and its tree.
    struct Offered : DirectOffer {
        JointSimData* s = nullptr;
        const RevoluteParams* turn = nullptr;  ///< angularRows: the revolute's params
        int tree = -1;                         ///< -1: left to the iterative path
    };
    struct Node {
        int parent = -1;  ///< flat index of the parent node, -1 for the root
        int index = -1;   ///< body: solver index; joint: offered index
        bool joint = false;
        double D[9];   ///< D, then its inverse after the factorisation
        double L[9];   ///< D⁻¹ H(node, parent)
        double H[9];   ///< H(node, parent)
        double x[3];   ///< right-hand side, then the solution
        double z[3];   ///< solveTurns: the turn impulses so far, forward-substituted
        double scale;  ///< body: mass scaling of this solve (joint_direct.cpp)
    };

    int find(int body);
    void computeScales(int begin, int end, const StepContext& ctx);
    void jacobian(const Offered& o, bool sideB, const StepContext& ctx, double J[9]) const;
    /// The factorisation of nodes [begin, end) (D inverted, L); the
    /// solution of the right-hand sides in x with it (forward, children
    /// first, then back, root first); that solution added to the bodies'
    /// velocities and taken from the joints' impulses.
    void factor(int begin, int end);
    void forward(int begin, int end);
    void back(int begin, int end);
    void apply(int begin, int end, const StepContext& ctx);
    void solveTurns(int begin, int end, const StepContext& ctx, bool useBias);
    /// solveTurns' sparse pieces: the forward step of node i (on x); every
    /// node on the paths from nodes a and b (-1: none) to the root, children
    /// first; the back substitution at node i of x and of z, from the root
    /// down its path.
    void forwardNode(int i);
    template <class F>
    void onPaths(int a, int b, F&& f) const;
    void backAt(int i, double x[3], double z[3]) const;

    std::vector<Offered> joints_;
    std::vector<int> setParent_;       ///< union-find over solver indices (-1: root or untouched)
    std::vector<uint8_t> setLoop_;     ///< per set root: a loop closes in it
    std::vector<int> setTree_;         ///< per set root: its tree, -1 before numbering
    std::vector<int> adjStart_, adj_;  ///< per body: the offered joints at it
    std::vector<int> bodyNode_;        ///< per body: its node (flat index) once built, -1
    std::vector<int> order_;           ///< BFS scratch (node indices, parents first)
    std::vector<Node> nodes_;          ///< all trees, each children before parents
    std::vector<int> treeStart_;       ///< tree t: nodes [treeStart_[t], treeStart_[t+1])
    std::vector<int> treeRoot_;        ///< per tree: the body its walk starts from
    std::vector<int> treeRootJoint_;   ///< per tree: its first joint to a fixed body (the root), -1
    std::vector<uint8_t> treeTurns_;   ///< per tree: it has a revolute with angular rows
    std::vector<Node> walk_;           ///< BFS scratch: one tree's nodes, parents first
    int bodyCount_ = 0;
    int directJoints_ = 0;
};

}  // namespace carom::detail
