#!/usr/bin/env python3
"""Fits a cluster preset's NVLink protocols to a published nccl-tests all-reduce curve.

docs/network-model.md section 4.8 gives the model: a collective runs with the fastest of its
tier's protocols, each a latency L per collective and an efficiency e of the line rate B; an
uncontended ring all-reduce over the P GPUs of one node then takes

    t(N) = 2 (P - 1) x 2 a  +  min over protocols of ( L + 2 (P - 1)/P x N / (e B) )

where a is the latency of one link (GPU to switch: a GPU-to-GPU step crosses two) and N the
buffer (nccl-tests' size). The first term is the simulator's own per-hop latency and is not
fitted. Three protocols (NCCL's LL, LL128 and Simple) are fitted on the curve's sizes that are
NOT validation points: the suite's sizes (1 MiB, 16 MiB, 128 MiB, 1 GiB, 8 GiB) are held out and
reported as predictions. Each protocol covers a contiguous range of sizes; for every split of
the fitted sizes into three ranges, each range's (L, e) minimises its mean relative error (for a
given e the best L is a weighted median, and e is searched on a fine grid), and the split whose
three protocols, taken with the min of the model, give the least mean relative error over all
fitted sizes wins.

Usage:
    scripts/fit_nccl_protocols.py CURVE.csv LINE_RATE_GB_PER_S LINK_LATENCY_US [--gpus 8]

CURVE.csv: resources/validation/nccl_curves/*.csv (size_bytes,busbw_gb_per_s). Prints the fitted
protocols as the preset writes them and a table of every size: measured, modelled, error, and
whether it was fitted or held out. Used for docs/hardware.md section 5.1; no dependency beyond
the Python standard library.
"""

import argparse
import csv
import math

HELD_OUT = {2**20, 2**24, 2**27, 2**30, 2**33}  # the validation suite's all-reduce sizes


def read_curve(path):
    sizes, busbw = [], []
    with open(path) as handle:
        rows = [line for line in handle if not line.startswith("#")]
    for row in csv.DictReader(rows):
        sizes.append(int(row["size_bytes"]))
        busbw.append(float(row["busbw_gb_per_s"]) * 1e9)
    return sizes, busbw


def weighted_median(values, weights):
    pairs = sorted(zip(values, weights))
    half = sum(weights) / 2
    running = 0.0
    for value, weight in pairs:
        running += weight
        if running >= half:
            return value
    return pairs[-1][0]


def fit_range(bus_bytes, times, hops, line_rate):
    """(L, e) minimising the mean relative error of hops + L + S/(e B) over one range."""
    best = None
    for step in range(50, 2001):  # e from 0.05 to 2 in steps of 0.001
        e = step / 1000.0
        residuals = [t - hops - s / (e * line_rate) for s, t in zip(bus_bytes, times)]
        latency = max(0.0, weighted_median(residuals, [1.0 / t for t in times]))
        error = sum(abs(hops + latency + s / (e * line_rate) - t) / t
                    for s, t in zip(bus_bytes, times)) / len(times)
        if best is None or error < best[0]:
            best = (error, latency, e)
    return best[1], best[2]


def model(size, protocols, hops, line_rate, gpus):
    bus = 2 * (gpus - 1) / gpus * size
    return hops + min(latency + bus / (e * line_rate) for latency, e in protocols)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("curve")
    parser.add_argument("line_rate_gb_per_s", type=float)
    parser.add_argument("link_latency_us", type=float)
    parser.add_argument("--gpus", type=int, default=8)
    args = parser.parse_args()
    gpus = args.gpus
    line_rate = args.line_rate_gb_per_s * 1e9
    hops = 2 * (gpus - 1) * 2 * args.link_latency_us * 1e-6
    sizes, busbw = read_curve(args.curve)
    factor = 2 * (gpus - 1) / gpus  # nccl-tests: busbw = algbw x 2 (P - 1) / P
    times = [factor * n / b for n, b in zip(sizes, busbw)]
    fitted = [i for i, n in enumerate(sizes) if n not in HELD_OUT]
    fit_bus = [factor * sizes[i] for i in fitted]
    fit_times = [times[i] for i in fitted]

    best = None
    count = len(fitted)
    for first in range(1, count - 1):
        for second in range(first + 1, count):
            ranges = [(0, first), (first, second), (second, count)]
            protocols = [fit_range(fit_bus[a:b], fit_times[a:b], hops, line_rate)
                         for a, b in ranges]
            error = sum(abs(model(sizes[i], protocols, hops, line_rate, gpus) - times[i])
                        / times[i] for i in fitted) / count
            if best is None or error < best[0]:
                best = (error, protocols)
    protocols = [(round(latency * 1e6, 1) * 1e-6, round(e, 3)) for latency, e in best[1]]

    print(f"curve: {args.curve}; P = {gpus}, line rate {args.line_rate_gb_per_s:g} GB/s, "
          f"{args.link_latency_us:g} us per link: {hops * 1e6:.1f} us of hops per all-reduce")
    for name, (latency, e) in zip(["LL", "LL128", "Simple"], protocols):
        print(f'  {{"name": "{name}", "latency": "{latency * 1e6:.1f} us", "efficiency": {e}}}')
    print()
    print("| size | measured | modelled | error | |")
    print("|---|---|---|---|---|")
    held = []
    for size, measured in zip(sizes, times):
        modelled = model(size, protocols, hops, line_rate, gpus)
        error = (modelled - measured) / measured
        role = "held out" if size in HELD_OUT else "fitted"
        if size in HELD_OUT:
            held.append(error)
        print(f"| {size} | {measured * 1e6:.2f} us | {modelled * 1e6:.2f} us | "
              f"{error * 100:+.1f}% | {role} |")
    print()
    if held:
        print(f"held out: mean |error| {sum(abs(e) for e in held) / len(held) * 100:.1f}%, "
              f"worst {max(held, key=abs) * 100:+.1f}%")


if __name__ == "__main__":
    main()
