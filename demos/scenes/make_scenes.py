#!/usr/bin/env python3
"""Writes Carom's bundled scenes (docs/scene-format.md) into this folder.

The JSON files are the product; this script is how they were made, kept so
that a scene can be tuned and rewritten. Usage: make_scenes.py [OUTDIR]
"""
import json, math, os, sys


def fmt(v, indent=0):
    """JSON with short arrays and small objects on one line."""
    pad = "  " * indent
    if isinstance(v, float):
        r = round(v, 6)
        return repr(int(r)) if r == int(r) and abs(r) < 1e15 else repr(r)
    if isinstance(v, (int, bool, str)) or v is None:
        return json.dumps(v)
    flat = json.dumps(v, separators=(", ", ": "))
    if isinstance(v, list) and all(not isinstance(x, (list, dict)) for x in v):
        return "[" + ", ".join(fmt(x) for x in v) + "]"
    if len(flat) < 100 and not (isinstance(v, dict) and any(isinstance(x, list) and x and isinstance(x[0], dict) for x in v.values())):
        if isinstance(v, list):
            return "[" + ", ".join(fmt(x) for x in v) + "]"
        return "{" + ", ".join(json.dumps(k) + ": " + fmt(x) for k, x in v.items()) + "}"
    inner = "  " * (indent + 1)
    if isinstance(v, list):
        return "[\n" + ",\n".join(inner + fmt(x, indent + 1) for x in v) + "\n" + pad + "]"
    return "{\n" + ",\n".join(inner + json.dumps(k) + ": " + fmt(x, indent + 1) for k, x in v.items()) + "\n" + pad + "}"


def box(hx, hy, **kw):
    s = {"type": "box", "half_extents": [hx, hy]}
    s.update(kw)
    return s


def circle(r, **kw):
    s = {"type": "circle", "radius": r}
    s.update(kw)
    return s


def capsule(p1, p2, r, **kw):
    s = {"type": "capsule", "p1": p1, "p2": p2, "radius": r}
    s.update(kw)
    return s


def ground(hx=40.0, y=0.0, **kw):
    return {"name": "ground", "type": "static", "position": [0, y - 0.5], "shapes": [box(hx, 0.5, **kw)]}


def walls(hx, height=10.0, y=0.0):
    """Two static side walls at x = -hx and x = +hx, standing on y."""
    return [{"name": "left_wall", "type": "static", "position": [-hx - 0.5, y + 0.5 * height], "shapes": [box(0.5, 0.5 * height)]},
            {"name": "right_wall", "type": "static", "position": [hx + 0.5, y + 0.5 * height], "shapes": [box(0.5, 0.5 * height)]}]


def scene(name, description, bodies, joints=None, events=None, view=None, world=None, materials=None, duration=10):
    d = {"carom": 1, "name": name, "description": description, "duration": duration}
    if world:
        d["world"] = world
    if materials:
        d["materials"] = materials
    d["bodies"] = bodies
    if joints:
        d["joints"] = joints
    if events:
        d["events"] = events
    if view:
        d["view"] = view
    return d


# ---------------------------------------------------------------------------

def pyramid():
    return scene("pyramid", "A pyramid of 210 boxes with rounded corners, on the sort-and-sweep broadphase.",
                 [ground(30),
                  {"generate": "pyramid", "rows": 20, "origin": [-9.5, 0.5], "step": [1.0, 1.0],
                   "body": {"name": "box", "shapes": [box(0.45, 0.45, radius=0.05)]}}],
                 world={"broadphase": "sap"}, view={"center": [0, 10], "height": 24})


def tall_stack():
    bodies = [ground(20),
              {"generate": "grid", "rows": 25, "columns": 1, "origin": [-3, 0.5], "step": [0, 1.0],
               "body": {"name": "box", "shapes": [box(0.5, 0.5)]}},
              {"generate": "grid", "rows": 15, "columns": 1, "origin": [3, 0.4], "step": [0, 0.8],
               "body": {"name": "puck", "shapes": [box(1.0, 0.4, friction=0.8)]}}]
    return scene("tall_stack", "A 25-box column and a 15-puck column standing still: a test of the solver's stiffness.",
                 bodies, world={"substeps": 8}, view={"center": [0, 12], "height": 28})


def card_house_bodies():
    """Ground and 40 cards 0.4 m by 2 mm leaning at +-25 degrees, flat cards on
    top of each pair, five storeys, friction 0.7 (after Box2D's card house sample)."""
    h, t = 0.2, 0.001
    a0, a1, a2 = math.radians(25), math.radians(-25), 0.5 * math.pi
    bodies = [{"name": "ground", "type": "static", "position": [0, -2], "shapes": [box(40, 2, friction=0.7)]}]
    nb, z0, y = 5, 0.0, h - 0.02
    k = 0
    while nb > 0:
        z = z0
        for i in range(nb):
            if i != nb - 1:
                bodies.append({"name": f"card{k}", "position": [z + 0.25, y + h - 0.015], "angle": a2,
                               "shapes": [box(t, h, friction=0.7)]}); k += 1
            bodies.append({"name": f"card{k}", "position": [z, y], "angle": a1, "shapes": [box(t, h, friction=0.7)]}); k += 1
            z += 0.175
            bodies.append({"name": f"card{k}", "position": [z, y], "angle": a0, "shapes": [box(t, h, friction=0.7)]}); k += 1
            z += 0.175
        y += 2 * h - 0.03
        z0 += 0.175
        nb -= 1
    return bodies


def card_house():
    bodies = card_house_bodies()
    return scene("card_house", "A five-storey house of 40 playing cards held up by friction alone (after Box2D's sample).",
                 bodies, world={"substeps": 8}, view={"center": [0.9, 0.9], "height": 2.4})


def arch():
    r1, r2, n = 4.0, 5.0, 13
    bodies = [ground(20, friction=0.8)]
    for i in range(n):
        t0, t1 = math.pi * i / n, math.pi * (i + 1) / n
        verts = [[r1 * math.cos(t0), r1 * math.sin(t0)], [r2 * math.cos(t0), r2 * math.sin(t0)],
                 [r2 * math.cos(t1), r2 * math.sin(t1)], [r1 * math.cos(t1), r1 * math.sin(t1)]]
        bodies.append({"name": f"stone{i}", "shapes": [{"type": "polygon", "vertices": verts, "friction": 0.8}]})
    bodies.append({"name": "load", "position": [0, 5.6], "shapes": [box(1.0, 0.5)]})
    return scene("arch", "Thirteen wedge stones form a semicircular arch that holds a load by friction and compression.",
                 bodies, world={"substeps": 8}, view={"center": [0, 3.5], "height": 10})


def dominoes():
    bodies = [ground(30)]
    bodies.append({"generate": "grid", "rows": 1, "columns": 40, "origin": [-16, 1.0], "step": [0.8, 0],
                   "body": {"name": "domino", "shapes": [box(0.08, 1.0, friction=0.5)]}})
    bodies.append({"name": "ball", "position": [16.6, 0.5], "shapes": [circle(0.5, density=3)]})
    events = [{"time": 0.5, "action": "impulse", "body": "domino[0]", "impulse": [0.6, 0], "point": [-16, 1.9]}]
    return scene("dominoes", "Forty dominoes; an impulse at t = 0.5 s tips the first, and the last knocks a ball.",
                 bodies, events=events, view={"center": [1, 3], "height": 14})


def friction_ramp():
    bodies = [ground(40)]
    for k, (x, y, a, hx) in enumerate([(-4, 22, -0.25, 13), (10.5, 19, 0.0, 0.25), (4, 14, 0.25, 13),
                                       (-10.5, 11, 0.0, 0.25), (-4, 6, -0.25, 13)]):
        bodies.append({"name": f"ramp{k}", "type": "static", "position": [x, y], "angle": a, "shapes": [box(hx, 0.25)]})
    for k, f in enumerate([0.75, 0.5, 0.35, 0.1, 0.0]):
        bodies.append({"name": f"slider_mu{f}", "position": [-15 + 4 * k, 28],
                       "shapes": [box(0.5, 0.5, friction=f, density=25)]})
    bodies.append({"name": "roller", "position": [-17, 30], "shapes": [circle(0.5, rolling_resistance=0.2, friction=0.6)]})
    return scene("friction_ramp", "Five boxes with friction 0.75 to 0 slide down zig-zag ramps; the grippy ones stop early. A ball with rolling resistance rolls after them.",
                 bodies, view={"center": [0, 15], "height": 34})


def restitution():
    bodies = [ground(20)]
    rs = [0.0, 0.1, 0.3, 0.5, 0.75, 0.9, 1.0]
    for k, e in enumerate(rs):
        bodies.append({"name": f"ball_e{e}", "position": [-9 + 3 * k, 10], "shapes": [circle(0.5, restitution=e)]})
        bodies.append({"name": f"box_e{e}", "position": [-9 + 3 * k, 14], "shapes": [box(0.4, 0.4, restitution=e)],
                       "fixed_rotation": True})
    return scene("restitution", "Balls and boxes with restitution 0 to 1 dropped side by side: each bounces back to its own height.",
                 bodies, view={"center": [0, 7], "height": 16})


def newtons_cradle():
    r, length, n = 0.5, 5.0, 5
    top = 8.0
    bodies = [{"name": "frame", "type": "static", "position": [0, top], "shapes": [box(4, 0.1)]},
              {"name": "floor", "type": "static", "position": [0, -0.5], "shapes": [box(10, 0.5)]}]
    joints = []
    x0 = -(n - 1) * r
    for i in range(n):
        x = x0 + 2 * r * i
        pos = [x, top - length]
        if i == 0:
            a = math.radians(50)
            pos = [x - length * math.sin(a), top - length * math.cos(a)]
        bodies.append({"name": f"ball{i}", "position": pos, "allow_sleep": False,
                       "shapes": [circle(r, restitution=1.0, friction=0.0, density=4)]})
        joints.append({"type": "distance", "a": "frame", "b": f"ball{i}", "anchor_a": [x, top], "anchor_b": pos})
    return scene("newtons_cradle", "Five steel balls on distance joints: the first swings in, the last swings out.",
                 bodies, joints, view={"center": [0, 4.5], "height": 10}, world={"substeps": 8, "sleep": False})


def bridge():
    n, hx = 40, 0.5
    bodies = [ground(30, y=-6)]
    bodies.append({"name": "left_post", "type": "static", "position": [-n * hx - 0.5, 0], "shapes": [box(0.5, 6)]})
    bodies.append({"name": "right_post", "type": "static", "position": [n * hx + 0.5, 0], "shapes": [box(0.5, 6)]})
    joints = []
    x0 = -n * hx
    for i in range(n):
        bodies.append({"name": f"plank{i}", "position": [x0 + hx + 2 * hx * i, 5.875],
                       "shapes": [box(hx, 0.125, density=20, friction=0.6)]})
    joints.append({"type": "revolute", "a": "left_post", "b": "plank0", "anchor": [x0, 5.875]})
    for i in range(1, n):
        joints.append({"type": "revolute", "a": f"plank{i-1}", "b": f"plank{i}", "anchor": [x0 + 2 * hx * i, 5.875]})
    joints.append({"type": "revolute", "a": f"plank{n-1}", "b": "right_post", "anchor": [n * hx, 5.875]})
    bodies.append({"generate": "grid", "rows": 2, "columns": 6, "origin": [-12, 9], "step": [4.5, 2],
                   "body": {"name": "crate", "shapes": [box(0.5, 0.5, density=2)]}})
    bodies.append({"generate": "grid", "rows": 1, "columns": 5, "origin": [-9, 13], "step": [4.5, 0],
                   "body": {"name": "barrel", "shapes": [circle(0.6)]}})
    return scene("bridge", "A 40-plank rope bridge of revolute joints sags under falling crates and barrels.",
                 bodies, joints, view={"center": [0, 4], "height": 26})


def chain_heavy_ball():
    n, half = 30, 0.25
    bodies = [{"name": "anchor", "type": "static", "position": [0, 20], "shapes": [circle(0.2)]},
              {"name": "floor", "type": "static", "position": [0, -0.5], "shapes": [box(30, 0.5)]}] + walls(30, height=24)
    joints = []
    for i in range(n):
        bodies.append({"name": f"link{i}", "position": [half + 2 * half * i, 20],
                       "shapes": [capsule([-half, 0], [half, 0], 0.1, density=20, filter={"group": -1})]})
        joints.append({"type": "revolute", "a": "anchor" if i == 0 else f"link{i-1}", "b": f"link{i}",
                       "anchor": [2 * half * i, 20]})
    end = 2 * half * n
    bodies.append({"name": "ball", "position": [end + 1.5, 20], "shapes": [circle(1.5, density=20, filter={"group": -1})]})
    joints.append({"type": "revolute", "a": f"link{n-1}", "b": "ball", "anchor": [end, 20]})
    bodies.append({"generate": "pyramid", "rows": 6, "origin": [-6, 0.5], "step": [1.05, 1.0],
                   "body": {"name": "target", "shapes": [box(0.5, 0.5)]}})
    return scene("chain_heavy_ball", "A 30-link capsule chain with a heavy wrecking ball swings down into a pyramid.",
                 bodies, joints, world={"substeps": 8}, view={"center": [0, 10], "height": 36})


def ragdoll(prefix, x, y, group):
    f = {"group": group}
    parts = {
        "head": ([x, y + 1.55], circle(0.22, filter=f)),
        "torso": ([x, y + 0.95], capsule([0, -0.3], [0, 0.3], 0.2, filter=f)),
        "upper_arm_l": ([x - 0.35, y + 1.05], capsule([0, -0.18], [0, 0.18], 0.08, filter=f)),
        "lower_arm_l": ([x - 0.35, y + 0.65], capsule([0, -0.18], [0, 0.18], 0.07, filter=f)),
        "upper_arm_r": ([x + 0.35, y + 1.05], capsule([0, -0.18], [0, 0.18], 0.08, filter=f)),
        "lower_arm_r": ([x + 0.35, y + 0.65], capsule([0, -0.18], [0, 0.18], 0.07, filter=f)),
        "thigh_l": ([x - 0.12, y + 0.25], capsule([0, -0.2], [0, 0.2], 0.1, filter=f)),
        "shin_l": ([x - 0.12, y - 0.3], capsule([0, -0.2], [0, 0.2], 0.09, filter=f)),
        "thigh_r": ([x + 0.12, y + 0.25], capsule([0, -0.2], [0, 0.2], 0.1, filter=f)),
        "shin_r": ([x + 0.12, y - 0.3], capsule([0, -0.2], [0, 0.2], 0.09, filter=f)),
    }
    bodies = [{"name": f"{prefix}.{k}", "position": p, "shapes": [s]} for k, (p, s) in parts.items()]
    def rj(a, b, anchor, lo, hi):
        return {"type": "revolute", "a": f"{prefix}.{a}", "b": f"{prefix}.{b}", "anchor": anchor,
                "limit": {"lower": math.radians(lo), "upper": math.radians(hi)}, "spring": {"hertz": 0.5, "damping_ratio": 0.5}}
    joints = [rj("torso", "head", [x, y + 1.33], -40, 40),
              rj("torso", "upper_arm_l", [x - 0.3, y + 1.22], -150, 30),
              rj("upper_arm_l", "lower_arm_l", [x - 0.35, y + 0.85], -10, 140),
              rj("torso", "upper_arm_r", [x + 0.3, y + 1.22], -30, 150),
              rj("upper_arm_r", "lower_arm_r", [x + 0.35, y + 0.85], -140, 10),
              rj("torso", "thigh_l", [x - 0.12, y + 0.5], -60, 90),
              rj("thigh_l", "shin_l", [x - 0.12, y - 0.03], -120, 0),
              rj("torso", "thigh_r", [x + 0.12, y + 0.5], -90, 60),
              rj("thigh_r", "shin_r", [x + 0.12, y - 0.03], -120, 0)]
    return bodies, joints


def ragdolls():
    bodies = [ground(30)]
    for k in range(8):
        bodies.append({"name": f"step{k}", "type": "static", "position": [-10 + 2.5 * k, 7 - k],
                       "shapes": [box(1.25, 0.25)]})
    joints = []
    for k in range(6):
        b, j = ragdoll(f"doll{k}", -10 + 1.2 * k, 9 + 2.5 * k, -(k + 1))
        bodies += b
        joints += j
    return scene("ragdolls", "Six ragdolls (capsule limbs, limited and sprung revolute joints, each in its own negative group) tumble down a staircase.",
                 bodies, joints, view={"center": [-1, 8], "height": 22})


def car():
    # Terrain as a chain listed right to left, so that its solid side is below.
    pts = []
    x = -40.0
    xs = []
    while x <= 160.0:
        xs.append(x)
        x += 2.0
    for x in xs:
        if x < 0:
            y = 0.0
        elif x < 40:
            y = 1.5 * math.sin(x * 0.25) + 0.02 * x
        elif x < 60:
            y = 0.8 + 0.15 * (x - 40)
        elif x < 80:
            y = 3.8 - 0.15 * (x - 60)
        else:
            y = 0.8 + 0.6 * math.sin(x * 0.7)
        pts.append([x, round(y, 4)])
    pts.reverse()
    bodies = [{"name": "terrain", "type": "static", "shapes": [{"type": "chain", "points": pts, "friction": 0.9}]}]
    cx, cy = -30.0, 1.6
    chassis = [[-1.5, -0.5], [1.5, -0.5], [1.5, 0.0], [0.0, 0.9], [-1.15, 0.9], [-1.5, 0.2]]
    bodies.append({"name": "chassis", "position": [cx, cy], "shapes": [{"type": "polygon", "vertices": chassis, "density": 2}]})
    bodies.append({"name": "rear_wheel", "position": [cx - 1.0, cy - 0.65], "shapes": [circle(0.4, density=2, friction=1.2)]})
    bodies.append({"name": "front_wheel", "position": [cx + 1.0, cy - 0.65], "shapes": [circle(0.4, density=2, friction=1.2)]})
    spring = {"hertz": 5, "damping_ratio": 0.7}
    joints = [{"type": "wheel", "a": "chassis", "b": "rear_wheel", "anchor": [cx - 1.0, cy - 0.65], "axis": [0, 1],
               "spring": spring, "limit": {"lower": -0.25, "upper": 0.25}, "motor": {"speed": -15, "max_torque": 25}},
              {"type": "wheel", "a": "chassis", "b": "front_wheel", "anchor": [cx + 1.0, cy - 0.65], "axis": [0, 1],
               "spring": spring, "limit": {"lower": -0.25, "upper": 0.25}}]
    bodies.append({"generate": "grid", "rows": 1, "columns": 8, "origin": [20, 4], "step": [1.5, 0],
                   "body": {"name": "crate", "shapes": [box(0.3, 0.3, density=0.5)]}})
    return scene("car", "A car on sprung wheel joints, rear-wheel drive by a motor, over a chain terrain of hills and ramps.",
                 bodies, joints, duration=20, view={"center": [-15, 3], "height": 24})


def bullets():
    bodies = [ground(40)] + walls(25, height=12)
    bodies.append({"name": "ceiling", "type": "static", "position": [0, 12.5], "shapes": [box(26, 0.5)]})
    for k in range(5):
        bodies.append({"name": f"wall{k}", "type": "static", "position": [10 + 3 * k, 4],
                       "shapes": [{"type": "segment", "p1": [0, -3.5], "p2": [0, 3.5]}] if k % 2 == 0 else [box(0.03, 3.5)]})
    bodies.append({"name": "plate", "position": [5, 2.6], "shapes": [box(0.05, 2.5, density=4)]})
    for k in range(6):
        bodies.append({"name": f"bullet{k}", "position": [-20, 1 + k], "bullet": True, "gravity_scale": 0.1,
                       "linear_velocity": [150 + 40 * k, 0], "shapes": [circle(0.08, density=40, restitution=0.2)]})
    bodies.append({"name": "slow_ball", "position": [-20, 7.5], "linear_velocity": [60, 0], "shapes": [circle(0.1)]})
    return scene("bullets", "Bullets at 150-350 m/s against a thin dynamic plate and thin static walls (segments and 6 cm boxes): continuous collision keeps them out.",
                 bodies, view={"center": [0, 4], "height": 14}, duration=5)


def tumbler():
    walls = [box(0.5, 8, center=[8, 0], density=50), box(0.5, 8, center=[-8, 0], density=50),
             box(8, 0.5, center=[0, 8], density=50), box(8, 0.5, center=[0, -8], density=50)]
    bodies = [{"name": "hub", "type": "static", "position": [0, 10], "shapes": []},
              {"name": "drum", "position": [0, 10], "allow_sleep": False, "shapes": walls}]
    kinds = [box(0.3, 0.3), circle(0.3), capsule([-0.25, 0], [0.25, 0], 0.2),
             {"type": "polygon", "vertices": [[-0.35, -0.3], [0.35, -0.3], [0, 0.35]]}]
    for k, s in enumerate(kinds):
        bodies.append({"generate": "grid", "rows": 6, "columns": 12, "origin": [-6.6 + 0.3 * k, 4 + 1.4 * k], "step": [1.2, 0.9],
                       "body": {"name": f"piece{k}", "shapes": [s]}})
    joints = [{"type": "revolute", "a": "hub", "b": "drum", "anchor": [0, 10],
               "motor": {"speed": math.radians(30), "max_torque": 1e8}}]
    return scene("tumbler", "A motor turns a drum full of 288 boxes, discs, capsules and triangles.",
                 bodies, joints, world={"threads": 2}, view={"center": [0, 10], "height": 20}, duration=15)


def sensors_filtering():
    # Categories: 1 world, 2 red, 4 blue. The red shelf collides only with red
    # bodies, the blue shelf only with blue; a sensor box counts what falls through.
    bodies = [ground(20)] + walls(20, height=4)
    bodies.append({"name": "red_shelf", "type": "static", "position": [-4, 8], "angle": -0.15,
                   "shapes": [box(5, 0.2, filter={"category": 1, "mask": 2})]})
    bodies.append({"name": "blue_shelf", "type": "static", "position": [4, 4], "angle": 0.15,
                   "shapes": [box(5, 0.2, filter={"category": 1, "mask": 4})]})
    bodies.append({"name": "counter", "type": "static", "position": [0, 1.5], "shapes": [box(8, 1.5, sensor=True)]})
    bodies.append({"generate": "grid", "rows": 4, "columns": 6, "origin": [-7, 12], "step": [1.2, 1.2],
                   "body": {"name": "red", "shapes": [circle(0.35, filter={"category": 2, "mask": 3})]}})
    bodies.append({"generate": "grid", "rows": 4, "columns": 6, "origin": [-6.4, 12.6], "step": [1.2, 1.2],
                   "body": {"name": "blue", "shapes": [box(0.3, 0.3, filter={"category": 4, "mask": 5})]}})
    bodies.append({"generate": "grid", "rows": 2, "columns": 6, "origin": [-3, 18], "step": [1.1, 1.1],
                   "body": {"name": "ghost", "shapes": [circle(0.3, filter={"group": -7})]}})
    bodies.append({"name": "ghost_catcher", "type": "static", "position": [0, 16], "shapes": [box(4, 0.1, filter={"group": -7})]})
    return scene("sensors_filtering",
                 "Red balls land on the red shelf, blue boxes pass it and land on the blue one (category/mask bits); grey ghosts share a negative group with a bar and fall through it; a sensor box over the floor reports who enters.",
                 bodies, view={"center": [0, 9], "height": 22})


def one_way():
    bodies = [ground(20)]
    for k, (x, y) in enumerate([(-5, 3), (0, 6), (5, 9)]):
        bodies.append({"name": f"platform{k}", "type": "static", "position": [x, y],
                       "shapes": [box(2.5, 0.15, one_way=True)]})
    for k in range(9):
        bodies.append({"name": f"jumper{k}", "position": [-6.5 + 1.5 * k, 0.5],
                       "linear_velocity": [0, 9 + (k % 3) * 2.5], "shapes": [circle(0.4)] if k % 2 else [box(0.35, 0.35)]})
    events = [{"time": 3, "action": "set_velocity", "body": f"jumper{k}", "linear_velocity": [0, 13]} for k in (0, 4, 8)]
    return scene("one_way", "Bodies jump up through one-way platforms and land on top of them (project key one_way, a pre-solve callback).",
                 bodies, events=events, view={"center": [0, 5.5], "height": 14}, duration=8)


def spawn_events():
    bodies = [ground(20),
              {"name": "funnel_l", "type": "static", "position": [-4, 8], "angle": -0.6, "shapes": [box(3, 0.15)]},
              {"name": "funnel_r", "type": "static", "position": [4, 8], "angle": 0.6, "shapes": [box(3, 0.15)]},
              {"name": "gate", "type": "static", "position": [0, 6.2], "shapes": [box(1.6, 0.15)]},
              {"name": "hook", "type": "static", "position": [8, 14], "shapes": [circle(0.15)]}]
    events = []
    t = 0.25
    for k in range(16):
        shape = [box(0.35, 0.35)] if k % 3 == 0 else ([circle(0.35)] if k % 3 == 1 else [capsule([-0.3, 0], [0.3, 0], 0.2)])
        events.append({"time": round(t, 3), "action": "spawn",
                       "bodies": [{"name": f"drop{k}", "position": [-2 + (k % 5), 14], "angle": 0.3 * k, "shapes": shape}]})
        t += 0.25
    events.append({"time": 2.5, "action": "spawn",
                   "bodies": [{"generate": "grid", "rows": 2, "columns": 3, "origin": [-1.5, 16], "step": [1.2, 1.2],
                               "body": {"name": "rain", "shapes": [circle(0.25, restitution=0.5)]}}]})
    events.append({"time": 3, "action": "spawn",
                   "bodies": [{"name": "pendulum", "position": [11, 14], "shapes": [circle(0.6, density=5)]}],
                   "joints": [{"type": "revolute", "a": "hook", "b": "pendulum", "anchor": [8, 14]}]})
    events.append({"time": 4.5, "action": "destroy", "body": "gate"})
    events.append({"time": 6, "action": "impulse", "body": "pendulum", "impulse": [-40, 0]})
    events.append({"time": 7, "action": "gravity", "gravity": [4, -10]})
    events.append({"time": 9, "action": "gravity", "gravity": [0, -10]})
    events.append({"time": 9.5, "action": "destroy", "body": "drop0"})
    return scene("spawn_events", "An event script: bodies spawn into a funnel, a pendulum appears on its hook, the gate is destroyed, gravity tilts and comes back.",
                 bodies, events=events, view={"center": [2, 8], "height": 18}, duration=12)


def joints_showcase():
    bodies = [ground(30)]
    joints = []
    # Prismatic elevator with a motor and limits.
    bodies.append({"name": "rail", "type": "static", "position": [-12, 1], "shapes": [box(0.1, 0.1)]})
    bodies.append({"name": "lift", "position": [-12, 1], "shapes": [box(1.2, 0.15, density=2)]})
    joints.append({"type": "prismatic", "a": "rail", "b": "lift", "anchor": [-12, 1], "axis": [0, 1],
                   "limit": {"lower": 0, "upper": 6}, "motor": {"speed": 1.5, "max_force": 400}})
    bodies.append({"name": "rider", "position": [-12, 1.65], "shapes": [box(0.5, 0.5)]})
    # Soft weld: a springy diving board.
    bodies.append({"name": "wall", "type": "static", "position": [-6, 4], "shapes": [box(0.3, 4)]})
    bodies.append({"name": "board", "position": [-4.2, 7.9], "shapes": [box(1.5, 0.1)]})
    joints.append({"type": "weld", "a": "wall", "b": "board", "anchor": [-5.7, 7.9], "angular_hertz": 2.0,
                   "angular_damping_ratio": 0.1, "linear_hertz": 0})
    bodies.append({"name": "diver", "position": [-3.2, 10], "shapes": [circle(0.35, density=3)]})
    # Revolute with a spring: a sprung lever.
    bodies.append({"name": "pivot", "type": "static", "position": [0, 3], "shapes": [circle(0.1)]})
    bodies.append({"name": "lever", "position": [0, 3], "angle": 0.6, "shapes": [box(2, 0.1)]})
    joints.append({"type": "revolute", "a": "pivot", "b": "lever", "anchor": [0, 3], "spring": {"hertz": 1.5, "damping_ratio": 0.05}})
    # Distance joints: a spring, and a rope with min/max lengths.
    bodies.append({"name": "ceiling", "type": "static", "position": [6, 10], "shapes": [box(3, 0.1)]})
    bodies.append({"name": "bob", "position": [4.5, 6], "shapes": [box(0.4, 0.4)]})
    joints.append({"type": "distance", "a": "ceiling", "b": "bob", "anchor_a": [4.5, 9.9], "anchor_b": [4.5, 6.4],
                   "spring": {"hertz": 1.0, "damping_ratio": 0.1}})
    bodies.append({"name": "yoyo", "position": [7.5, 7], "shapes": [circle(0.4)]})
    joints.append({"type": "distance", "a": "ceiling", "b": "yoyo", "anchor_a": [7.5, 9.9], "anchor_b": [7.5, 7],
                   "length": 3, "min_length": 1.5, "max_length": 4, "spring": {"hertz": 0.8, "damping_ratio": 0.2}})
    # Motor joint: a block that keeps an offset from a kinematic cart.
    bodies.append({"name": "cart", "type": "kinematic", "position": [12, 1], "linear_velocity": [0, 0], "angular_velocity": 0.8,
                   "shapes": [box(0.4, 0.4, sensor=True)]})
    bodies.append({"name": "follower", "position": [12, 3], "gravity_scale": 0, "shapes": [box(0.5, 0.25)]})
    joints.append({"type": "motor", "a": "cart", "b": "follower", "linear_offset": [0, 2.5], "angular_offset": 0,
                   "max_force": 500, "max_torque": 100, "correction_factor": 0.3})
    return scene("joints", "Every joint type: a prismatic lift with a motor and limits, a soft weld diving board, a sprung revolute lever, distance springs and a limited rope, and a motor joint following a spinning kinematic cart.",
                 bodies, joints, view={"center": [0, 5], "height": 16}, duration=12)


def default():
    bodies = [ground(30)] + walls(30, height=6)
    bodies.append({"generate": "pyramid", "rows": 8, "origin": [-12, 0.5], "step": [1.0, 1.0],
                   "body": {"name": "box", "shapes": [box(0.5, 0.5, material="wood")]}})
    bodies.append({"name": "ramp", "type": "static", "position": [8, 5], "angle": 0.45, "shapes": [box(6, 0.2, material="ice")]})
    bodies.append({"name": "sled", "position": [11.5, 8.8], "angle": 0.45, "shapes": [box(0.6, 0.3, material="ice")]})
    bodies.append({"name": "wheel", "position": [12.5, 9.6], "shapes": [circle(0.5, material="rubber")]})
    bodies.append({"name": "paddle", "type": "kinematic", "position": [1, 3], "angular_velocity": 1.5,
                   "shapes": [box(2, 0.15)]})
    bodies.append({"name": "balloon", "position": [-2, 1], "gravity_scale": -0.3, "linear_damping": 0.5,
                   "shapes": [circle(0.6, density=0.2)]})
    bodies.append({"name": "pin", "type": "static", "position": [-4, 10], "shapes": [circle(0.1)]})
    bodies.append({"name": "pendulum", "position": [0, 10], "shapes": [capsule([-0.3, 0], [0.3, 0], 0.3, density=3)]})
    bodies.append({"generate": "grid", "rows": 3, "columns": 4, "origin": [-1, 12], "step": [1.0, 1.0],
                   "body": {"name": "drop", "shapes": [{"type": "polygon", "vertices": [[-0.4, -0.3], [0.4, -0.3], [0.5, 0.1], [0, 0.4], [-0.5, 0.1]], "material": "rubber"}]}})
    joints = [{"type": "revolute", "a": "pin", "b": "pendulum", "anchor": [-4, 10]}]
    events = [{"time": 5, "action": "impulse", "body": "box[35]", "impulse": [-2.5, 1]}]
    materials = {"wood": {"density": 0.8, "friction": 0.6}, "ice": {"friction": 0.02},
                 "rubber": {"density": 1.2, "friction": 0.9, "restitution": 0.6}}
    return scene("default", "Carom's default scene: a pyramid, an icy ramp, a kinematic paddle, a balloon, a pendulum and a shower of bouncy polygons.",
                 bodies, joints, events, materials=materials, view={"center": [0, 6], "height": 18}, duration=12)


def tiles():
    """A level of separate tiles (WorldDef::joinTileSeams): segment tiles, a
    slope of two-point chains, a plateau of two chains end to end, a descent
    of segments; boxes, a wheel and a capsule cross every seam without a bump."""
    bodies = []
    def seg_tile(name, a, b):
        cx, cy = 0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1])
        bodies.append({"name": name, "type": "static", "position": [cx, cy],
                       "shapes": [{"type": "segment", "p1": [a[0] - cx, a[1] - cy], "p2": [b[0] - cx, b[1] - cy],
                                   "material": "ice"}]})
    def chain_tile(name, points):  # listed right to left: the top collides
        bodies.append({"name": name, "type": "static", "shapes": [{"type": "chain", "points": points, "material": "ice"}]})
    for i in range(40):  # flat run of segments, every other one written right to left
        a, b = [-20 + 0.5 * i, 0.0], [-19.5 + 0.5 * i, 0.0]
        seg_tile(f"flat{i}", a if i % 2 == 0 else b, b if i % 2 == 0 else a)
    for i in range(12):  # a slope of two-point chains, 0.1 m up per tile
        chain_tile(f"slope{i}", [[0.5 * (i + 1), 0.1 * (i + 1)], [0.5 * i, 0.1 * i]])
    for k in range(2):  # a plateau: two chains meeting end to end
        chain_tile(f"plateau{k}", [[6 + 5 * k + 0.5 * (10 - j), 1.2] for j in range(11)])
    for i in range(12):  # down again on segments
        seg_tile(f"descent{i}", [16 + 0.5 * i, 1.2 - 0.1 * i], [16.5 + 0.5 * i, 1.1 - 0.1 * i])
    for i in range(16):
        seg_tile(f"run{i}", [22 + 0.5 * i, 0.0], [22.5 + 0.5 * i, 0.0])
    bodies.append({"name": "end_wall", "type": "static", "position": [30.5, 1], "shapes": [box(0.5, 1)]})
    bodies.append({"name": "box0", "position": [-18.5, 0.3], "linear_velocity": [8, 0], "shapes": [box(0.3, 0.3, material="ice")]})
    bodies.append({"name": "box1", "position": [-16, 0.25], "linear_velocity": [8, 0], "shapes": [box(0.5, 0.25, material="ice")]})
    bodies.append({"name": "capsule", "position": [-13.5, 0.2], "linear_velocity": [8, 0],
                   "shapes": [capsule([-0.4, 0], [0.4, 0], 0.2, material="ice")]})
    bodies.append({"name": "wheel", "position": [-11, 0.4], "linear_velocity": [8, 0], "angular_velocity": -20,
                   "shapes": [circle(0.4, material="rubber")]})
    return scene("tiles", "A level built from 82 separate tiles (segments, two-point chains, two chains end to end): boxes, a wheel and a capsule slide and roll over every seam without a bump or a snag (WorldDef::joinTileSeams; world key tile_seams false shows the old bumps).",
                 bodies, materials={"ice": {"friction": 0.05}, "rubber": {"friction": 1.0}}, view={"center": [5, 2], "height": 16},
                 duration=8)


SCENES = [default, pyramid, tall_stack, card_house, arch, dominoes, friction_ramp, restitution, newtons_cradle, bridge,
          chain_heavy_ball, ragdolls, car, bullets, tumbler, sensors_filtering, one_way, spawn_events, joints_showcase,
          tiles]

FILES = {joints_showcase: "joints"}

if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for f in SCENES:
        name = FILES.get(f, f.__name__)
        with open(os.path.join(out, name + ".json"), "w") as fh:
            fh.write(fmt(f()) + "\n")
