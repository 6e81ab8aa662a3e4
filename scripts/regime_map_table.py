#!/usr/bin/env python3
"""The regime map of docs/validation.md section 1 as a Markdown table: one row per HBM capacity,
one column per link bandwidth, each cell the winning family, its best simulated step and the
runner-up family's margin, from `waferscope-cli sweep resources/sweeps/tatp_regime_map.json`
(run here into a temporary file: every figure simulated when the script runs; the shipped
resources/sweeps/tatp_regime_map.csv is the same command's output).

usage: scripts/regime_map_table.py [--cli build/release/app/waferscope-cli]
"""
import argparse
import csv
import pathlib
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SWEEP = ROOT / "resources/sweeps/tatp_regime_map.json"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", default=str(ROOT / "build/release/app/waferscope-cli"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "map.csv"
        subprocess.run([args.cli, "sweep", str(SWEEP), "-o", str(out), "--threads", "2"],
                       check=True, stderr=subprocess.DEVNULL)
        rows = list(csv.DictReader(out.open(newline="")))
    columns, lines = [], []
    for row in rows:
        if row["wafer.link_bandwidth"] not in columns:
            columns.append(row["wafer.link_bandwidth"])
        if row["wafer.die.hbm"] not in lines:
            lines.append(row["wafer.die.hbm"])
    cell = {(r["wafer.die.hbm"], r["wafer.link_bandwidth"]): r for r in rows}
    print("| HBM per die \\ link bandwidth | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for hbm in lines:
        cells = []
        for bandwidth in columns:
            r = cell[(hbm, bandwidth)]
            if not r["best_family"]:
                cells.append("nothing fits")
                continue
            text = f"{r['best_family']} {float(r['best_step_s']):.2f} s"
            if r["margin"]:
                text += f", {r['runner_up_family']} +{float(r['margin']) * 100:.1f}%"
            cells.append(f"**{text}**" if r["best_family"] == "tatp" else text)
        print(f"| {hbm} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
