#!/usr/bin/env python3
"""The table of docs/search.md "Measured": the strategy search's speed and its analytical
model's agreement with the simulator, from benchmarks/search_benchmarks (Google Benchmark's
JSON output). The benchmarks binary is the one beside the CLI's build:
build/release/benchmarks/search_benchmarks for build/release/app/waferscope-cli.

usage: scripts/search_benchmark_table.py [--cli build/release/app/waferscope-cli]
"""
import argparse
import json
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", default=str(ROOT / "build/release/app/waferscope-cli"))
    args = parser.parse_args()
    binary = pathlib.Path(args.cli).resolve().parent.parent / "benchmarks/search_benchmarks"
    run = subprocess.run([str(binary), "--benchmark_format=json"], capture_output=True,
                         text=True, check=True)
    results = {b["name"].split("/")[0]: b for b in json.loads(run.stdout)["benchmarks"]}
    per_core = results["BM_AnalyticEvaluationsPerCore"]
    search = results["BM_Gpt3FullSearchTwoThreads"]
    rank = results["BM_RankAgreement200"]
    print("| Benchmark | Result |")
    print("|---|---|")
    print(f"| analytical evaluations, one core (GPT-3 175B, 6x8) "
          f"| {per_core['evals_per_s']:,.0f}/s of CPU time; target 10,000 |")
    print(f"| full search, GPT-3 175B, 6x8, 2 threads, budget 2000 "
          f"| {search['real_time']:.2f} s wall (target < 10 s); best simulated step "
          f"{search['best_step_s']:.3f} s |")
    print(f"| rank agreement, {rank['samples']:.0f} random valid strategies of GPT-3 175B on 6x8 "
          f"| Spearman r = {rank['spearman']:.4f}; mean relative error "
          f"{rank['mean_rel_error'] * 100:.2f}%, max {rank['max_rel_error'] * 100:.1f}% |")


if __name__ == "__main__":
    main()
