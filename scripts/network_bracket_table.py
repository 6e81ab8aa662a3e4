#!/usr/bin/env python3
"""The two tables of docs/validation.md section 5 ("The network model's bracket: fluid against
store-and-forward"), every time from `waferscope-cli simulate FILE --compare-modes --json`.

  patterns  "The textbook 8x8 patterns": one 1 MiB message per source (uniform all-to-all: to
            every other node) on an 8x8 mesh at 4 TB/s and 200 ns per hop, XY routing, node id
            x + 8 y, the destinations of docs/network-model.md section 9.3; each pattern run with
            store-and-forward chunks of 64 KiB and of 1 MiB. The hottest link's messages are the
            most flows crossing one link (`simulate --json=summary`). The last column, the
            packet-level reference, is published comparison data typed into this script, not
            simulated.
  line      "Ring against the bidirectional relay on a line": one GEMM O = I W with m = 16384,
            k = 8192, n = 8192 on a 1x8 line, tatp 8, compute made negligible (peak 10^6 TFLOP/s,
            task_overhead 0), network.chunk 64 MiB (a whole block per chunk), for
            strategy.tatp_schedule "bidirectional" (the relay) and "ring" (the naive ring), with
            double buffering on and off. wafer.die.sram is set to 1 GB: a die's working set
            (128 MiB double-buffered, 112 MiB single-buffered) must fit in its usable SRAM
            (sram x 0.9, so sram of at least 149.2 MB; every size from there up gives the same
            times) or the die reads its blocks from HBM and the times are no longer the links';
            the default 80 MB does not hold it.

The links are bare by default: `wafer.protocols` is `[]` (docs/file-format.md "Protocols": the
line rate, no latency of its own), since the section measures the network models themselves.
`--protocols default` leaves the key out instead, so every message and TATP transfer also runs
with the wafer's default protocol (1 us, 92% of the line rate; docs/network-model.md section 4.8).

usage: scripts/network_bracket_table.py patterns|line [--protocols none|default] [--cli CLI]
  CLI: the waferscope-cli to run (default build/release/app/waferscope-cli)
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
K = 8
MIB = 1 << 20

# Published packet-level simulation figures set beside the simulated ones (fixed data, not
# simulated): the comparison column of the patterns table.
PACKET_LEVEL_REFERENCE = {"neighbour": "", "transpose": "+0.5%", "bit-complement": "+64%",
                          "tornado": "+142%", "uniform all-to-all": "+35%"}


def node(x, y):
    return x + K * y


def pattern_pairs(name):
    """(src, dst) pairs of one message each, docs/network-model.md section 9.3."""
    cells = [(x, y) for y in range(K) for x in range(K)]
    if name == "uniform all-to-all":
        return [(node(*s), node(*d)) for s in cells for d in cells if s != d]
    dst = {
        "neighbour": lambda x, y: ((x + 1) % K, (y + 1) % K),
        "transpose": lambda x, y: (y, x),
        "bit-complement": lambda x, y: (K - 1 - x, K - 1 - y),
        "tornado": lambda x, y: ((x + K // 2 - 1) % K, (y + K // 2 - 1) % K),
    }[name]
    return [(node(x, y), node(*dst(x, y))) for x, y in cells if dst(x, y) != (x, y)]


class Cli:
    def __init__(self, cli, tmp):
        self.cli, self.path = cli, pathlib.Path(tmp) / "scenario.json"

    def run(self, scenario, *options):
        self.path.write_text(json.dumps(scenario))
        run = subprocess.run([self.cli, "simulate", str(self.path), *options],
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"{scenario.get('name', '')}: {run.stderr.strip()}")
        return json.loads(run.stdout)

    def compare(self, scenario):
        """(fluid seconds, store-and-forward seconds, their ratio)."""
        report = self.run(scenario, "--compare-modes", "--json")
        modes = {mode["model"]: mode for mode in report["modes"]}

        def time(mode):
            return mode["step_s"] if mode["step_s"] is not None else mode["makespan_s"]

        return time(modes["fluid"]), time(modes["store_and_forward"]), report["ratio"]


def us(seconds):
    """Microseconds to 4 significant figures, as the page writes them."""
    value = seconds * 1e6
    digits = max(0, 3 - len(str(int(value))) + 1) if value >= 1 else 3
    return f"{value:,.{digits}f} us"


def with_protocols(wafer, protocols):
    if protocols == "none":
        wafer["protocols"] = []
    return wafer


def patterns(cli, protocols):
    print("| pattern | flows | hottest link (messages) | fluid | store-and-forward, 64 KiB chunks "
          "| ratio | store-and-forward, 1 MiB chunks | ratio | packet-level reference "
          "(published, not simulated) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in PACKET_LEVEL_REFERENCE:
        print(f"network_bracket_table: {name}", file=sys.stderr)
        pairs = pattern_pairs(name)
        scenario = {"name": name,
                    "wafer": with_protocols({"rows": K, "cols": K}, protocols),
                    "traffic": [{"id": f"m{i}", "op": "p2p", "src": s, "dst": d, "bytes": "1 MiB"}
                                for i, (s, d) in enumerate(pairs)],
                    "network": {"model": "fluid", "chunk": "64 KiB"}}
        hottest = max(link["flows"] for link in cli.run(scenario, "--json=summary")["links"])
        fluid, small, small_ratio = cli.compare(scenario)
        scenario["network"]["chunk"] = "1 MiB"
        fluid_again, whole, whole_ratio = cli.compare(scenario)
        assert fluid_again == fluid
        print(f"| {name} | {len(pairs):,} | {hottest} | {us(fluid)} | {us(small)} | "
              f"{small_ratio:.3f} | {us(whole)} | {whole_ratio:.3f} | "
              f"{PACKET_LEVEL_REFERENCE[name]} |")


def line(cli, protocols):
    print("| schedule | double buffering | fluid | store-and-forward | ratio |")
    print("|---|---|---|---|---|")
    for double_buffering in (True, False):
        for schedule, label in (("bidirectional", "bidirectional relay"), ("ring", "naive ring")):
            print(f"network_bracket_table: {label}, double buffering {double_buffering}",
                  file=sys.stderr)
            scenario = {
                "name": f"{label}, double buffering {double_buffering}",
                "wafer": with_protocols({"rows": 1, "cols": 8,
                                         "die": {"peak_flops": "1000 PFLOP/s",
                                                 "task_overhead": 0, "sram": "1 GB"}},
                                        protocols),
                "workload": {"kind": "gemm", "m": 16384, "k": 8192, "n": 8192},
                "strategy": {"tatp": 8, "tatp_schedule": schedule,
                             "double_buffering": double_buffering},
                "network": {"model": "fluid", "chunk": "64 MiB"}}
            fluid, stored, ratio = cli.compare(scenario)
            print(f"| {label} | {'yes' if double_buffering else 'no'} | {us(fluid)} | "
                  f"{us(stored)} | {ratio:.3f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("table", choices=("patterns", "line"))
    parser.add_argument("--protocols", choices=("none", "default"), default="none")
    parser.add_argument("--cli", default=str(ROOT / "build/release/app/waferscope-cli"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        {"patterns": patterns, "line": line}[args.table](Cli(args.cli, tmp), args.protocols)


if __name__ == "__main__":
    main()
