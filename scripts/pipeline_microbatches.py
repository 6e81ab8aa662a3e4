#!/usr/bin/env python3
"""The micro-batch table of docs/validation.md section 8 ("Pipeline stages between wafers"):
GPT-3 175B on four 6x8 wafers, one pipeline stage per wafer
(resources/scenarios/gpt3_175b_four_6x8_wafers_pp4.json), with strategy.micro_batches set to
4, 8, 16, 32 and 64 in temporary copies. Prints

  | micro-batches m | step | bubble (simulated) | (p - 1)/(m + p - 1) | tokens/s | memory per die |

every figure from `waferscope-cli simulate --json=summary`: step.step_s,
step.pp_bubble_fraction, step.tokens_per_s, and the largest dies[].memory.total_bytes; the
closed form uses the report's step.pp.

usage: scripts/pipeline_microbatches.py [--cli CLI]
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "resources/scenarios/gpt3_175b_four_6x8_wafers_pp4.json"
MICRO_BATCHES = (4, 8, 16, 32, 64)


def tokens(value):
    """Four significant figures, thousands separated: 87,310."""
    digits = max(0, len(str(int(value))) - 4)
    return f"{round(value, -digits):,.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", default=str(ROOT / "build/release/app/waferscope-cli"))
    args = parser.parse_args()
    base = json.loads(SCENARIO.read_text())
    print("| micro-batches m | step | bubble (simulated) | (p - 1)/(m + p - 1) | tokens/s "
          "| memory per die |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "point.json"
        for m in MICRO_BATCHES:
            scenario = json.loads(json.dumps(base))
            scenario["strategy"]["micro_batches"] = m
            path.write_text(json.dumps(scenario))
            print(f"micro_batches {m}", file=sys.stderr)
            run = subprocess.run([args.cli, "simulate", str(path), "--json=summary"],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"micro_batches {m}: exit {run.returncode}\n{run.stderr}")
            report = json.loads(run.stdout)
            step = report["step"]
            p = step["pp"]
            memory = max(die["memory"]["total_bytes"] for die in report["dies"] if "memory" in die)
            print(f"| {m} | {step['step_s']:.2f} s | {step['pp_bubble_fraction'] * 100:.1f}% "
                  f"| {(p - 1) / (m + p - 1) * 100:.1f}% | {tokens(step['tokens_per_s'])} "
                  f"| {memory / 1e9:.1f} GB |")


if __name__ == "__main__":
    main()
