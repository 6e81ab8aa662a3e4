#!/usr/bin/env python3
"""The two tables of docs/validation.md section 11 ("The wafer against a GPU cluster of equal
peak compute"), every figure from `waferscope-cli simulate --json=summary`:

  | system | peak | strategy | step | tokens/s | MFU | energy |

  175b   GPT-3 175B: resources/validation/comparison/gpt3_175b_wafer_6x8.json,
         gpt3_175b_wafer_6x8_a100_efficiency.json, gpt3_175b_dgx_a100_160gpu_searched.json and
         gpt3_175b_dgx_a100_160gpu.json.
  13b    GPT-3 13B: gpt3_13b_wafer_4x8_312tf.json, gpt3_13b_wafer_4x8_312tf_a100_efficiency.json,
         gpt3_13b_dgx_a100_32gpu_searched.json and resources/scenarios/gpt3_13b_dgx_a100_32gpu.json.

The *_a100_efficiency rows run the wafer at the A100's efficiency as the cluster preset holds it
today (docs/hardware.md section 5), not as the file writes it: the script reads it with
`waferscope-cli validate-model` on a one-point suite whose calibration point is the table's
cluster scenario (the suite's `calibrated_efficiency` is that scenario's GPU efficiency; its
placeholder `published` is not used), and sets `wafer.die.efficiency` to it in a temporary copy.
It says on stderr when the shipped file disagrees. Peak is achieved FLOP/s over MFU; the strategy
is the report's label.

usage: scripts/wafer_vs_cluster.py 175b|13b [--cli CLI]
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
COMPARISON = ROOT / "resources/validation/comparison"
TABLES = {
    # wafer at efficiency 1, the same wafer at the A100's efficiency, [(cluster file, label)],
    # energy unit
    "175b": ("gpt3_175b_wafer_6x8.json", "gpt3_175b_wafer_6x8_a100_efficiency.json",
             [(COMPARISON / "gpt3_175b_dgx_a100_160gpu_searched.json", "the search's best"),
              (COMPARISON / "gpt3_175b_dgx_a100_160gpu.json", "Megatron-LM's layout")], "MJ"),
    "13b": ("gpt3_13b_wafer_4x8_312tf.json", "gpt3_13b_wafer_4x8_312tf_a100_efficiency.json",
            [(COMPARISON / "gpt3_13b_dgx_a100_32gpu_searched.json", "the search's best"),
             (ROOT / "resources/scenarios/gpt3_13b_dgx_a100_32gpu.json",
              "Megatron-LM's layout (`resources/scenarios/gpt3_13b_dgx_a100_32gpu.json`)")],
            "kJ"),
}


def run(cli, *args):
    print("waferscope-cli " + " ".join(str(a) for a in args), file=sys.stderr)
    result = subprocess.run([cli, *map(str, args)], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"waferscope-cli {' '.join(map(str, args))}: exit {result.returncode}\n"
                 f"{result.stderr}")
    return json.loads(result.stdout)


def gpu_efficiency(cli, scenario, tmp):
    """The GPU efficiency the cluster scenario simulates with (its preset's unless it says)."""
    suite = tmp / "suite.json"
    suite.write_text(json.dumps({
        "format": "waferscope.validation", "version": 1,
        "name": "the cluster scenario's GPU efficiency", "calibration": "cluster",
        "points": [{"id": "cluster", "scenario": str(scenario.resolve()), "metric": "step_s",
                    "published": 1, "source": "placeholder: only calibrated_efficiency is read"}]}))
    return run(cli, "validate-model", suite, "--json")["calibrated_efficiency"]


def tokens(value):
    """Four significant figures, thousands separated: 29,780."""
    digits = max(0, len(str(int(value))) - 4)
    return f"{round(value, -digits):,.0f}"


def row(label, report, unit):
    step = report["step"]
    peak = step["achieved_flops_per_s"] / step["mfu"]
    energy = report["energy_j"] / {"MJ": 1e6, "kJ": 1e3}[unit]
    energy = f"{energy:.3f} MJ" if unit == "MJ" else f"{energy:.1f} kJ"
    return (f"| {label} | {peak / 1e15:.1f} PFLOP/s | {step['strategy']} | {step['step_s']:.4g} s "
            f"| {tokens(step['tokens_per_s'])} | {step['mfu'] * 100:.1f}% | {energy} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("table", choices=sorted(TABLES))
    parser.add_argument("--cli", default=str(ROOT / "build/release/app/waferscope-cli"))
    args = parser.parse_args()
    wafer_file, matched_file, clusters, unit = TABLES[args.table]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        efficiency = gpu_efficiency(args.cli, clusters[0][0], tmp)

        wafer = json.loads((COMPARISON / wafer_file).read_text())
        w, die = wafer["wafer"], wafer["wafer"]["die"]
        rows = [row(f"{w['rows']}x{w['cols']} wafer, {die['peak_flops']} dies, efficiency "
                    f"{die.get('efficiency', 1):g}", run(args.cli, "simulate",
                                                         COMPARISON / wafer_file,
                                                         "--json=summary"), unit)]

        matched = json.loads((COMPARISON / matched_file).read_text())
        shipped = matched["wafer"]["die"].get("efficiency")
        if shipped != efficiency:
            print(f"note: {matched_file} sets wafer.die.efficiency {shipped}; the A100's is "
                  f"{efficiency:g} now, which the table uses", file=sys.stderr)
        matched["wafer"]["die"]["efficiency"] = efficiency
        path = tmp / matched_file
        path.write_text(json.dumps(matched))
        rows.append(row(f"the same wafer at the A100's efficiency, {efficiency:g}",
                        run(args.cli, "simulate", path, "--json=summary"), unit))

        for scenario, how in clusters:
            report = run(args.cli, "simulate", scenario, "--json=summary")
            cluster = report["hardware"]["cluster"]
            gpus = cluster["nodes"] * cluster["gpus_per_node"]
            rows.append(row(f"{gpus} A100 ({cluster['nodes']} nodes), {how}", report, unit))

    print("| system | peak | strategy | step | tokens/s | MFU | energy |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
