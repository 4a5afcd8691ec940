#!/usr/bin/env python3
"""How time per step grows with the number of bodies (issue 10).

Writes two families of scene files for 1 k to 100 k bodies, runs
`carom bench` on each at 1 and 2 workers and writes the medians as a CSV
and as a log-log SVG plot (no plotting library needed: the SVG is written
by hand, so the script runs wherever Python 3 does).

  pyramids  pyramids of base 10 (55 boxes each) on shelves, as in
            bench/scenes/many_pyramids.json: every body in contact, the
            solver's worst case per body.
  sparse    balls on a 2 m grid falling freely: no contacts, so the cost
            is integration, proxy updates and the pair search.

Usage: scripts/scaling.py CAROM OUTDIR [--steps N] [--sizes 1000,2000,...]
  CAROM   the carom command (build/bin/carom)
  OUTDIR  where scaling.csv and scaling.svg go (docs/images)
The scene files go to a temporary folder and are deleted afterwards.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

BASE = 10
PER_PYRAMID = BASE * (BASE + 1) // 2


def box(hx, hy):
    return {"type": "box", "half_extents": [hx, hy]}


def pyramids(n):
    count = max(1, round(n / PER_PYRAMID))
    cols = max(1, math.ceil(math.sqrt(count)))
    shelves = math.ceil(count / cols)
    width = (BASE + 1) * cols
    ground = {"name": "ground", "type": "static",
              "shapes": [{"type": "segment", "p1": [-1, (BASE + 1) * r], "p2": [width + 1, (BASE + 1) * r]}
                         for r in range(shelves)]}
    bodies = [ground]
    for k in range(count):
        r, c = divmod(k, cols)
        bodies.append({"generate": "pyramid", "rows": BASE, "origin": [(BASE + 1) * c + 0.5, (BASE + 1) * r + 0.5],
                       "step": [1, 1], "body": {"name": f"p{k}", "shapes": [box(0.5, 0.5)]}})
    return {"carom": 1, "name": f"pyramids_{n}", "world": {"sleep": False}, "bodies": bodies}, count * PER_PYRAMID


def sparse(n):
    cols = max(1, math.ceil(math.sqrt(n)))
    rows = math.ceil(n / cols)
    bodies = [{"generate": "grid", "rows": rows, "columns": cols, "origin": [0, 0], "step": [2, 2],
               "body": {"name": "ball", "shapes": [{"type": "circle", "radius": 0.25}]}}]
    return {"carom": 1, "name": f"sparse_{n}", "world": {"sleep": False}, "bodies": bodies}, rows * cols


def bench(carom, path, steps, workers):
    out = subprocess.run([carom, "bench", path, "--steps", str(steps), "--threads", str(workers), "--json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def svg(rows, path):
    W, H, L, R, T, B = 720, 420, 70, 200, 20, 50
    xs = [r["bodies"] for r in rows]
    ys = [r["ms"] for r in rows]
    x0, x1 = math.floor(math.log10(min(xs))), math.ceil(math.log10(max(xs)))
    y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))

    def px(x):
        return L + (math.log10(x) - x0) / (x1 - x0) * (W - L - R)

    def py(y):
        return H - B - (math.log10(y) - y0) / (y1 - y0) * (H - T - B)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>']
    for e in range(x0, x1 + 1):
        x = px(10 ** e)
        out.append(f'<line x1="{x:.1f}" y1="{T}" x2="{x:.1f}" y2="{H - B}" stroke="#ddd"/>')
        out.append(f'<text x="{x:.1f}" y="{H - B + 16}" text-anchor="middle">{10 ** e:,}</text>')
    for e in range(y0, y1 + 1):
        y = py(10 ** e)
        out.append(f'<line x1="{L}" y1="{y:.1f}" x2="{W - R}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">{10 ** e:g}</text>')
    out.append(f'<text x="{(L + W - R) / 2}" y="{H - 12}" text-anchor="middle">bodies</text>')
    out.append(f'<text x="16" y="{(T + H - B) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 16 {(T + H - B) / 2})">ms per step (median)</text>')
    # A dashed line of slope 1 through the first pyramid point: linear growth.
    first = [r for r in rows if r["scene"] == "pyramids" and r["workers"] == 1][0]
    xa, xb = 10 ** x0, 10 ** x1
    ya, yb = first["ms"] * xa / first["bodies"], first["ms"] * xb / first["bodies"]
    out.append(f'<line x1="{px(xa):.1f}" y1="{py(max(ya, 10 ** y0)):.1f}" x2="{px(xb):.1f}" y2="{py(min(yb, 10 ** y1)):.1f}" '
               f'stroke="#999" stroke-dasharray="4 4"/>')
    styles = {("pyramids", 1): ("#c0392b", ""), ("pyramids", 2): ("#c0392b", "6 3"),
              ("sparse", 1): ("#2471a3", ""), ("sparse", 2): ("#2471a3", "6 3")}
    ly = T + 10
    for (scene, workers), (colour, dash) in styles.items():
        pts = [(px(r["bodies"]), py(r["ms"])) for r in rows if r["scene"] == scene and r["workers"] == workers]
        if not pts:
            continue
        d = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        out.append(f'<polyline points="{d}" fill="none" stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}"/>')
        for x, y in pts:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>')
        out.append(f'<line x1="{W - R + 10}" y1="{ly}" x2="{W - R + 40}" y2="{ly}" stroke="{colour}" stroke-width="2" '
                   f'stroke-dasharray="{dash}"/>')
        out.append(f'<text x="{W - R + 46}" y="{ly + 4}">{scene}, {workers} worker{"s" if workers > 1 else ""}</text>')
        ly += 20
    out.append(f'<line x1="{W - R + 10}" y1="{ly}" x2="{W - R + 40}" y2="{ly}" stroke="#999" stroke-dasharray="4 4"/>')
    out.append(f'<text x="{W - R + 46}" y="{ly + 4}">linear</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("carom")
    ap.add_argument("outdir")
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--sizes", default="1000,2000,5000,10000,20000,50000,100000")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in (("pyramids", pyramids), ("sparse", sparse)):
            for n in sizes:
                scene, count = make(n)
                path = os.path.join(tmp, f"{name}_{n}.json")
                with open(path, "w") as f:
                    json.dump(scene, f)
                for workers in (1, 2):
                    r = bench(args.carom, path, args.steps, workers)
                    row = {"scene": name, "bodies": count, "workers": workers, "ms": r["ms_per_step_median"],
                           "us_per_body": 1000.0 * r["ms_per_step_median"] / count,
                           "contacts": r["touching_contacts"], **{k: r["profile_ms"][k] for k in r["profile_ms"]}}
                    rows.append(row)
                    print(f'{name:9s} {count:7d} bodies  {workers} worker(s)  {row["ms"]:9.3f} ms/step  '
                          f'{row["us_per_body"]:.3f} us/body', flush=True)
    os.makedirs(args.outdir, exist_ok=True)
    with open(os.path.join(args.outdir, "scaling.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    svg(rows, os.path.join(args.outdir, "scaling.svg"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
