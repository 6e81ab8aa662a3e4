#!/usr/bin/env python3
"""The tables of docs/validation.md section 10, from `waferscope-cli validate-model --json` on
resources/validation/suite.json (every figure simulated when the script runs).

    scripts/validation_table.py points    every point: published, simulated, error
    scripts/validation_table.py summary   mean absolute and worst error of the predictions,
                                          by kind (training steps, each node's collectives)
    scripts/validation_table.py models    the Megatron-LM runs' configurations, read from the
                                          suite's scenario files

Each takes --cli PATH (default build/release/app/waferscope-cli).
"""
import argparse
import json
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
SUITE = ROOT / "resources/validation/suite.json"


def report(cli):
    run = subprocess.run([cli, "validate-model", str(SUITE), "--json"],
                         capture_output=True, text=True)
    if run.returncode not in (0, 1):  # 1: a point drifted from its recorded value; still a table
        raise SystemExit(run.stderr)
    return json.loads(run.stdout)


def suite_points():
    suite = json.loads(SUITE.read_text())
    return {p["id"]: p for p in suite["points"]}


def label(point_id, scenario):
    """A point's row label: "175B, selective + sequence parallel", "all-reduce 16 MiB, 8 A100"."""
    if point_id.startswith("megatron-"):
        size = point_id.split("-")[1].upper()
        size = {"175B": "GPT-3 175B", "530B": "MT-NLG 530B"}.get(size, size)
        strategy = scenario["strategy"]
        how = ("selective + sequence parallel" if strategy.get("sequence_parallel")
               else "full recomputation")
        return f"{size}, {how}"
    gpu = "H100" if "-h100-" in point_id else "A100"
    size = point_id.rsplit("-", 1)[1].replace("mib", " MiB").replace("gib", " GiB")
    return f"all-reduce {size}, 8 {gpu}"


def kind(point_id):
    if point_id.startswith("megatron-"):
        return "training steps (Megatron-LM on Selene)"
    return "all-reduces, 8 H100" if "-h100-" in point_id else "all-reduces, 8 A100"


def seconds(value):
    if value >= 1:
        return f"{value:.4g} s"
    if value >= 1e-3:
        return f"{value * 1e3:.4g} ms"
    return f"{value * 1e6:.4g} us"


def points_table(data):
    scenarios = suite_points()
    print("| point | published | simulated | error |")
    print("|---|---|---|---|")
    for p in data["points"]:
        scenario = json.loads((SUITE.parent / scenarios[p["id"]]["scenario"]).read_text())
        name = label(p["id"], scenario)
        if p["role"] == "calibration":
            name += " (**calibration**)"
        print(f"| {name} | {seconds(p['published'])} | {seconds(p['simulated'])} "
              f"| {round(p['error'] * 100, 1) + 0.0:+.1f}% |")


def summary_table(data):
    groups = {}
    for p in data["points"]:
        if p["role"] == "prediction":
            groups.setdefault(kind(p["id"]), []).append(p)
    every = [p for ps in groups.values() for p in ps]
    print("| predictions | mean abs. error | worst |")
    print("|---|---|---|")
    for name, ps in list(groups.items()) + [("all", every)]:
        worst = max(ps, key=lambda p: abs(p["error"]))
        mean = sum(abs(p["error"]) for p in ps) / len(ps)
        print(f"| {len(ps)} {name} | {mean * 100:.1f}% | {worst['error'] * 100:+.1f}% "
              f"({worst['id']}) |")


def models_table():
    print("| model | layers | hidden | heads | tp | pp | GPUs | global batch |")
    print("|---|---|---|---|---|---|---|---|")
    seen = set()
    for p in suite_points().values():
        if not p["id"].startswith("megatron-"):
            continue
        s = json.loads((SUITE.parent / p["scenario"]).read_text())
        model, strategy = s["workload"]["model"], s["strategy"]
        if model["name"] in seen:
            continue
        seen.add(model["name"])
        gpus = strategy.get("dp", 1) * strategy.get("tp", 1) * strategy.get("pp", 1)
        print(f"| {label(p['id'], s).split(',')[0]} | {model['layers']} | {model['hidden']} "
              f"| {model['heads']} | {strategy.get('tp', 1)} | {strategy.get('pp', 1)} | {gpus} "
              f"| {s['workload']['global_batch']} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("table", choices=["points", "summary", "models"])
    parser.add_argument("--cli", default=str(ROOT / "build/release/app/waferscope-cli"))
    args = parser.parse_args()
    if args.table == "models":
        models_table()
    elif args.table == "points":
        points_table(report(args.cli))
    else:
        summary_table(report(args.cli))


if __name__ == "__main__":
    main()
