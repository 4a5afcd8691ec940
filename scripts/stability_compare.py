#!/usr/bin/env python3
"""Runs the stability suite on Carom and, when given, on a second engine that
offers a `carom`-compatible `run` verb (for instance the Box2D v3 adapter
b2carom), and prints each scene's figure side by side (docs/stability.md).

The figures are computed here from `ENGINE run SCENE --trace FILE --every K
--out STATE` alone: body origins, angles and velocities every K steps. This
file mirrors demos/cli/stability_metrics.cpp; --check runs `carom stability`
too and verifies that both give the same numbers on Carom.

A tool beside the project: no build or test uses it.

Usage:
  scripts/stability_compare.py [--carom BIN] [--other CMD] [--other-name NAME]
                               [--check] [--json] [SCENE.json|DIR ...]
  --carom BIN   the `carom` command (default: build/bin/carom of this checkout)
  --other CMD   a second engine's command, e.g. the path of b2carom.sh; also
                taken from the environment variable CAROM_STABILITY_OTHER
  SCENE|DIR     scene files or folders (default: demos/scenes/stability)
"""
import argparse, csv, json, math, os, shlex, struct, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ----------------------------------------------------------------------------- figures (stability_metrics.cpp)

def to_world(p, l):
    c, s = math.cos(p[2]), math.sin(p[2])
    return (p[0] + c * l[0] - s * l[1], p[1] + s * l[0] + c * l[1])


def to_local(p, w):
    c, s = math.cos(p[2]), math.sin(p[2])
    dx, dy = w[0] - p[0], w[1] - p[1]
    return (c * dx + s * dy, -s * dx + c * dy)


def dist(a, b):
    return math.hypot(b[0] - a[0], b[1] - a[1])


def matches(pattern, name):
    if pattern.endswith("*"):
        return name is not None and name.startswith(pattern[:-1])
    return name == pattern


class Meter:
    """The figures of one scene, fed one sample (the poses of every body) at a time."""

    def __init__(self, spec, bodies, joints, settle_step):
        self.spec, self.bodies, self.joints, self.settle = spec, bodies, joints, settle_step
        pats = spec.get("bodies", [])
        self.selected = [i for i, (name, dyn) in enumerate(bodies)
                         if (any(matches(p, name) for p in pats) if pats else dyn)]
        self.index = {name: i for i, (name, _) in enumerate(bodies) if name is not None}
        self.value = None
        self.peak = 0.0
        self.joint_error = 0.0 if joints else None
        self.finite, self.nonfinite_step = True, None
        self.start = self.ref = self.last = None
        self.window_start = self.last_step = None
        self.samples = 0

    def resolve(self, poses):
        self.frames = []
        for j in self.joints:
            a, b = poses[j["a"]], poses[j["b"]]
            la = j["local_a"] or to_local(a, j["anchor_a"])
            lb = j["local_b"] or to_local(b, j["anchor_b"])
            ax = j["local_axis"] or to_local((0.0, 0.0, a[2]), j["axis"])
            n = math.hypot(*ax)
            ax = (ax[0] / n, ax[1] / n) if n > 0 else ax
            length = j["length"] if j["length"] is not None else dist(to_world(a, la), to_world(b, lb))
            self.frames.append((la, lb, ax, length))

    def error(self, k, poses):
        j, (la, lb, ax, length) = self.joints[k], self.frames[k]
        a, b = poses[j["a"]], poses[j["b"]]
        wa, wb = to_world(a, la), to_world(b, lb)
        t = j["type"]
        if t in ("revolute", "weld"):
            return dist(wa, wb)
        if t == "distance":
            d = dist(wa, wb)
            if j["rigid"]:
                return abs(d - length)
            lo = j["min_length"] if j["min_length"] is not None else 0.0
            hi = j["max_length"] if j["max_length"] is not None else 1e6
            return max(0.0, lo - d, d - hi)
        if t in ("prismatic", "wheel"):
            c, s = math.cos(a[2]), math.sin(a[2])
            axis = (c * ax[0] - s * ax[1], s * ax[0] + c * ax[1])
            return abs((wb[0] - wa[0]) * -axis[1] + (wb[1] - wa[1]) * axis[0])
        return 0.0

    def stretch(self, poses):
        f, t = self.spec["from"], self.spec["to"]
        fi, ti = self.index[f["body"]], self.index[t["body"]]
        return dist(to_world(poses[fi], f.get("local", [0, 0])), to_world(poses[ti], t.get("local", [0, 0])))

    def sample(self, step, poses):
        if not self.finite:
            return False
        if not all(math.isfinite(x) for p in poses for x in p):
            self.finite, self.nonfinite_step, self.value = False, step, None
            return False
        if self.start is None:
            self.start = poses
            self.resolve(poses)
        self.samples += 1
        self.last_step, self.last = step, poses
        for i, (_, dyn) in enumerate(self.bodies):
            if dyn:
                self.peak = max(self.peak, math.hypot(poses[i][3], poses[i][4]))
        for k in range(len(self.joints)):
            self.joint_error = max(self.joint_error, self.error(k, poses))
        if self.ref is None and step >= self.settle:
            self.ref, self.window_start = poses, step
            if self.spec["figure"] == "stretch":
                self.stretch_ref = self.stretch(poses)
        if self.ref is None:
            return True
        fig, sel, ref = self.spec["figure"], self.selected, self.ref
        v = None
        if fig == "drift":
            v = max((dist(ref[i], poses[i]) for i in sel), default=None)
        elif fig == "sag":
            level = self.spec.get("level")
            v = max(((level if level is not None else ref[i][1]) - poses[i][1] for i in sel), default=None)
        elif fig == "rise":
            level = self.spec.get("level")
            v = max((poses[i][1] - (level if level is not None else ref[i][1]) for i in sel), default=None)
        elif fig == "peak_speed":
            v = max((math.hypot(poses[i][3], poses[i][4]) for i in sel), default=None)
        elif fig == "joint_error":
            v = max([0.0] + [self.error(k, poses) for k in range(len(self.joints))])
        elif fig == "stretch":
            v = abs(self.stretch(poses) - self.stretch_ref)
        if v is not None:
            self.value = v if self.value is None else max(self.value, v)
        return True

    def result(self):
        disp = slide = 0.0
        if self.start is not None:
            disp = max([0.0] + [dist(self.start[i], self.last[i]) for i in self.selected])
            slide = max([0.0] + [abs(self.last[i][0] - self.start[i][0]) for i in self.selected])
        stands = None
        if "collapse" in self.spec:
            stands = self.finite and disp <= self.spec["collapse"]
        return {"value": self.value, "stands": stands, "displacement": disp, "slide": slide, "peak_speed": self.peak,
                "joint_error": self.joint_error, "finite": self.finite, "nonfinite_step": self.nonfinite_step,
                "window_start": self.window_start, "last_sample": self.last_step, "samples": self.samples}


# ----------------------------------------------------------------------------- running an engine

def scene_joints(scene, index):
    out = []
    for j in scene.get("joints", []):
        t = j["type"]
        if t in ("motor",) or j["a"] not in index or j["b"] not in index:
            continue
        two = t == "distance"
        axis = j.get("axis", [1, 0] if t == "prismatic" else [0, 1])
        n = math.hypot(*axis)
        spring = j.get("spring")
        out.append({"type": t, "a": index[j["a"]], "b": index[j["b"]],
                    "anchor_a": tuple(j["anchor_a"] if two else j["anchor"]),
                    "anchor_b": tuple(j["anchor_b"] if two else j["anchor"]),
                    "local_a": tuple(j["local_anchor_a"]) if "local_anchor_a" in j else None,
                    "local_b": tuple(j["local_anchor_b"]) if "local_anchor_b" in j else None,
                    "axis": (axis[0] / n, axis[1] / n), "local_axis": tuple(j["local_axis_a"]) if "local_axis_a" in j else None,
                    "rigid": not (spring and spring.get("hertz", 0) > 0), "length": j.get("length"),
                    "min_length": j.get("min_length"), "max_length": j.get("max_length")})
    return out


def as_float32(text):
    """The float a trace field names: the trace writes the shortest text that reads
    back to the same float, which read as a double is off by up to half a float's
    step (3.8e-6 at 100 m), more than --check's tolerance; carom stability works on
    the floats themselves."""
    return struct.unpack("f", struct.pack("f", float(text)))[0]


def run_engine(cmd, scene_path, spec, scene, work, env=None):
    """Runs `cmd run` with a trace and returns (result dict, error text or None)."""
    dt = scene.get("world", {}).get("timestep", 1.0 / 60.0)
    steps = int(math.floor(scene.get("duration", 10) / dt + 0.5))
    settle = int(math.floor(spec.get("settle", 0) / dt + 0.5))
    every = spec.get("every", 1)
    trace, state = os.path.join(work, "trace.csv"), os.path.join(work, "state.json")
    for f in (trace, state):
        if os.path.exists(f):
            os.remove(f)
    p = subprocess.run(cmd + ["run", scene_path, "--steps", str(steps), "--trace", trace, "--every", str(every),
                              "--out", state], capture_output=True, text=True, env=env)
    error = None
    if p.returncode != 0:
        error = (p.stderr.strip().splitlines() or ["exit status %d" % p.returncode])[-1]
    if not os.path.exists(trace):
        return None, error or "no trace written"
    # Body order and types from the scene's first traced step and the final state (when written).
    types = {}
    if os.path.exists(state):
        unnamed = -1
        for b in json.load(open(state))["bodies"]:
            if b["name"] is None:
                unnamed += 1
            types[b["name"] if b["name"] is not None else "#%d" % unnamed] = b["type"] == "dynamic"
    rows = {}
    order = []
    with open(trace, newline="") as fh:
        r = csv.reader(fh)
        next(r)
        unnamed = {}
        for row in r:
            step = int(row[0])
            name = row[2] or None
            if name is None:  # unnamed bodies keep their order within a step
                unnamed[step] = unnamed.get(step, -1) + 1
                name = "#%d" % unnamed[step]
            if step not in rows:
                rows[step] = {}
                order.append(step)
            rows[step][name] = tuple(as_float32(row[i]) for i in (3, 4, 5, 6, 7))
    if not order:
        return None, error or "empty trace"
    names = list(rows[order[0]].keys())
    if not types:
        types = {n: True for n in names}  # no state: every body counts as dynamic
    bodies = [(None if n.startswith("#") else n, types.get(n, True)) for n in names]
    index = {n: i for i, n in enumerate(names)}
    meter = Meter(spec, bodies, scene_joints(scene, index), settle)
    for step in order:
        poses = [rows[step].get(n, (math.nan,) * 5) for n in names]
        if not meter.sample(step, poses):
            break
    return meter.result(), error


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for f in sorted(os.listdir(p)):
                if f.endswith(".json"):
                    files.append(os.path.join(p, f))
        else:
            files.append(p)
    return files


def fmt(v, spec="%.4g"):
    return "-" if v is None else spec % v


def cell(res, err):
    if res is None:
        return "failed", err or ""
    note = ""
    if err:
        note = "threw: " + err
    elif not res["finite"]:
        note = "non-finite at step %d" % res["nonfinite_step"]
    s = fmt(res["value"])
    if res["stands"] is not None:
        s += " (stands)" if res["stands"] else " (COLLAPSES)"
    return s, note


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--carom", default=os.path.join(ROOT, "build", "bin", "carom"))
    ap.add_argument("--other", default=os.environ.get("CAROM_STABILITY_OTHER"))
    ap.add_argument("--other-name", default="Box2D v3")
    ap.add_argument("--check", action="store_true", help="also run `carom stability` and compare its numbers")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("scenes", nargs="*")
    a = ap.parse_args()
    files = collect(a.scenes or [os.path.join(ROOT, "demos", "scenes", "stability")])
    engines = [("Carom", [a.carom])]
    if a.other:
        engines.insert(0, (a.other_name, shlex.split(a.other)))
    out, mismatches = [], 0
    if not a.json:
        head = "%-30s %-11s %8s" % ("scene", "figure", "goal")
        for name, _ in engines:
            head += " %22s" % name
        print(head + "  notes")
    with tempfile.TemporaryDirectory() as work:
        for f in files:
            scene = json.load(open(f))
            spec = scene.pop("stability", None)
            if spec is None:
                continue
            # The figure's key is Carom's own addition: other engines get the scene without it.
            plain = os.path.join(work, os.path.basename(f))
            with open(plain, "w") as fh:
                json.dump(scene, fh)
            # The Box2D v3 adapter refuses the world key contact_hertz and reads the
            # same setting from its environment (B2CAROM_CONTACT_HERTZ): the
            # *_substeps8 scenes run both engines at the same stiffness. It also
            # refuses joint_direct_solve, which Box2D v3 has no counterpart of:
            # its joints are always iterative, so the key is dropped.
            other_plain, other_env = plain, None
            world = scene.get("world", {})
            if "contact_hertz" in world or "joint_direct_solve" in world:
                other = json.loads(json.dumps(scene))
                hertz = other["world"].pop("contact_hertz", None)
                other["world"].pop("joint_direct_solve", None)
                other_plain = os.path.join(work, "other_" + os.path.basename(f))
                with open(other_plain, "w") as fh:
                    json.dump(other, fh)
                if hertz is not None:
                    other_env = dict(os.environ, B2CAROM_CONTACT_HERTZ=str(hertz))
            entry = {"scene": scene.get("name"), "file": f, "figure": spec["figure"], "goal": spec.get("goal")}
            notes = []
            for name, cmd in engines:
                mine = name == "Carom"
                res, err = run_engine(cmd, plain if mine else other_plain, spec, scene, work,
                                      None if mine else other_env)
                entry[name] = dict(res or {}, error=err)
                c, note = cell(res, err)
                entry[name]["cell"] = c
                if note:
                    notes.append("%s: %s" % (name, note))
            if a.check:
                p = subprocess.run([a.carom, "stability", f, "--json"], capture_output=True, text=True)
                verb = json.loads(p.stdout)[0]
                mine = entry["Carom"]
                for key in ("value", "displacement", "slide", "peak_speed", "joint_error"):
                    x, y = verb[key], mine.get(key)
                    same = (x is None and y is None) or (x is not None and y is not None and
                                                         abs(x - y) <= 1e-6 + 1e-5 * abs(x))
                    if not same:
                        mismatches += 1
                        notes.append("check: %s verb %s, trace %s" % (key, x, y))
            entry["notes"] = notes
            out.append(entry)
            if not a.json:
                line = "%-30s %-11s %8s" % (entry["scene"], entry["figure"], fmt(entry["goal"]))
                for name, _ in engines:
                    line += " %22s" % entry[name]["cell"]
                print(line + ("  " + "; ".join(notes) if notes else ""), flush=True)
    if a.json:
        print(json.dumps(out, indent=1))
    if a.check:
        print("check: %s" % ("the verb and the trace agree" if mismatches == 0 else "%d mismatches" % mismatches),
              file=sys.stderr)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
