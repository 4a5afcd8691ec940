#!/usr/bin/env python3
"""Draws docs/images/architecture-step.svg: the stages of World::step, the
layer each stage's work comes from, and the data each stage reads and writes
(docs/architecture.md, "One step").

The picture is written from the tables below, so it changes only when they
do; run it again after changing a stage:

    scripts/step_diagram.py [OUT.svg]     (default docs/images/architecture-step.svg)

A tool beside the project: no build or test runs it.
"""
import os
import sys

# The layers, bottom first, with their colours (also used in the legend).
LAYERS = [
    ("core", "#e8e8e8", "engine/core"),
    ("collision", "#cfe3f7", "broadphase/, narrowphase/"),
    ("solver", "#d7f0d2", "solver/"),
    ("world", "#f7e3c8", "engine/world/"),
]
COLOUR = {name: colour for name, colour, _ in LAYERS}

# The data the step works on (WorldState, WorldImpl::scratch), as columns;
# each label is two short lines.
DATA = [
    ("proxies", "broadphase", "proxies"),
    ("contacts", "contacts,", "pair map"),
    ("bodies", "bodies", "(poses, edges)"),
    ("islands", "islands,", "awake list"),
    ("scratch", "step scratch", "(dense arrays)"),
    ("events", "events", ""),
]

# (stage, function, lower layers whose code runs in it, reads, writes)
STAGES = [
    ("pairs", "updatePairs", ["collision"], ["proxies", "contacts"],
     ["proxies", "contacts", "bodies", "scratch"]),
    ("collide", "updateContacts", ["collision"], ["bodies", "contacts", "islands"],
     ["contacts", "bodies", "islands", "scratch", "events"]),
    ("solve", "solveStep: substeps", ["solver"], ["bodies", "contacts", "islands"],
     ["scratch", "bodies", "contacts"]),
    ("continuous", "solveContinuous", ["collision"], ["bodies", "proxies", "scratch"], ["bodies", "scratch"]),
    ("finalize", "finalizeStep", ["collision"], ["proxies", "bodies", "contacts", "scratch"],
     ["proxies", "bodies", "islands", "events"]),
]

W, H = 900, 560
STAGE_X, STAGE_W, ROW_H = 30, 290, 66
GRID_X, COL_W = 340, 92
TOP = 130
READ, WRITE, BOTH = "#dbe6fa", "#f8d8cf", "#ecd9f2"


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "docs", "images", "architecture-step.svg")
    svg = []
    add = svg.append
    add(f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
        'font-family="DejaVu Sans, Arial, sans-serif" font-size="13">')
    add('<defs><marker id="a" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>')
    add(f'<rect width="{W}" height="{H}" fill="white"/>')
    add(f'<text x="{STAGE_X}" y="30" font-size="17" font-weight="bold">World::step: stages, layers and data</text>')
    add(f'<text x="{STAGE_X}" y="52" fill="#555">Each stage is a function of engine/world/ (the world layer) '
        'that runs code of the layers below it,</text>')
    add(f'<text x="{STAGE_X}" y="70" fill="#555">shown as chips; the grid says which of the world\'s data '
        'the stage reads (R) and writes (W).</text>')

    # Column headers: the data.
    for j, (_, line1, line2) in enumerate(DATA):
        cx = GRID_X + j * COL_W + COL_W / 2
        add(f'<text x="{cx:.1f}" y="{TOP - 26}" text-anchor="middle" font-weight="bold">{esc(line1)}</text>')
        if line2:
            add(f'<text x="{cx:.1f}" y="{TOP - 10}" text-anchor="middle" font-size="11" fill="#333">'
                f'{esc(line2)}</text>')

    for i, (name, func, lower, reads, writes) in enumerate(STAGES):
        y = TOP + i * ROW_H
        by = y + 6
        bh = ROW_H - 12
        add(f'<rect x="{STAGE_X}" y="{by}" width="{STAGE_W}" height="{bh}" rx="6" '
            f'fill="{COLOUR["world"]}" stroke="#333"/>')
        add(f'<text x="{STAGE_X + 10}" y="{by + 21}" font-weight="bold">{i + 1}. {esc(name)}</text>')
        add(f'<text x="{STAGE_X + 10}" y="{by + 41}" fill="#333">{esc(func)}</text>')
        cx = STAGE_X + STAGE_W - 10
        for layer in reversed(lower):
            cw = 8 * len(layer) + 14
            cx -= cw
            add(f'<rect x="{cx}" y="{by + 8}" width="{cw}" height="18" rx="9" fill="{COLOUR[layer]}" '
                'stroke="#555"/>')
            add(f'<text x="{cx + 7}" y="{by + 21}" font-size="11">{layer}</text>')
            cx -= 4
        if i + 1 < len(STAGES):
            add(f'<line x1="{STAGE_X + 24}" y1="{by + bh}" x2="{STAGE_X + 24}" y2="{by + ROW_H - 1}" '
                'stroke="#333" stroke-width="1.5" marker-end="url(#a)"/>')
        for j, (key, _, _) in enumerate(DATA):
            x = GRID_X + j * COL_W
            add(f'<rect x="{x + 4}" y="{by}" width="{COL_W - 8}" height="{bh}" fill="#fbfbfb" stroke="#ddd"/>')
            r, w = key in reads, key in writes
            if not (r or w):
                continue
            text, fill = ("R W", BOTH) if r and w else (("R", READ) if r else ("W", WRITE))
            add(f'<rect x="{x + 14}" y="{by + 10}" width="{COL_W - 28}" height="{bh - 20}" rx="5" '
                f'fill="{fill}" stroke="#777"/>')
            add(f'<text x="{x + COL_W / 2:.1f}" y="{by + bh / 2 + 5:.1f}" text-anchor="middle" '
                f'font-weight="bold">{text}</text>')

    # Legend: the layers, bottom first, with their folders.
    lx, ly = STAGE_X, TOP + len(STAGES) * ROW_H + 40
    add(f'<text x="{lx}" y="{ly - 10}" fill="#555">The layers, bottom first; each includes only itself and '
        'those to its left (cmake/layers.txt):</text>')
    for name, colour, folders in LAYERS:
        text = f"{name}  ({folders})"
        width = 7 * len(text) + 22
        add(f'<rect x="{lx}" y="{ly}" width="{width}" height="24" rx="4" fill="{colour}" stroke="#555"/>')
        add(f'<text x="{lx + 8}" y="{ly + 16}">{esc(text)}</text>')
        lx += width + 10
    add('</svg>')
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(svg) + "\n")
    print(out)


if __name__ == "__main__":
    main()
