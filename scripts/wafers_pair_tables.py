#!/usr/bin/env python3
"""The two tables of docs/validation.md section 7 ("One wafer against four"), every figure from
waferscope-cli:

  pair   | system | step | tokens/s | MFU | link energy per step (on wafers + between) |
         GPT-3 175B, dp 6 x TATP 8 on the same 48 dies: resources/scenarios/wafers_pair_one_6x8.json
         simulated; resources/scenarios/wafers_pair_four_3x4.json simulated as shipped, after
         `optimize` (TCME, the file's default settings; the tuned scenario is simulated), with its
         off-wafer links at 800 GB/s, and with off-wafer links equal to the wafer's own
         (4 TB/s, 200 ns, 5 pJ/bit).
  joins  | off-wafer bandwidth | K = 1: step, tokens/s | K = 3: step, tokens/s |
         `sweep resources/sweeps/wafers_pair_off_wafer_links.json` (off-wafer bandwidth x pairs
         joined per edge), written to a temporary CSV (the shipped CSV is left alone).

usage: scripts/wafers_pair_tables.py pair|joins [--cli CLI]
Variants are written to a temporary directory; progress goes to stderr.
"""
import argparse
import copy
import csv
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
ONE = ROOT / "resources/scenarios/wafers_pair_one_6x8.json"
FOUR = ROOT / "resources/scenarios/wafers_pair_four_3x4.json"
SWEEP = ROOT / "resources/sweeps/wafers_pair_off_wafer_links.json"


def run(cli, *args):
    print("waferscope-cli " + " ".join(str(a) for a in args), file=sys.stderr)
    result = subprocess.run([cli, *map(str, args)], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"waferscope-cli {' '.join(map(str, args))}: exit {result.returncode}\n"
                 f"{result.stderr}")
    return result.stdout


def simulate(cli, path):
    return json.loads(run(cli, "simulate", path, "--json=summary"))


def tokens(value):
    """Four significant figures, thousands separated: 25,820."""
    digits = max(0, len(str(int(value))) - 4)
    return f"{round(value, -digits):,.0f}"


def step_seconds(value):
    """Three significant figures: 43.3 s, 8.61 s."""
    return f"{value:.3g} s" if value < 100 else f"{value:.0f} s"


def pair_row(label, report):
    step, energy = report["step"], report["energy"]
    on_wafer = energy["d2d_j"]
    between = energy.get("off_wafer_j")
    if between is None:
        link_energy = f"{on_wafer / 1e3:.2f} kJ"
    else:
        link_energy = (f"{(on_wafer + between) / 1e3:.2f} kJ "
                       f"({on_wafer / 1e3:.2f} + {between / 1e3:.2f})")
    return (f"| {label} | {step['step_s']:.2f} s | {tokens(step['tokens_per_s'])} "
            f"| {step['mfu'] * 100:.1f}% | {link_energy} |")


def pair(cli, tmp):
    four = json.loads(FOUR.read_text())
    rows = [pair_row("one 6x8 wafer", simulate(cli, ONE)),
            pair_row("four 3x4 wafers", simulate(cli, FOUR))]

    tuned = tmp / "tuned.json"
    tcme = json.loads(run(cli, "optimize", FOUR, "--json", "-o", tuned))
    iterations = len(tcme["iterations"])
    rows.append(pair_row(f"four 3x4 wafers after TCME (`optimize`, {iterations} iterations)",
                         simulate(cli, tuned)))

    fast = copy.deepcopy(four)
    fast["system"]["link_bandwidth"] = "800 GB/s"
    path = tmp / "four_800.json"
    path.write_text(json.dumps(fast))
    rows.append(pair_row("four 3x4 wafers, off-wafer links 800 GB/s", simulate(cli, path)))

    matched = copy.deepcopy(four)
    matched["system"].update({"link_bandwidth": four["wafer"]["link_bandwidth"],
                              "link_latency": four["wafer"]["link_latency"], "pj_per_bit": 5})
    path = tmp / "four_matched.json"
    path.write_text(json.dumps(matched))
    rows.append(pair_row(
        f"four 3x4 wafers, off-wafer links as the wafer's ({matched['system']['link_bandwidth']},"
        f" {matched['system']['link_latency']}, 5 pJ/bit)", simulate(cli, path)))

    print("| system | step | tokens/s | MFU | link energy per step (on wafers + between) |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))


def joins(cli, tmp):
    out = tmp / "joins.csv"
    run(cli, "sweep", SWEEP, "-o", out, "--threads", "1")
    points = {}
    for row in csv.DictReader(out.open(newline="")):
        key = (row["system.link_bandwidth"], int(row["system.links_per_edge"]))
        if row["ok"] != "true":
            points[key] = f"fails: {row['error']}"
        else:
            points[key] = f"{step_seconds(float(row['step_s']))}, {tokens(float(row['tokens_per_s']))}"
    sweep = json.loads(SWEEP.read_text())
    bandwidths = sweep["axes"]["system.link_bandwidth"]
    counts = sweep["axes"]["system.links_per_edge"]
    print("| off-wafer bandwidth | "
          + " | ".join(f"K = {k}: step, tokens/s" for k in counts) + " |")
    print("|---|" + "---|" * len(counts))
    for bandwidth in bandwidths:
        print(f"| {bandwidth} | " + " | ".join(points[(bandwidth, k)] for k in counts) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("table", choices=["pair", "joins"])
    parser.add_argument("--cli", default=str(ROOT / "build/release/app/waferscope-cli"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        {"pair": pair, "joins": joins}[args.table](args.cli, pathlib.Path(tmp))


if __name__ == "__main__":
    main()
