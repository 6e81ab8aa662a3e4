#!/usr/bin/env python3
"""The TATP degree sweep of docs/validation.md: every degree that divides 48 dies, dp = 48 / tatp,
on a shipped 6x8 scenario, under both readings of the paper's link bandwidth (4 TB/s per link,
and 4 TB/s per die shared by its four edges: 1 TB/s per link). Prints one line per point, all
figures from `waferscope-cli simulate --json`.

    scripts/tatp_degree_sweep.py build/release/app/waferscope-cli gemm
    scripts/tatp_degree_sweep.py build/release/app/waferscope-cli step
"""
import copy
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCENARIOS = {
    "gemm": ROOT / "resources/scenarios/gemm_gpt3_175b_mlp_6x8.json",
    "step": ROOT / "resources/scenarios/gpt3_175b_6x8_fsdp_tatp.json",
}


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in SCENARIOS:
        sys.exit(__doc__)
    cli, which = sys.argv[1], sys.argv[2]
    base = json.loads(SCENARIOS[which].read_text())
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "point.json"
        for bandwidth in ("4 TB/s", "1 TB/s"):
            for tatp in (1, 2, 4, 6, 8, 12, 16, 24, 48):
                scenario = copy.deepcopy(base)
                scenario["strategy"].update({"tatp": tatp, "dp": 48 // tatp})
                scenario["wafer"]["link_bandwidth"] = bandwidth
                scenario.pop("routing", None)  # pinned routes belong to the shipped strategy
                path.write_text(json.dumps(scenario))
                run = subprocess.run([cli, "simulate", str(path), "--json"],
                                     capture_output=True, text=True)
                if run.returncode != 0:
                    print(f"link {bandwidth} tatp {tatp:2d}: {run.stderr.strip()}")
                    continue
                step = json.loads(run.stdout)["step"]
                b, tasks = step["breakdown"], step["tasks"]
                print(f"link {bandwidth} tatp {tatp:2d} dp {48 // tatp:2d}: "
                      f"step {step['step_s'] * 1e3:10.3f} ms  MFU {step['mfu'] * 100:5.1f}%  "
                      f"compute {b['compute_s'] * 1e3:.3f}  HBM stalls {b['hbm_stall_s'] * 1e3:.3f}  "
                      f"overhead {b['overhead_s'] * 1e3:.3f}  optimizer {b['optimizer_s'] * 1e3:.3f}  "
                      f"exposed {b['exposed_s'] * 1e3:.3f} ms  "
                      f"{tasks['memory_bound'] / tasks['total'] * 100:.1f}% of "
                      f"{tasks['total']:.4g} tasks memory-bound")


if __name__ == "__main__":
    main()
