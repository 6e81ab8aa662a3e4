#!/usr/bin/env python3
"""Summarises a fault-study sweep (docs/validation.md section 6): per fault rate, the samples
that simulated and their throughput as a share of the fault-free point's (mean, min, max), how
many samples' strategies were re-planned after the faults (their `note`), and how many failed
for want of memory.

usage: scripts/fault_curve.py OUT.csv                       (a `waferscope-cli sweep` output
                                                             with one fault axis)
       scripts/fault_curve.py SWEEP.json [--cli CLI]        (runs the sweep first, into a
                                                             temporary file, on 2 threads)
"""
import argparse
import csv
import pathlib
import subprocess
import tempfile
from collections import defaultdict

ROOT = pathlib.Path(__file__).resolve().parent.parent


def read_rows(path, cli):
    if not path.endswith(".json"):
        return list(csv.DictReader(open(path, newline="")))
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "out.csv"
        subprocess.run([cli, "sweep", path, "-o", str(out), "--threads", "2"], check=True,
                       stderr=subprocess.DEVNULL)
        return list(csv.DictReader(out.open(newline="")))


def main(path, cli):
    rows = read_rows(path, cli)
    axis = [key for key in rows[0] if key.startswith("faults.")][0]
    throughput = defaultdict(list)
    failed = defaultdict(int)
    replanned = defaultdict(int)
    out_of_memory = defaultdict(int)
    for row in rows:
        rate = float(row[axis])
        replanned[rate] += 1 if row.get("note") else 0
        if row["ok"] == "true":
            throughput[rate].append(float(row["tokens_per_s"]))
        else:
            failed[rate] += 1
            out_of_memory[rate] += 1 if row["error"].startswith("out of memory:") else 0
    rates = sorted(set(throughput) | set(failed))
    base = sum(throughput[0.0]) / len(throughput[0.0])
    print(f"| {axis} | samples simulated | re-planned | out of memory | tokens/s (mean) "
          "| of fault-free: mean | min | max |")
    print("|---|---|---|---|---|---|---|---|")
    for rate in rates:
        values = throughput[rate]
        total = len(values) + failed[rate]
        counts = f"| {rate:g} | {len(values)} of {total} | {replanned[rate]} | {out_of_memory[rate]} "
        if not values:
            print(counts + "| - | - | - | - |")
            continue
        mean = sum(values) / len(values)
        print(counts + f"| {mean:,.0f} | {mean / base:.0%} | {min(values) / base:.0%} "
              f"| {max(values) / base:.0%} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("path")
    parser.add_argument("--cli", default=str(ROOT / "build/release/app/waferscope-cli"))
    args = parser.parse_args()
    main(args.path, args.cli)
