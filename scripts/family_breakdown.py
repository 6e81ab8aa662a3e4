#!/usr/bin/env python3
"""Why a family wins at one point of the regime map (docs/validation.md section 1): each
family's best strategy at GPT-3 175B, batch 128, on the 6x8 wafer with 1800 TFLOP/s dies, at a
link bandwidth and HBM capacity, with where its step goes. The families are picked as the
sweep's `search` picks them (docs/search.md "Families": the search's simulated top and each
family's four best analytical candidates that fit, simulated without TCME's polish); every
figure is from `waferscope-cli search --json` and `simulate --json=summary`.

usage: scripts/family_breakdown.py [--link 4 TB/s] [--hbm 72 GB] [--cli CLI]
"""
import argparse
import json
import pathlib
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
BASE = ROOT / "resources/scenarios/gpt3_175b_6x8_batch128.json"


def family(s):
    """strategyFamily of core/search/strategy_family.h, in its order of precedence."""
    if s.get("tatp", 1) > 1:
        return "tatp"
    model_parallel = s.get("tp", 1) > 1 or s.get("sp", 1) > 1
    if model_parallel and s.get("fsdp") and s.get("dp", 1) > 1:
        return "fsdp_hybrid"
    if s.get("tp", 1) > 1:
        return "tp_sp"
    if s.get("sp", 1) > 1:
        return "sp"
    return "pp" if s.get("pp", 1) > 1 else "dp"


def run(cli, *args):
    return json.loads(subprocess.run([cli, *args], capture_output=True, text=True,
                                     check=True).stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--link", default="4 TB/s")
    parser.add_argument("--hbm", default="72 GB")
    parser.add_argument("--cli", default=str(ROOT / "build/release/app/waferscope-cli"))
    args = parser.parse_args()
    scenario = json.loads(BASE.read_text())
    scenario["wafer"]["link_bandwidth"] = args.link
    scenario["wafer"]["die"]["hbm"] = args.hbm
    scenario["wafer"]["die"]["peak_flops"] = "1800 TFLOP/s"
    with tempfile.TemporaryDirectory() as tmp:
        point = pathlib.Path(tmp) / "point.json"
        point.write_text(json.dumps(scenario))
        search = run(args.cli, "search", str(point), "--budget", "2000", "--seed", "1",
                     "--threads", "1", "--json")
        picked, per_family = [], {}
        for score in search["top"]:
            if score["simulated_step_s"] is not None and not score["out_of_memory"]:
                picked.append(score)
        for score in search["candidates"]:  # in analytical order, best first
            f = family(score["strategy"])
            if score["out_of_memory"] or per_family.get(f, 0) >= 4:
                continue
            per_family[f] = per_family.get(f, 0) + 1
            picked.append(score)
        best = {}
        for score in picked:
            variant = dict(scenario, strategy=score["strategy"])
            variant.pop("routing", None)
            point.write_text(json.dumps(variant))
            step = run(args.cli, "simulate", str(point), "--json=summary")["step"]
            f = family(score["strategy"])
            if f not in best or step["step_s"] < best[f][1]["step_s"]:
                best[f] = (score["label"], step)
    usable = next(iter(best.values()))[1]["sram"]["usable_bytes"]
    print("| family | its best strategy | step | compute | HBM stalls | exposed communication "
          f"| task overhead | largest working set (SRAM usable: {usable / 1e6:.0f} MB) |")
    print("|---|---|---|---|---|---|---|---|")
    for f, (label, step) in sorted(best.items(), key=lambda item: item[1][1]["step_s"]):
        b, sram = step["breakdown"], step["sram"]
        print(f"| {f} | {label} | {step['step_s']:.2f} s | {b['compute_s']:.2f} s "
              f"| {b['hbm_stall_s']:.2f} s | {b['exposed_s']:.2f} s | {b['overhead_s']:.3f} s "
              f"| {sram['largest_working_set_bytes'] / 1e6:.0f} MB"
              f"{'' if sram['fits'] else ' (overflows)'} |")


if __name__ == "__main__":
    main()
