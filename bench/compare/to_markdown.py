#!/usr/bin/env python3
"""Turns `carom-compare --json` output into the Markdown table of docs/benchmarks.md.

    build/bin/carom-compare SCENES... --json > run.json
    python3 bench/compare/to_markdown.py run.json
"""
import json
import sys


def main(path):
    with open(path) as f:
        doc = json.load(f)
    print("| scene | engine | bodies | steps | median ms | mean ms | p95 ms | ratio | CPU median ms | CPU ratio "
          "| spread % | start y | end y | end mean \\|v\\| |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for scene in doc["scenes"]:
        for e in scene["engines"]:
            medians = e["round_medians_ms"]
            spread = 100.0 * (max(medians) - min(medians)) / e["wall"]["median_ms"] if len(medians) > 1 and e["wall"]["median_ms"] > 0 else 0.0
            ratio = "%.2f" % e["ratio_to_carom"] if "ratio_to_carom" in e else "-"
            cpu_ratio = "%.2f" % e["cpu_ratio_to_carom"] if "cpu_ratio_to_carom" in e else "-"
            print("| %s | %s | %d | %d | %.2f | %.2f | %.2f | %s | %.2f | %s | %.1f | %.2f | %.2f | %.2f |" % (
                scene["name"], e["engine"], e["bodies"], scene["steps"], e["wall"]["median_ms"],
                e["wall"]["mean_ms"], e["wall"]["p95_ms"], ratio, e["cpu"]["median_ms"], cpu_ratio, spread,
                e["start"]["mean_y"], e["sanity"]["mean_y"], e["sanity"]["mean_speed"]))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
