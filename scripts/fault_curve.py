#!/usr/bin/env python3
"""Summarises a fault-study sweep (docs/validation.md section 6): per fault rate, the samples
that simulated and their throughput as a share of the fault-free point's (mean, min, max).

usage: scripts/fault_curve.py OUT.csv   (the CSV of `waferscope-cli sweep` with one fault axis)
"""
import csv
import sys
from collections import defaultdict


def main(path):
    rows = list(csv.DictReader(open(path, newline="")))
    axis = [key for key in rows[0] if key.startswith("faults.")][0]
    throughput = defaultdict(list)
    failed = defaultdict(int)
    for row in rows:
        if row["ok"] == "true":
            throughput[float(row[axis])].append(float(row["tokens_per_s"]))
        else:
            failed[float(row[axis])] += 1
    rates = sorted(set(throughput) | set(failed))
    base = sum(throughput[0.0]) / len(throughput[0.0])
    print(f"| {axis} | samples simulated | tokens/s (mean) | of fault-free: mean | min | max |")
    print("|---|---|---|---|---|---|")
    for rate in rates:
        values = throughput[rate]
        total = len(values) + failed[rate]
        if not values:
            print(f"| {rate:g} | 0 of {total} | - | - | - | - |")
            continue
        mean = sum(values) / len(values)
        print(f"| {rate:g} | {len(values)} of {total} | {mean:,.0f} | {mean / base:.0%} "
              f"| {min(values) / base:.0%} | {max(values) / base:.0%} |")


if __name__ == "__main__":
    main(sys.argv[1])
