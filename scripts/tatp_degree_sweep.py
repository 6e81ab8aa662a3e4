#!/usr/bin/env python3
"""The TATP degree sweeps of docs/validation.md section 1: every degree that divides 48 dies,
dp = 48 / tatp, on a shipped 6x8 scenario, under both readings of the paper's link bandwidth
(4 TB/s per link, and 4 TB/s per die shared by its four edges: 1 TB/s per link). Prints one
Markdown table, a column per degree; every figure from `waferscope-cli simulate --json`.

    scripts/tatp_degree_sweep.py gemm [--cli CLI]   one linear layer (per-link reading only:
                                                    both readings give the same times)
    scripts/tatp_degree_sweep.py step [--cli CLI]   a GPT-3 175B training step
"""
import argparse
import copy
import json
import pathlib
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCENARIOS = {
    "gemm": ROOT / "resources/scenarios/gemm_gpt3_175b_mlp_6x8.json",
    "step": ROOT / "resources/scenarios/gpt3_175b_6x8_fsdp_tatp.json",
}
DEGREES = (1, 2, 4, 6, 8, 12, 16, 24, 48)


def simulate(cli, base, tatp, bandwidth, path):
    scenario = copy.deepcopy(base)
    scenario["strategy"].update({"tatp": tatp, "dp": 48 // tatp})
    scenario["wafer"]["link_bandwidth"] = bandwidth
    scenario.pop("routing", None)  # pinned routes belong to the shipped strategy
    path.write_text(json.dumps(scenario))
    run = subprocess.run([cli, "simulate", str(path), "--json"], capture_output=True, text=True)
    return json.loads(run.stdout)["step"] if run.returncode == 0 else None


def table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|---" * len(header) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("which", choices=sorted(SCENARIOS))
    parser.add_argument("--cli", default=str(ROOT / "build/release/app/waferscope-cli"))
    args = parser.parse_args()
    base = json.loads(SCENARIOS[args.which].read_text())
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "point.json"
        bandwidths = ("4 TB/s",) if args.which == "gemm" else ("4 TB/s", "1 TB/s")
        steps = {(b, t): simulate(args.cli, base, t, b, path) for b in bandwidths
                 for t in DEGREES}
    degrees = [t for t in DEGREES if all(steps[(b, t)] for b in bandwidths)]
    fastest = {b: min(degrees, key=lambda t: steps[(b, t)]["step_s"]) for b in bandwidths}

    def row(label, bandwidth, value, scale, digits):
        cells = [label]
        for t in degrees:
            text = f"{value(steps[(bandwidth, t)]) * scale:.{digits}f}"
            cells.append(f"**{text}**" if label.startswith("step") and
                         fastest[bandwidth] == t else text)
        return cells

    breakdown = lambda key: (lambda step: step["breakdown"][key])  # noqa: E731
    header = ["tatp"] + [str(t) for t in degrees]
    if args.which == "gemm":
        table(header, [
            row("step (ms)", "4 TB/s", lambda s: s["step_s"], 1e3, 3),
            row("HBM stalls (ms)", "4 TB/s", breakdown("hbm_stall_s"), 1e3, 3),
            row("task overhead (ms)", "4 TB/s", breakdown("overhead_s"), 1e3, 3)])
    else:
        table(header, [
            row("step at 4 TB/s per link (s)", "4 TB/s", lambda s: s["step_s"], 1, 3),
            row("step at 1 TB/s per link (s)", "1 TB/s", lambda s: s["step_s"], 1, 3),
            row("compute at the array's rate (s)", "4 TB/s", breakdown("compute_s"), 1, 3),
            row("HBM stalls at 4 TB/s (s)", "4 TB/s", breakdown("hbm_stall_s"), 1, 3),
            row("exposed communication at 4 TB/s (s)", "4 TB/s", breakdown("exposed_s"), 1, 3),
            row("exposed communication at 1 TB/s (s)", "1 TB/s", breakdown("exposed_s"), 1, 3),
            row("largest working set (MB)", "4 TB/s",
                lambda s: s["sram"]["largest_working_set_bytes"], 1e-6, 0)])


if __name__ == "__main__":
    main()
