#!/usr/bin/env python3
"""Writes a scene of N static segments for timing tile-seam linking.

Layouts: identical (N copies of one segment from (-5000, 0) to (5000, 0)),
shared (N segments from one common end point (0, 0) to distinct points),
row (a row of N tiles 0.5 m long meeting end to end, as in a tiled level).
The segments sit on static bodies of at most 4000 shapes each (the scene
format's limit per body is 4096).
Usage: seam_pile.py LAYOUT N [--no-seams] > scene.json
Time the linking with the world built and not stepped, e.g.
  /usr/bin/time -f %e build/bin/carom validate scene.json
and against the same file written with --no-seams (tile_seams false).
"""
import json, math, sys


def segments(layout, n):
    if layout == "identical":
        return [([-5000.0, 0.0], [5000.0, 0.0]) for _ in range(n)]
    if layout == "shared":
        out = []
        for i in range(n):
            a = 2.0 * math.pi * i / n
            out.append(([0.0, 0.0], [round(10.0 * math.cos(a), 6), round(10.0 * math.sin(a), 6)]))
        return out
    if layout == "row":
        return [([0.5 * i - 0.25 * n, 0.0], [0.5 * (i + 1) - 0.25 * n, 0.0]) for i in range(n)]
    raise SystemExit("layout: identical, shared or row")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        raise SystemExit(__doc__)
    layout, n = args[0], int(args[1])
    segs = segments(layout, n)
    bodies = []
    for b in range(0, n, 4000):
        shapes = [{"type": "segment", "p1": p1, "p2": p2} for p1, p2 in segs[b:b + 4000]]
        bodies.append({"name": "tiles%d" % (b // 4000), "type": "static", "shapes": shapes})
    scene = {"carom": 1, "name": "seam_%s_%d" % (layout, n), "duration": 0.1, "bodies": bodies}
    if "--no-seams" in sys.argv:
        scene["world"] = {"tile_seams": False}
    json.dump(scene, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
