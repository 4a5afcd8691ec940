#!/usr/bin/env python3
"""Writes the stability suite (docs/stability.md) into stability/ next to this script.

Each scene has a `stability` key that names the figure it is judged by and
its measuring window; `carom stability demos/scenes/stability` reports them.
Every scene runs with sleep off, so that what is measured is the solver and
not the sleep heuristic, and with the default 4 substeps (Box2D v3's default
too). The JSON files are the product; this script is how they were made.
Usage: make_stability_scenes.py [OUTDIR]
"""
import math, os, random, sys

sys.dont_write_bytecode = True  # importing make_scenes must not leave a __pycache__ among the scenes
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_scenes import box, capsule, card_house_bodies, circle, fmt, ground, ragdoll, walls  # noqa: E402

NO_SLEEP = {"sleep": False}


def scene(name, description, bodies, stability, joints=None, duration=5, world=None, view=None):
    d = {"carom": 1, "name": name, "description": description, "duration": duration,
         "world": dict(NO_SLEEP, **(world or {})), "bodies": bodies}
    if joints:
        d["joints"] = joints
    if view:
        d["view"] = view
    d["stability"] = stability
    return d


def column(n, name="box", x=0.0, y0=0.0, size=1.0, gap=0.0, density=None):
    """n boxes of side `size` standing on y0, `gap` apart (negative: overlapping)."""
    h = 0.5 * size
    body = {"name": name, "shapes": [box(h, h, **({"density": density} if density is not None else {}))]}
    return {"generate": "grid", "rows": n, "columns": 1, "origin": [x, y0 + h], "step": [0, size + gap], "body": body}


def drift(goal=None, collapse=0.5, settle=0, bodies=None, every=1):
    s = {"figure": "drift", "settle": settle, "every": every, "collapse": collapse}
    if bodies:
        s["bodies"] = bodies
    if goal is not None:
        s["goal"] = goal
    return s


# ---------------------------------------------------------------------------- the scenes with goals

def stack10():
    return scene("stack10", "Ten 1 m boxes in a column; figure: largest drift of any box from its start, over 5 s.",
                 [ground(20), column(10)], drift(goal=0.01))


def pyramid(rows, name, duration, every, bodies=None, goal=None, collapse=0.5):
    g = {"generate": "pyramid", "rows": rows, "origin": [-(rows - 1) * 0.5, 0.5], "step": [1.0, 1.0],
         "body": {"name": "box", "shapes": [box(0.5, 0.5)]}}
    return scene(name, f"A {rows}-row pyramid of 1 m boxes; figure: largest drift of "
                 + ("any box" if not bodies else "the top six boxes") + f" from its start, over {duration} s.",
                 [ground(rows + 10), g], drift(goal=goal, collapse=collapse, bodies=bodies, every=every),
                 duration=duration, world={"broadphase": "sap"} if rows > 50 else None)


def pyramid20():
    return pyramid(20, "pyramid20", 10, 1, goal=0.01)


def pyramid100():
    n = 100 * 101 // 2
    top = [f"box[{i}]" for i in range(n - 6, n)]  # the top three rows
    return pyramid(100, "pyramid100", 5, 5, bodies=top, goal=0.1, collapse=2.0)


def card_house():
    # The geometry of demos/scenes/card_house.json (after Box2D's card house
    # sample): cards 0.4 m by 2 mm leaning at +-25 degrees, flat cards on
    # top of each pair, five storeys, friction 0.7. The layout is not at rest
    # (each pair's tops 4.2 mm apart, 2.3 mm gaps above and below each flat
    # card, the bottom cards 1.7 mm into the ground): the top storey drops
    # about 2 cm before the house rests, in any engine, so the figure starts
    # at 0.5 s (docs/stability.md, "The card house's layout").
    bodies = card_house_bodies()
    return scene("card_house", "A five-storey house of 40 cards (2 mm thick, leaning at +-25 degrees, friction 0.7); "
                 "figure: largest drift of any card from where it is at 0.5 s, once the layout has settled (its cards "
                 "start up to 2.3 mm apart and 1.7 mm into the ground: the top storey must drop about 2 cm to rest), "
                 "to 5 s; it collapses when a card ends 5 cm from its start.",
                 bodies, drift(goal=0.01, collapse=0.05, settle=0.5), view={"center": [0.9, 0.9], "height": 2.4})


def arch():
    # The geometry of Box2D's Arch sample (Solver2D's arch): 8 trapezoid
    # stones a side and a keystone between an inner and an outer curve, four
    # 4 m x 1 m boxes on the keystone, friction 0.6. Each stone's origin is at
    # its vertex centroid, so the crown's sag is the keystone's drop.
    ps1 = [(16.0, 0.0), (14.93803712795643, 5.133601056842984), (13.79871746027416, 10.24928069555078),
           (12.56252963284711, 15.34107019122473), (11.20040987372525, 20.39856541571217),
           (9.66521217819836, 25.40369899225096), (7.87179930638133, 30.3179337000085),
           (5.635199558196225, 35.03820717801641), (2.405937953536585, 39.09554102558315)]
    ps2 = [(24.0, 0.0), (22.33619528222415, 6.02299846205841), (20.54936888969905, 12.00964361211476),
           (18.60854610798073, 17.9470321677465), (16.46769273811807, 23.81367936585418),
           (14.05325025774858, 29.57079353071012), (11.23551045834022, 35.13775818285372),
           (7.752568160730571, 40.30450679009583), (3.016931552701656, 44.28891593799322)]
    ps1 = [(0.25 * x, 0.25 * y) for x, y in ps1]
    ps2 = [(0.25 * x, 0.25 * y) for x, y in ps2]

    def stone(name, verts):
        cx, cy = sum(v[0] for v in verts) / 4, sum(v[1] for v in verts) / 4
        return {"name": name, "position": [cx, cy],
                "shapes": [{"type": "polygon", "vertices": [[v[0] - cx, v[1] - cy] for v in verts], "friction": 0.6}]}

    bodies = [{"name": "ground", "type": "static", "position": [0, -0.5], "shapes": [box(100, 0.5, friction=0.6)]}]
    for i in range(8):
        bodies.append(stone(f"right{i}", [ps1[i], ps2[i], ps2[i + 1], ps1[i + 1]]))
    for i in range(8):
        m = lambda p: (-p[0], p[1])
        bodies.append(stone(f"left{i}", [m(ps2[i]), m(ps1[i]), m(ps1[i + 1]), m(ps2[i + 1])]))
    bodies.append(stone("keystone", [ps1[8], ps2[8], (-ps2[8][0], ps2[8][1]), (-ps1[8][0], ps1[8][1])]))
    for i in range(4):
        bodies.append({"name": f"top{i}", "position": [0, 0.5 + ps2[8][1] + 1.0 * i], "shapes": [box(2, 0.5, friction=0.6)]})
    return scene("arch", "Box2D's arch: 17 trapezoid stones (friction 0.6) under four boxes; "
                 "figure: crown sag, the keystone's largest drop below its start, over 10 s.",
                 bodies, {"figure": "sag", "bodies": ["keystone"], "settle": 0, "every": 1, "collapse": 1.0, "goal": 0.05},
                 duration=10, view={"center": [0, 7], "height": 16})


def weld_bowl():
    # Boxes of random sizes and angles (seed 11) dropped from random places
    # that do not overlap (bounding circles apart), 30 rigid welds between
    # random pairs, anchored half way: the welded pairs fight the pile.
    rng = random.Random(11)
    bowl = {"name": "bowl", "type": "static", "position": [0, 0],
            "shapes": [box(6, 0.5, center=[0, -0.5]),
                       box(0.5, 6, center=[-8.5, 4.5], angle=math.radians(-30)),
                       box(0.5, 6, center=[8.5, 4.5], angle=math.radians(30))]}
    bodies, placed = [bowl], []
    while len(placed) < 150:
        hx, hy = rng.uniform(0.2, 0.6), rng.uniform(0.2, 0.6)
        r = math.hypot(hx, hy)
        p = [rng.uniform(-5, 5), rng.uniform(1, 30)]
        if any(math.hypot(p[0] - q[0], p[1] - q[1]) < r + rq for q, rq in placed):
            continue
        placed.append((p, r))
        bodies.append({"name": f"box{len(placed) - 1}", "position": p, "angle": rng.uniform(-math.pi, math.pi),
                       "shapes": [box(hx, hy)]})
    pairs = set()
    while len(pairs) < 30:
        a, b = rng.sample(range(len(placed)), 2)
        pairs.add((min(a, b), max(a, b)))
    pos = [p for p, _ in placed]
    joints = [{"type": "weld", "a": f"box{a}", "b": f"box{b}",
               "anchor": [0.5 * (pos[a][0] + pos[b][0]), 0.5 * (pos[a][1] + pos[b][1])]} for a, b in sorted(pairs)]
    return scene("weld_bowl", "150 boxes of random sizes fall into a bowl, 30 rigid weld joints between random pairs (seed 11); "
                 "figure: peak linear speed of any box over 5 s (goal: never above maxLinearSpeed, 400 m/s; nothing thrown).",
                 bodies, {"figure": "peak_speed", "settle": 0, "every": 1, "goal": 400}, joints=joints,
                 view={"center": [0, 12], "height": 34})


def overlap10():
    return scene("overlap10", "Ten 1 m boxes started overlapping by 0.25 m each; figure: the top box's largest height "
                 "above 9.5 m, where it rests once the column has separated, over 5 s.",
                 [ground(20), column(10, gap=-0.25)],
                 {"figure": "rise", "bodies": ["box[9]"], "level": 9.5, "settle": 0, "every": 1, "goal": 0.5})


def chain_load():
    # Ten 1 m links of 0.1 kg (1 kg of chain) hang from a static anchor and
    # hold a 1 m box of 1e6 kg. Links do not collide with each other.
    top = 20.0
    bodies = [{"name": "anchor", "type": "static", "position": [0, top], "shapes": [circle(0.1)]}]
    joints = []
    for i in range(10):
        bodies.append({"name": f"link{i}", "position": [0, top - 0.5 - i],
                       "shapes": [box(0.05, 0.5, density=1, filter={"group": -1})]})
        joints.append({"type": "revolute", "a": "anchor" if i == 0 else f"link{i - 1}", "b": f"link{i}", "anchor": [0, top - i]})
    bodies.append({"name": "load", "position": [0, top - 10.5], "shapes": [box(0.5, 0.5, density=1e6, filter={"group": -1})]})
    joints.append({"type": "revolute", "a": "link9", "b": "load", "anchor": [0, top - 10]})
    return scene("chain_load", "A 1 kg chain of ten 1 m links holds a 1e6 kg box; figure: largest change of the distance "
                 "from the anchor to the top of the box (10 m at rest) over 5 s; goal 2 % of it.",
                 bodies, {"figure": "stretch", "from": {"body": "anchor", "local": [0, 0]},
                          "to": {"body": "load", "local": [0, 0.5]}, "settle": 0, "every": 1, "goal": 0.2},
                 joints=joints, view={"center": [0, 14], "height": 14})


# ---------------------------------------------------------------------------- classics of Catto's Solver2D study

def tall_stack():
    return scene("tall_stack", "A column of 40 boxes of 1 m; figure: largest drift of any box from its start, over 10 s.",
                 [ground(20), column(40)], drift(collapse=2.0), duration=10)


def mass_ratio(ratio, heavy_on_light):
    n = 5
    bodies = [ground(20)]
    for i in range(n):
        heavy = (i == n - 1) if heavy_on_light else (i == 0)
        bodies.append({"name": f"box{i}", "position": [0, 0.5 + i], "shapes": [box(0.5, 0.5, density=ratio if heavy else 1)]})
    way = "heavy_on_light" if heavy_on_light else "light_on_heavy"
    what = (f"a box {ratio} times as dense on top of four light ones" if heavy_on_light
            else f"four light boxes on one {ratio} times as dense")
    return scene(f"mass_ratio_{way}_{ratio}", f"A column of five 1 m boxes, {what}; figure: largest drift of any box "
                 "from its start, over 5 s.", bodies, drift())


def far_origin():
    x = 10000.0
    g = ground(20)
    g["position"][0] = x
    col = column(10, x=x - 5)
    pyr = {"generate": "pyramid", "rows": 10, "origin": [x, 0.5], "step": [1.0, 1.0],
           "body": {"name": "pbox", "shapes": [box(0.5, 0.5)]}}
    return scene("far_origin", "A 10-box column and a 10-row pyramid 10 km from the origin (where a float's step is ~1 mm); "
                 "figure: largest drift of any box from its start, over 5 s.",
                 [g, col, pyr], drift(), view={"center": [x, 5], "height": 14})


def long_chain_heavy_end():
    n, half = 40, 0.25
    top = 25.0
    bodies = [{"name": "anchor", "type": "static", "position": [0, top], "shapes": [circle(0.1)]},
              {"name": "floor", "type": "static", "position": [0, -0.5], "shapes": [box(30, 0.5)]}]
    joints = []
    for i in range(n):
        bodies.append({"name": f"link{i}", "position": [half + 2 * half * i, top],
                       "shapes": [capsule([-half, 0], [half, 0], 0.1, filter={"group": -1})]})
        joints.append({"type": "revolute", "a": "anchor" if i == 0 else f"link{i - 1}", "b": f"link{i}",
                       "anchor": [2 * half * i, top]})
    end = 2 * half * n
    bodies.append({"name": "ball", "position": [end + 1.0, top], "shapes": [circle(1.0, density=50, filter={"group": -1})]})
    joints.append({"type": "revolute", "a": f"link{n - 1}", "b": "ball", "anchor": [end, top]})
    return scene("long_chain_heavy_end", "A 40-link capsule chain (about 0.3 kg a link) released horizontal with a "
                 "157 kg ball at its end; figure: largest anchor separation of any joint over 10 s.",
                 bodies, {"figure": "joint_error", "settle": 0, "every": 1}, joints=joints, duration=10,
                 view={"center": [0, 14], "height": 30})


def ragdoll_pile():
    bodies = [ground(10)] + walls(3, height=30)
    joints = []
    for k in range(20):
        b, j = ragdoll(f"doll{k}", -1.5 + 1.0 * (k % 4), 2.0 + 2.2 * k, -(k + 1))
        bodies += b
        joints += j
    return scene("ragdoll_pile", "Twenty ragdolls (limited, sprung revolute joints) fall into a 6 m wide pit and pile up; "
                 "figure: largest anchor separation of any joint over 8 s.",
                 bodies, {"figure": "joint_error", "settle": 0, "every": 1}, joints=joints, duration=8,
                 view={"center": [0, 12], "height": 26})


def heavy_on_light():
    # A 20 m box of 400 kg (density 1) dropped from 15 m onto two 1 kg boxes
    # 18 m apart on a segment ground. The scene is symmetric: wherever the
    # heavy box ends sideways is the solver's doing. It rests at 11 m, on the
    # two 1 m boxes; its figure is how far below that it is once the landing
    # is over (from 4 s), and the result's slide how far sideways it ended.
    bodies = [{"name": "ground", "type": "static", "shapes": [{"type": "segment", "p1": [-40, 0], "p2": [40, 0]}]},
              {"name": "left", "position": [-9, 0.5], "shapes": [box(0.5, 0.5)]},
              {"name": "right", "position": [9, 0.5], "shapes": [box(0.5, 0.5)]},
              {"name": "heavy", "position": [0, 26], "shapes": [box(10, 10)]}]
    return scene("heavy_on_light", "A 20 m box of 400 kg dropped from 15 m onto two 1 kg boxes 18 m apart on a segment "
                 "ground; figure: the heavy box's largest depth below its resting height (11 m, on the two boxes) "
                 "from 4 s to 5 s, its sink; the result's slide is how far sideways it ended (goal 0.05 m).",
                 bodies, {"figure": "sag", "bodies": ["heavy"], "level": 11, "settle": 4, "every": 1, "goal": 0.02},
                 view={"center": [0, 12], "height": 30})


def with_iterative_joints(make):
    # The same scene with WorldDef::tuning.enableJointDirectSolve off (the world key
    # joint_direct_solve false): every joint solved by the iterative soft step,
    # to show what solving the joint trees exactly gives (docs/stability.md).
    def variant():
        d = make()
        d["name"] += "_iterative"
        d["description"] += " With every joint iterative (joint_direct_solve false)."
        d["world"]["joint_direct_solve"] = False
        return d
    return variant


def at_8_substeps(make):
    # The same scene at 8 substeps with contacts at 116 Hz, a quarter of the
    # substep rate (the default 4 substeps cap them at 60 Hz, and a soft
    # contact sinks load / (m omega^2)): what the 100-row pyramid and the arch
    # need to reach their goals (docs/stability.md, "Stiffness bought with
    # substeps").
    def variant():
        d = make()
        d["name"] += "_substeps8"
        d["description"] += (" At 8 substeps with contacts at 116 Hz, a quarter of the substep rate"
                             " (the default: 4 substeps, 58 Hz).")
        d["world"]["substeps"] = 8
        d["world"]["contact_hertz"] = 116
        return d
    return variant


SCENES = [stack10, pyramid20, pyramid100, card_house, arch, weld_bowl, overlap10, chain_load, tall_stack,
          lambda: mass_ratio(100, True), lambda: mass_ratio(1000, True), lambda: mass_ratio(100, False),
          lambda: mass_ratio(1000, False), far_origin, long_chain_heavy_end, ragdoll_pile, heavy_on_light,
          with_iterative_joints(chain_load), with_iterative_joints(long_chain_heavy_end), at_8_substeps(pyramid100),
          at_8_substeps(arch)]

if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "stability")
    os.makedirs(out, exist_ok=True)
    for f in SCENES:
        s = f()
        with open(os.path.join(out, s["name"] + ".json"), "w") as fh:
            fh.write(fmt(s) + "\n")
