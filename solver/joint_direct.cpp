// Direct solve of joint trees (see joint_direct.hpp for the method).
//
// Layout of the factorisation: every node carries 3x3 blocks (a revolute
// joint's third row is a dummy with H = 1 and no coupling, so its
// multiplier is 0). Nodes of a tree are stored children before parents;
// with H(i, p) the block between node i and its parent p:
//   factor   D_i = H_ii - Σ_children H_ciᵀ D_c⁻¹ H_ci,  L_i = D_i⁻¹ H(i, p)
//   forward  y_p = b_p - Σ_children L_cᵀ y_c,  z_i = D_i⁻¹ y_i
//   back     x_i = z_i - L_i x_p  (root first)
// which is H = L D Lᵀ solved with no fill-in (Baraff 1996, section 4).
#include "engine/core/platform.hpp"
#include "solver/joint_direct.hpp"

#include <algorithm>

#include "solver/joint_internal.hpp"

namespace carom::detail {

namespace {

// Relative regularisation of a joint's rows. A leaf joint's multiplier is
// recovered as (rhs - J Δv) / ε, so Δv must be exact to well below ε
// relative, while the body block it was solved from has a condition number
// near 1/ε: 1e-6 keeps the recovered impulse to ~1e-4 relative in double and
// lets the joint give by 1e-6 of its effective mass (1e-9 fed warm-started
// rounding errors back into the chain until it blew up).
constexpr double kRegularisation = 1e-6;

bool isTreeBody(const StepContext& ctx, int i) {
    if (i < 0) return false;
    const BodyParams& p = ctx.params[size_t(i)];
    return p.invMass > 0.0f && p.invMassX == p.invMass && p.invMassY == p.invMass &&
           p.invInertia > 0.0f;
}

bool isFixedBody(const StepContext& ctx, int i) {
    if (i < 0) return true;
    const BodyParams& p = ctx.params[size_t(i)];
    return p.invMassX == 0.0f && p.invMassY == 0.0f && p.invInertia == 0.0f;
}

// 3x3 row-major helpers.
void inverse3(double m[9]) {
    const double a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6], h = m[7],
                 k = m[8];
    const double A = e * k - f * h, B = -(d * k - f * g), C = d * h - e * g;
    double det = a * A + b * B + c * C;
    det = det != 0.0 ? 1.0 / det : 0.0;
    m[0] = det * A;
    m[1] = det * -(b * k - c * h);
    m[2] = det * (b * f - c * e);
    m[3] = det * B;
    m[4] = det * (a * k - c * g);
    m[5] = det * -(a * f - c * d);
    m[6] = det * C;
    m[7] = det * -(a * h - b * g);
    m[8] = det * (a * e - b * d);
}

// out = a · b
void mul3(const double a[9], const double b[9], double out[9]) {
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            out[3 * r + c] = a[3 * r] * b[c] + a[3 * r + 1] * b[3 + c] + a[3 * r + 2] * b[6 + c];
}

// m -= aᵀ · b
void subTransMul3(double m[9], const double a[9], const double b[9]) {
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            m[3 * r + c] -= a[r] * b[c] + a[3 + r] * b[3 + c] + a[6 + r] * b[6 + c];
}

void setDiag(double m[9], double a, double b, double c) {
    std::fill(m, m + 9, 0.0);
    m[0] = a, m[4] = b, m[8] = c;
}

Vec2 anchor(const JointSimData& s, const StepContext& ctx, bool sideB) {
    return sideB ? rotate(ctx.state(s.indexB).dq, s.frameB)
                 : rotate(ctx.state(s.indexA).dq, s.frameA);
}

}  // namespace

bool JointDirect::offer(const JointSim& sim, const StepContext& ctx, DirectOffer& out) {
    if (!sim.s.active) return false;
    if (sim.type == JointType::Revolute) {
        out.kind = DirectKind::Point;
        out.angularRows = joints::revoluteHasAngularRows(sim.params.revolute);
    } else if (sim.type == JointType::Weld) {
        out.kind = DirectKind::Weld;
        if (sim.params.weld.linearHertz != 0.0f || sim.params.weld.angularHertz != 0.0f)
            return false;
    } else {
        return false;
    }
    const int a = sim.s.indexA, b = sim.s.indexB;
    out.a = a, out.b = b;
    out.nodeA = isTreeBody(ctx, a);
    out.nodeB = isTreeBody(ctx, b);
    return (out.nodeA || isFixedBody(ctx, a)) && (out.nodeB || isFixedBody(ctx, b)) &&
           (out.nodeA || out.nodeB) && a != b;
}

void JointDirect::begin(int bodyCount) {
    bodyCount_ = bodyCount;
    joints_.clear();
}

// Inlined: called two or three times per offered joint, so a call's
// overhead would be a large share of the union-find's cost.
CAROM_FORCE_INLINE int JointDirect::find(int body) {
    while (setParent_[size_t(body)] >= 0) {
        const int up = setParent_[size_t(body)];
        if (setParent_[size_t(up)] >= 0)
            setParent_[size_t(body)] = setParent_[size_t(up)];  // path halving
        body = up;
    }
    return body;
}

void JointDirect::build() {
    const size_t n = size_t(bodyCount_);
    setParent_.assign(n, -1);
    setLoop_.assign(n, 0);
    nodes_.clear();
    treeStart_.clear();
    treeRoot_.clear();
    treeRootJoint_.clear();
    treeTurns_.clear();
    directJoints_ = 0;

    // The loops among dynamic bodies (union-find in offer order; offer()
    // has checked the sides).
    constexpr int kRejected = -2;
    for (Offered& o : joints_) {
        const int a = o.a, b = o.b;
        o.tree = -1;
        if (o.nodeA && o.nodeB) {
            const int ra = find(a), rb = find(b);
            if (ra == rb) {
                setLoop_[size_t(ra)] = 1;
            } else {
                setParent_[size_t(rb)] = ra;
                setLoop_[size_t(ra)] |= setLoop_[size_t(rb)];
            }
        }
    }
    // Trees numbered in offer order; a set with a loop stays iterative.
    int trees = 0;
    for (Offered& o : joints_) {
        if (o.tree == kRejected) continue;
        const int body = o.nodeA ? o.a : o.b;
        const int root = find(body);
        if (setLoop_[size_t(root)]) {
            o.tree = kRejected;
            continue;
        }
        if (trees == 0) {
            // Only now that there is a tree (a world of loops needs none of this).
            setTree_.assign(n, -1);
            bodyNode_.assign(n, -1);
            adjStart_.assign(n + 1, 0);
        }
        if (setTree_[size_t(root)] < 0) {
            setTree_[size_t(root)] = trees++;
            treeRoot_.push_back(body);
            treeRootJoint_.push_back(-1);
            treeTurns_.push_back(0);
        }
        o.tree = setTree_[size_t(root)];
        if (o.turn) treeTurns_[size_t(o.tree)] = 1;
        // The first joint to a fixed body roots the tree: as the root its
        // block is not a leaf's zero, and needs no regularisation to factor.
        if (o.nodeA != o.nodeB && treeRootJoint_[size_t(o.tree)] < 0)
            treeRootJoint_[size_t(o.tree)] = int(&o - joints_.data());
        if (o.nodeA) ++adjStart_[size_t(o.a) + 1];
        if (o.nodeB) ++adjStart_[size_t(o.b) + 1];
        ++directJoints_;
    }
    for (Offered& o : joints_)
        if (o.tree == kRejected) o.tree = -1;
    if (trees == 0) return;

    // Each body's joints, in offer order.
    for (size_t i = 0; i < n; ++i) adjStart_[i + 1] += adjStart_[i];
    adj_.resize(size_t(adjStart_[n]));
    order_.assign(adjStart_.begin(), adjStart_.end() - 1);  // fill cursors
    for (size_t k = 0; k < joints_.size(); ++k) {
        const Offered& o = joints_[k];
        if (o.tree < 0) continue;
        if (o.nodeA) adj_[size_t(order_[size_t(o.a)]++)] = int(k);
        if (o.nodeB) adj_[size_t(order_[size_t(o.b)]++)] = int(k);
    }

    // Each tree walked breadth first from its first joint's body (parents
    // first), then stored reversed (children first). A joint is entered
    // once: from the first of its bodies the walk reaches.
    std::vector<uint8_t>& seen = setLoop_;  // reused: per offered joint
    seen.assign(joints_.size(), 0);
    for (int t = 0; t < trees; ++t) {
        walk_.clear();
        const int rootJoint = treeRootJoint_[size_t(t)];
        Node root{};
        if (rootJoint >= 0) {
            const Offered& o = joints_[size_t(rootJoint)];
            root.index = rootJoint;
            root.joint = true;
            seen[size_t(rootJoint)] = 1;
            walk_.push_back(root);
            root = Node{};
            root.parent = 0;
            root.index = o.nodeA ? o.a : o.b;
        } else {
            root.index = treeRoot_[size_t(t)];
        }
        walk_.push_back(root);
        bodyNode_[size_t(root.index)] = 0;
        for (size_t q = 0; q < walk_.size(); ++q) {
            if (walk_[q].joint) continue;
            const int body = walk_[q].index;
            for (int e = adjStart_[size_t(body)]; e < adjStart_[size_t(body) + 1]; ++e) {
                const int k = adj_[size_t(e)];
                if (seen[size_t(k)]) continue;
                seen[size_t(k)] = 1;
                const Offered& o = joints_[size_t(k)];
                Node jn{};
                jn.parent = int(q);
                jn.index = k;
                jn.joint = true;
                const int jointNode = int(walk_.size());
                walk_.push_back(jn);
                const bool fromA = o.a == body;
                const int other = fromA ? o.b : o.a;
                if ((fromA ? o.nodeB : o.nodeA) && bodyNode_[size_t(other)] < 0) {
                    Node bn{};
                    bn.parent = jointNode;
                    bn.index = other;
                    bodyNode_[size_t(other)] = 0;
                    walk_.push_back(bn);
                }
            }
        }
        const int base = int(nodes_.size()), m = int(walk_.size());
        treeStart_.push_back(base);
        for (int q = m - 1; q >= 0; --q) {
            Node nd = walk_[size_t(q)];
            nd.parent = nd.parent < 0 ? -1 : base + (m - 1 - nd.parent);
            if (!nd.joint) bodyNode_[size_t(nd.index)] = int(nodes_.size());
            nodes_.push_back(nd);
        }
    }
    treeStart_.push_back(int(nodes_.size()));
}

// The 3x3 block of the joint's rows against one side's (vx, vy, w):
// point rows d(pB - pA)/dv, and for a weld the angle row.
void JointDirect::jacobian(const Offered& o, bool sideB, const StepContext& ctx,
                           double J[9]) const {
    const Vec2 r = anchor(*o.s, ctx, sideB);
    const double sign = sideB ? 1.0 : -1.0;
    J[0] = sign, J[1] = 0.0, J[2] = -sign * double(r.y);
    J[3] = 0.0, J[4] = sign, J[5] = sign * double(r.x);
    J[6] = 0.0, J[7] = 0.0, J[8] = o.kind == DirectKind::Weld ? sign : 0.0;
}

// Mass scaling of light bodies under large joint impulses: the velocity
// rows are solved exactly, but the joints' directions move with the
// positions, explicitly. A light link between two joints carrying a
// tension T has a sideways (zig-zag) mode of ω² ≈ 2T / (m·L), which the
// substep resolves only while h·ω < 2, i.e. m > h²T / (2L) = h·λ / (2L)
// with λ = T·h the joint's impulse per substep (chain_load: T = 1e7 N on
// 0.1 kg links of 1 m needs ~200 kg). Such a body is given, in this
// substep's warm start, solve and relax, the mass (and inertia, by the same
// factor)
//   m' = max(m, kMassScaling · h · λ / ℓ)   over its joints,
// ℓ its anchor's distance from its centre (≈ L/2), from the impulses
// carried into the substep. It then follows its joints as a heavier body
// would; gravity and the other constraints still see m. Bodies below the
// bound (every body of a chain of similar masses) keep their own masses.
//
// A body that only one joint of its tree holds has no such mode: what the
// substep must resolve is its swing about that joint's anchor under the
// load λ, ω² = T·ℓ / (I + m·ℓ²), so it is scaled by
//   max(1, h · λ · ℓ / (4 · (I + m·ℓ²))),
// which vanishes for a pin at its centre. A load from outside the tree (a
// rope, a contact, a force) is what the joint takes back from the body at
// the scaled mass, so its impulse carries that load times the scale; with
// λ / ℓ, the next substep's scale was figured from it, and for a pin near
// the centre (ℓ at its floor kMinLever) each substep multiplied the last,
// to inf and NaN (two wheels on their pins joined by a rope they cannot
// satisfy; a heavy load on a rope over a light pinned wheel).
void JointDirect::computeScales(int begin, int end, const StepContext& ctx) {
    constexpr float kMassScaling = 2.0f;
    constexpr float kMinLever = 0.05f;
    // Per body node, x holds (joints at it, swing scale) here; the solve
    // sets x anew.
    for (int i = begin; i < end; ++i) {
        Node& nd = nodes_[size_t(i)];
        nd.scale = 1.0;
        nd.x[0] = nd.x[1] = 0.0;
    }
    for (int i = begin; i < end; ++i) {
        const Node& nd = nodes_[size_t(i)];
        if (!nd.joint) continue;
        const Offered& o = joints_[size_t(nd.index)];
        const JointSimData& s = *o.s;
        const float impulse = ctx.h * length(s.linearImpulse);
        for (int side = 0; side < 2; ++side) {
            if (!(side ? o.nodeB : o.nodeA)) continue;
            const int body = side ? s.indexB : s.indexA;
            const float arm = length(side ? s.frameB : s.frameA);
            const float lever = std::max(arm, kMinLever);
            const BodyParams& p = ctx.params[size_t(body)];
            const double scale = double(kMassScaling * impulse * p.invMass / lever);
            Node& bn = nodes_[size_t(bodyNode_[size_t(body)])];
            bn.scale = std::max(bn.scale, scale);
            const double pinInertia =
                1.0 / double(p.invInertia) + double(arm) * double(arm) / double(p.invMass);
            bn.x[0] += 1.0;
            bn.x[1] = double(impulse) * double(arm) / (4.0 * pinInertia);
        }
    }
    for (int i = begin; i < end; ++i) {
        Node& nd = nodes_[size_t(i)];
        if (!nd.joint && nd.x[0] == 1.0) nd.scale = std::max(1.0, nd.x[1]);
    }
}

void JointDirect::warmStart(int tree, const StepContext& ctx) {
    const int begin = treeStart_[size_t(tree)], end = treeStart_[size_t(tree) + 1];
    computeScales(begin, end, ctx);
    for (int i = begin; i < end; ++i) {
        const Node& nd = nodes_[size_t(i)];
        if (!nd.joint) continue;
        const Offered& o = joints_[size_t(nd.index)];
        const JointSimData& s = *o.s;
        const Vec2 P = s.linearImpulse;
        // A weld's angle row, or a revolute's spring, motor and limits.
        float angular = 0.0f;
        if (o.kind == DirectKind::Weld)
            angular = s.angularImpulse;
        else if (o.turn)
            angular = s.springImpulse + s.motorImpulse + s.lowerImpulse - s.upperImpulse;
        // With the scaled masses of the solve that follows, so that the
        // impulses it finds are consistent with what was applied here.
        if (o.nodeA) {
            BodyState& a = ctx.states[size_t(s.indexA)];
            const float k = float(1.0 / nodes_[size_t(bodyNode_[size_t(s.indexA)])].scale);
            const Vec2 rA = rotate(a.dq, s.frameA);
            a.v -= (k * s.invMassA) * P;
            a.w -= (k * s.invIA) * (cross(rA, P) + angular);
        }
        if (o.nodeB) {
            BodyState& b = ctx.states[size_t(s.indexB)];
            const float k = float(1.0 / nodes_[size_t(bodyNode_[size_t(s.indexB)])].scale);
            const Vec2 rB = rotate(b.dq, s.frameB);
            b.v += (k * s.invMassB) * P;
            b.w += (k * s.invIB) * (cross(rB, P) + angular);
        }
    }
}

void JointDirect::solve(int tree, const StepContext& ctx, bool useBias) {
    const int begin = treeStart_[size_t(tree)], end = treeStart_[size_t(tree) + 1];
    // The blocks at the current substep pose, and the right-hand side.
    for (int i = begin; i < end; ++i) {
        Node& nd = nodes_[size_t(i)];
        if (!nd.joint) {
            const BodyParams& p = ctx.params[size_t(nd.index)];
            const double m = nd.scale / double(p.invMass);
            setDiag(nd.D, m, m, nd.scale / double(p.invInertia));
            nd.x[0] = nd.x[1] = nd.x[2] = 0.0;
            if (nd.parent >= 0) {
                const Offered& o = joints_[size_t(nodes_[size_t(nd.parent)].index)];
                double J[9];
                jacobian(o, o.s->indexB == nd.index && o.nodeB, ctx, J);
                for (int r = 0; r < 3; ++r)
                    for (int c = 0; c < 3; ++c)
                        nd.H[3 * r + c] = J[3 * c + r];  // H(body, joint) = Jᵀ
            }
            continue;
        }
        const Offered& o = joints_[size_t(nd.index)];
        const JointSimData& s = *o.s;
        const BodyState& a = ctx.state(s.indexA);
        const BodyState& b = ctx.state(s.indexB);
        const Vec2 rA = rotate(a.dq, s.frameA);
        const Vec2 rB = rotate(b.dq, s.frameB);
        const Vec2 Cdot = (b.v + crossSV(b.w, rB)) - (a.v + crossSV(a.w, rA));
        const float bias = useBias ? ctx.jointSoftness.biasRate : 0.0f;
        const Vec2 C = s.deltaCenter + (b.dp - a.dp) + (rB - rA);
        nd.x[0] = -double(bias) * double(C.x) - double(Cdot.x);
        nd.x[1] = -double(bias) * double(C.y) - double(Cdot.y);
        const double kLinear = double(s.invMassA) + double(s.invMassB) +
                               double(s.invIA) * double(lengthSquared(rA)) +
                               double(s.invIB) * double(lengthSquared(rB));
        // Only a leaf (a joint to a fixed body that is not the root) has a
        // zero block; every other joint's block gets its child's Schur
        // complement and is factored as it is, rigid.
        const bool leaf = nd.parent >= 0 && o.nodeA != o.nodeB;
        const double reg = leaf ? kRegularisation : 0.0;
        const double epsLinear = reg * kLinear;
        if (o.kind == DirectKind::Weld) {
            const float angle = relativeAngle(a.dq, b.dq) + s.deltaAngle;
            nd.x[2] = -double(bias) * double(angle) - (double(b.w) - double(a.w));
            setDiag(nd.D, -epsLinear, -epsLinear, -reg * (double(s.invIA) + double(s.invIB)));
        } else {
            nd.x[2] = 0.0;
            setDiag(nd.D, -epsLinear, -epsLinear, 1.0);
        }
        if (nd.parent >= 0) {
            const int parentBody = nodes_[size_t(nd.parent)].index;
            jacobian(o, s.indexB == parentBody && o.nodeB, ctx, nd.H);
        }
    }
    factor(begin, end);
    forward(begin, end);
    back(begin, end);
    apply(begin, end, ctx);
    if (treeTurns_[size_t(tree)]) solveTurns(begin, end, ctx, useBias);
}

void JointDirect::factor(int begin, int end) {
    for (int i = begin; i < end; ++i) {
        Node& nd = nodes_[size_t(i)];
        inverse3(nd.D);
        if (nd.parent < 0) continue;
        Node& p = nodes_[size_t(nd.parent)];
        mul3(nd.D, nd.H, nd.L);
        subTransMul3(p.D, nd.H, nd.L);
    }
}

void JointDirect::forwardNode(int i) {
    Node& nd = nodes_[size_t(i)];
    if (nd.parent >= 0) {
        Node& p = nodes_[size_t(nd.parent)];
        for (int r = 0; r < 3; ++r)
            p.x[r] -= nd.L[r] * nd.x[0] + nd.L[3 + r] * nd.x[1] + nd.L[6 + r] * nd.x[2];
    }
    const double y0 = nd.x[0], y1 = nd.x[1], y2 = nd.x[2];
    for (int r = 0; r < 3; ++r)
        nd.x[r] = nd.D[3 * r] * y0 + nd.D[3 * r + 1] * y1 + nd.D[3 * r + 2] * y2;
}

void JointDirect::forward(int begin, int end) {
    for (int i = begin; i < end; ++i) forwardNode(i);
}

void JointDirect::back(int begin, int end) {
    for (int i = end - 1; i >= begin; --i) {
        Node& nd = nodes_[size_t(i)];
        if (nd.parent >= 0) {
            const Node& p = nodes_[size_t(nd.parent)];
            for (int r = 0; r < 3; ++r)
                nd.x[r] -=
                    nd.L[3 * r] * p.x[0] + nd.L[3 * r + 1] * p.x[1] + nd.L[3 * r + 2] * p.x[2];
        }
    }
}

void JointDirect::apply(int begin, int end, const StepContext& ctx) {
    for (int i = begin; i < end; ++i) {
        const Node& nd = nodes_[size_t(i)];
        if (!nd.joint) {
            BodyState& st = ctx.states[size_t(nd.index)];
            st.v.x += float(nd.x[0]);
            st.v.y += float(nd.x[1]);
            st.w += float(nd.x[2]);
            continue;
        }
        const Offered& o = joints_[size_t(nd.index)];
        o.s->linearImpulse.x -= float(nd.x[0]);
        o.s->linearImpulse.y -= float(nd.x[1]);
        if (o.kind == DirectKind::Weld) o.s->angularImpulse -= float(nd.x[2]);
    }
}

// Nodes are stored children first, so a parent's index is above its
// children's: the two paths, walked up together taking the lower index
// first, give their nodes in the forward order.
template <class F>
void JointDirect::onPaths(int a, int b, F&& f) const {
    while (a >= 0 || b >= 0) {
        int i;
        if (b < 0 || (a >= 0 && a < b)) {
            i = a;
            a = nodes_[size_t(a)].parent;
        } else if (a < 0 || b < a) {
            i = b;
            b = nodes_[size_t(b)].parent;
        } else {
            i = a;
            a = nodes_[size_t(a)].parent;
            b = nodes_[size_t(b)].parent;
        }
        f(i);
    }
}

// Recursive: the path is as long as the tree is deep, and a tree's solve
// runs on one worker with no scratch shared between trees.
void JointDirect::backAt(int i, double x[3], double z[3]) const {
    const Node& nd = nodes_[size_t(i)];
    if (nd.parent < 0) {
        for (int r = 0; r < 3; ++r) x[r] = nd.x[r], z[r] = nd.z[r];
        return;
    }
    double px[3], pz[3];
    backAt(nd.parent, px, pz);
    for (int r = 0; r < 3; ++r) {
        const double* l = nd.L + 3 * r;
        x[r] = nd.x[r] - (l[0] * px[0] + l[1] * px[1] + l[2] * px[2]);
        z[r] = nd.z[r] - (l[0] * pz[0] + l[1] * pz[1] + l[2] * pz[2]);
    }
}

// The spring, motor and limit rows of the tree's revolutes, one joint after
// another, children first, at the pose of the pins' factorisation. A joint's
// rows act on its relative turn; the tree answers a turn impulse τ (-τ on
// A's spin, +τ on B's) with every pin held: the system's solution for that
// right-hand side, Δv = x·τ over every body and Δλ = -x·τ over every pin.
// Its k = ΔwB - ΔwA per unit τ is the turn's exact inverse mass, so the
// rows, solved as the iterative path solves them (revoluteAngularRows) but
// with the mass 1/k and wB - wA advanced by k·τ, find this joint's impulse
// in one go, and the response keeps every pin as the pins' solve left it.
// Gauss-Seidel over the joints, each one exact: the rows of two joints that
// meet (a locked joint beside a limited one) converge instead of feeding
// each other.
//
// A joint's work follows its two paths to the root, not the whole tree: the
// unit right-hand side is non-zero at A and B only, so its forward
// substitution touches only their paths, and so does the back substitution
// at A and B that k and the joint's current wB - wA need. The joints'
// responses add up forward-substituted in z, and one back substitution of
// the whole tree at the end applies them all.
void JointDirect::solveTurns(int begin, int end, const StepContext& ctx, bool useBias) {
    for (int i = begin; i < end; ++i) {
        Node& nd = nodes_[size_t(i)];
        nd.x[0] = nd.x[1] = nd.x[2] = 0.0;
        nd.z[0] = nd.z[1] = nd.z[2] = 0.0;
    }
    bool turned = false;
    for (int j = begin; j < end; ++j) {
        if (!nodes_[size_t(j)].joint) continue;
        const Offered& o = joints_[size_t(nodes_[size_t(j)].index)];
        if (!o.turn) continue;
        JointSimData& s = *o.s;
        const int nodeA = o.nodeA ? bodyNode_[size_t(s.indexA)] : -1;
        const int nodeB = o.nodeB ? bodyNode_[size_t(s.indexB)] : -1;
        if (nodeA >= 0) nodes_[size_t(nodeA)].x[2] = -1.0;
        if (nodeB >= 0) nodes_[size_t(nodeB)].x[2] = 1.0;
        onPaths(nodeA, nodeB, [&](int i) { forwardNode(i); });
        // The unit response and the turns so far, at A's and B's spins.
        double unitA[3] = {0.0, 0.0, 0.0}, unitB[3] = {0.0, 0.0, 0.0};
        double soFarA[3] = {0.0, 0.0, 0.0}, soFarB[3] = {0.0, 0.0, 0.0};
        if (nodeA >= 0) backAt(nodeA, unitA, soFarA);
        if (nodeB >= 0) backAt(nodeB, unitB, soFarB);
        const double k = unitB[2] - unitA[2];
        double total = 0.0;
        if (k > 0.0) {
            const BodyState& a = ctx.state(s.indexA);
            const BodyState& b = ctx.state(s.indexB);
            const float wRel = float((double(b.w) + soFarB[2]) - (double(a.w) + soFarA[2]));
            joints::revoluteAngularRows(
                *o.turn, s, ctx, useBias,
                joints::revoluteReadsAngle(*o.turn) ? joints::jointAngle(s, a, b) : 0.0f,
                float(1.0 / k), wRel, [&](float impulse) {
                    total += double(impulse);
                    return float(double(wRel) + k * total);
                });
        }
        // This joint's response into z; x back to zero on the paths.
        onPaths(nodeA, nodeB, [&](int i) {
            Node& nd = nodes_[size_t(i)];
            for (int r = 0; r < 3; ++r) {
                nd.z[r] += nd.x[r] * total;
                nd.x[r] = 0.0;
            }
        });
        turned = turned || total != 0.0;
    }
    if (!turned) return;
    for (int i = begin; i < end; ++i) {
        Node& nd = nodes_[size_t(i)];
        nd.x[0] = nd.z[0], nd.x[1] = nd.z[1], nd.x[2] = nd.z[2];
    }
    back(begin, end);
    apply(begin, end, ctx);
}

}  // namespace carom::detail
