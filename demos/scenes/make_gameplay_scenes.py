#!/usr/bin/env python3
"""Writes the gameplay demo scenes (issue 14) into this folder:

  platformer.json   a character (project key `character`) on slopes, one-way
                    platforms, two moving platforms (`path`) and boxes to push
  explosion.json    a scripted explosion (project action `explode`) in a wall of boxes
  bullet_duel.json  bullets fired at each other
  wind.json         leaves gliding, balloons and crates in a steady wind (shape key `wind`)

Usage: make_gameplay_scenes.py [OUTDIR]. The JSON files are the product; this
script is how they were made (make_scenes.py writes the other demos).
"""
import math
import os
import sys

sys.dont_write_bytecode = True  # importing make_scenes must not leave a __pycache__ among the scenes
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_scenes import box, circle, fmt, scene  # noqa: E402

T30 = math.tan(math.radians(30))
T60 = math.tan(math.radians(60))


def platformer():
    # Ground (left to right): flat floor, a 30-degree ramp up to a plateau
    # that ends in a wall, flat floor under the moving platforms, a
    # 60-degree hill face (too steep to walk: the character slides down it),
    # walls at both ends.
    ramp = {"type": "polygon", "vertices": [[-8, 0], [1, 0], [1, 5 * T30], [-3, 5 * T30]]}
    hill = {"type": "polygon", "vertices": [[14, 0], [20, 0], [20, 2 * T60], [16, 2 * T60]]}
    bodies = [{"name": "ground", "type": "static", "shapes": [
        box(20, 0.5, center=[0, -0.5]), ramp, hill,
        box(0.5, 6, center=[-20.5, 6]), box(0.5, 6, center=[20.5, 6])]}]
    # One-way platforms: jump up through them and land on top.
    for k, (x, y, hx) in enumerate([(-13, 1.65, 1.5), (-1, 4.55, 1.5), (17.5, 6.8, 1.5)]):
        bodies.append({"name": f"ledge{k}", "type": "static", "position": [x, y],
                       "shapes": [box(hx, 0.15, one_way=True)]})
    # Moving platforms: a ferry across the low floor and an elevator by the hill.
    bodies.append({"name": "ferry", "path": {"points": [[3, 2], [8.5, 2]], "speed": 2},
                   "shapes": [box(1.5, 0.15)]})
    bodies.append({"name": "elevator", "path": {"points": [[11.5, 0.3], [11.5, 5.5]], "speed": 1.5},
                   "shapes": [box(1, 0.15)]})
    bodies.append({"name": "rider", "position": [10.85, 0.76], "shapes": [box(0.3, 0.3, density=0.5)]})
    # Boxes to push.
    bodies.append({"name": "crate0", "position": [5, 0.5], "shapes": [box(0.5, 0.5, density=0.5)]})
    bodies.append({"name": "crate1", "position": [7.5, 0.4], "shapes": [box(0.4, 0.4, density=0.5)]})
    bodies.append({"name": "crate2", "position": [-1.5, 5 * T30 + 0.35], "shapes": [box(0.35, 0.35, density=0.5)]})
    bodies.append({"name": "hero", "position": [-18, 0.71],
                   "character": {"radius": 0.3, "height": 1.4, "run_speed": 6, "jump_speed": 11, "gravity": 25,
                                 "max_slope": round(math.radians(50), 6), "step_height": 0.3, "push_force": 400}})
    return scene("platformer",
                 "A character (in the sandbox: arrows or A/D run, Space, W or Up jump) on a 30-degree ramp it walks up, "
                 "a 60-degree hill it slides down, one-way ledges, a ferry and an elevator on paths, and boxes to push.",
                 bodies, view={"center": [0, 5.5], "height": 23}, duration=10)


def explosion():
    bodies = [{"name": "ground", "type": "static", "position": [0, -0.5], "shapes": [box(30, 0.5)]}]
    bodies.append({"generate": "grid", "rows": 10, "columns": 6, "origin": [-2.5, 0.5], "step": [1.0, 1.0],
                   "body": {"name": "brick", "shapes": [box(0.5, 0.5, density=0.5)]}})
    bodies.append({"name": "barrel", "position": [-6, 0.6], "shapes": [circle(0.6)]})
    events = [{"time": 1.5, "action": "explode", "position": [-0.5, 2.2], "radius": 1.5, "falloff": 4,
               "impulse": 8},
              {"time": 4, "action": "explode", "position": [-7.5, 0.2], "radius": 1, "falloff": 2, "impulse": 12}]
    return scene("explosion",
                 "A wall of bricks blown apart by a scripted explosion (project event action explode: World::explode), "
                 "then a second blast under a barrel.",
                 bodies, events=events, view={"center": [0, 6], "height": 16}, duration=8)


def bullet_duel():
    bodies = [{"name": "ground", "type": "static", "position": [0, -0.5], "shapes": [box(30, 0.5)]}]
    # Pairs of bullets fired at each other: at 200-400 m/s they close more
    # than 6 m a step, far more than their size, so without bullet-against-
    # bullet time of impact they would pass through each other.
    for k in range(3):
        y = 2 + 2 * k
        speed = 200 + 100 * k
        bodies.append({"name": f"red{k}", "position": [-12, y], "bullet": True, "gravity_scale": 0,
                       "linear_velocity": [speed, 0], "shapes": [circle(0.1, density=20)]})
        bodies.append({"name": f"blue{k}", "position": [12 + 0.37 * k, y], "bullet": True, "gravity_scale": 0,
                       "linear_velocity": [-speed, 0], "shapes": [circle(0.1, density=20)]})
    return scene("bullet_duel",
                 "Pairs of bullets fired at each other at 200-400 m/s meet where their paths cross inside a step "
                 "(bullets against bullets) and bounce back, instead of passing through each other.",
                 bodies, view={"center": [0, 4], "height": 9}, duration=3)


def wind():
    gust = {"velocity": [5, 0], "lift": 1.5}
    bodies = [{"name": "ground", "type": "static", "position": [0, -0.5], "shapes": [box(30, 0.5)]},
              {"name": "wall", "type": "static", "position": [12, 3], "shapes": [box(0.5, 3)]}]
    # Leaves: thin plates that the wind's lift carries while they tumble down.
    for k in range(12):
        bodies.append({"name": f"leaf{k}", "position": [-9 + 0.9 * k, 5 + 0.45 * (k % 4)],
                       "angle": 0.3 * (k % 5) - 0.6,
                       "shapes": [box(0.35, 0.03, density=0.3, wind=gust)]})
    # Balloons: light balls, all drag; crates: only the light ones slide.
    for k in range(3):
        bodies.append({"name": f"balloon{k}", "position": [-10 + 3 * k, 1 + k],
                       "shapes": [circle(0.4, density=0.02, wind={"velocity": [5, 0]})]})
    for k, density in enumerate([0.05, 0.5, 20]):
        bodies.append({"name": f"crate{k}", "position": [-4 + 3 * k, 0.5],
                       "shapes": [box(0.5, 0.5, density=density, friction=0.4, wind={"velocity": [5, 0]})]})
    return scene("wind",
                 "A steady 5 m/s wind (shape key wind: World::applyWind): leaves glide on its lift as they tumble, "
                 "balloons drift to the wall, and of three crates only the lightest is pushed along.",
                 bodies, view={"center": [2, 4.5], "height": 14}, duration=10)


SCENES = [platformer, explosion, bullet_duel, wind]

if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for f in SCENES:
        with open(os.path.join(out, f.__name__ + ".json"), "w") as fh:
            fh.write(fmt(f()) + "\n")
