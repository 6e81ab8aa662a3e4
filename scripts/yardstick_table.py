#!/usr/bin/env python3
"""The yardstick table of docs/validation.md section 2, subsection "The all-gather yardstick
against a collective synthesizer" (the same figures as docs/tcme.md "The yardstick" and
"Reduction trees: the mirror image"): TCME on an all-gather and a reduce-scatter over every die
of a mesh, 1 MiB per die, 50 GiB/s and 0.5 us per hop.

Each row is `waferscope-cli optimize FILE --json` on resources/scenarios/allgather_yardstick_8x8.json
or reducescatter_trees_8x8.json, or on a variant written to a temporary directory: the 16x16
mesh (every die in the group, 256 MiB: still 1 MiB per die), the store-and-forward model with
256 KiB chunks, and "bare links" (`wafer.protocols: []`, docs/file-format.md "Protocols": the
line rate with no latency of its own, as the synthesizer's figures assume), as the shipped files
are; the "d2d" rows drop that key, so that the wafer's default protocol applies
(docs/network-model.md section 4.8).
Columns: the ring (`before.makespan_s`), TCME's first iteration (its action) and TCME's end
(`after.makespan_s`), the busiest link at the end in shards (`after.max_link_bytes` over a
shard's bytes on the wire), and the bound: (P - 1) / 2 shards over the links' rate, plus the
latency of the 2 (n - 1) hops to the farthest die and the protocol's latency. The protocol's
latency and efficiency are measured, not typed in: a 1 MiB p2p over one link of a 1x2 wafer
with the same `wafer` takes L + S / (e B) + a and puts S / e on the link. The last column is
the synthesizer's published figure (TACOS, Won et al., MICRO 2024), fixed data, not simulated.

usage: scripts/yardstick_table.py [--cli CLI]
  CLI: the waferscope-cli to run (default build/release/app/waferscope-cli)
"""
import argparse
import copy
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "resources/scenarios"
MIB = 1 << 20
TACOS_PUBLISHED = {("all-gather", 8): "about 641 us", ("all-gather", 16): "about 2,564 us"}

# (collective, file, mesh edge, links, network model)
ROWS = [
    ("all-gather", "allgather_yardstick_8x8.json", 8, "bare", "fluid"),
    ("all-gather", "allgather_yardstick_8x8.json", 8, "d2d", "fluid"),
    ("all-gather", "allgather_yardstick_8x8.json", 16, "bare", "fluid"),
    ("reduce-scatter", "reducescatter_trees_8x8.json", 8, "bare", "fluid"),
    ("reduce-scatter", "reducescatter_trees_8x8.json", 8, "d2d", "fluid"),
    ("reduce-scatter", "reducescatter_trees_8x8.json", 8, "bare", "store-and-forward"),
    ("reduce-scatter", "reducescatter_trees_8x8.json", 16, "bare", "fluid"),
]
LINKS = {"bare": "bare (`protocols: []`, as shipped)", "d2d": "the wafer's default protocol"}
FIRST_STEP = {"multicast": "XY trees", "reduction_tree": "XY reduction trees"}


class Cli:
    def __init__(self, cli, tmp):
        self.cli, self.path = cli, pathlib.Path(tmp) / "scenario.json"

    def run(self, scenario, *command):
        self.path.write_text(json.dumps(scenario))
        run = subprocess.run([self.cli, *command[:1], str(self.path), *command[1:]],
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"{' '.join(command)}: {run.stderr.strip()}")
        return json.loads(run.stdout)

    def protocol(self, wafer):
        """(latency s, efficiency) of a 1 MiB transfer over one link of this wafer's links."""
        probe = {"wafer": dict(wafer, rows=1, cols=2),
                 "traffic": [{"id": "p", "op": "p2p", "src": 0, "dst": 1, "bytes": MIB}]}
        report = self.run(probe, "simulate", "--json=summary")
        efficiency = MIB / report["links"][0]["bytes"]
        latency = (report["makespan_s"] - MIB / efficiency / bandwidth(wafer)
                   - seconds(wafer["link_latency"]))
        return max(latency, 0.0), efficiency


def bandwidth(wafer):
    value, unit = wafer["link_bandwidth"].split()
    assert unit == "GiB/s", unit
    return float(value) * (1 << 30)


def seconds(text):
    value, unit = text.split()
    return float(value) * {"us": 1e-6, "ns": 1e-9, "ms": 1e-3, "s": 1.0}[unit]


def us(value):
    value *= 1e6
    return f"{value:,.1f} us" if value < 1000 else f"{value:,.0f} us"


def scenario_for(file, n, links, model):
    scenario = copy.deepcopy(json.loads((SCENARIOS / file).read_text()))
    if n != 8:
        scenario["wafer"].update(rows=n, cols=n)
        scenario["traffic"][0].update(group=list(range(n * n)), bytes=f"{n * n} MiB")
    if links == "bare":
        scenario["wafer"]["protocols"] = []
    else:
        scenario["wafer"].pop("protocols", None)
    if model == "store-and-forward":
        scenario["network"] = {"model": "store_and_forward", "chunk": "256 KiB"}
    return scenario


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", default=str(ROOT / "build/release/app/waferscope-cli"))
    args = parser.parse_args()
    print("| collective | mesh | links | model | ring | TCME's first step | TCME's end "
          "| busiest link at the end | bound | TACOS (published, not simulated) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        cli = Cli(args.cli, tmp)
        for collective, file, n, links, model in ROWS:
            print(f"yardstick_table: {collective} {n}x{n}, {links} links, {model}",
                  file=sys.stderr)
            scenario = scenario_for(file, n, links, model)
            wafer = scenario["wafer"]
            latency, efficiency = cli.protocol(wafer)
            report = cli.run(scenario, "optimize", "--json")
            first = report["iterations"][0]
            kinds = sorted({action["kind"] for action in first["actions"]})
            step = ", ".join(FIRST_STEP.get(kind, kind) for kind in kinds) or "no change"
            shard_on_wire = MIB / efficiency
            shards = report["after"]["max_link_bytes"] / shard_on_wire
            p = n * n
            bound = (latency + (p - 1) / 2 * shard_on_wire / bandwidth(wafer)
                     + 2 * (n - 1) * seconds(wafer["link_latency"]))
            print(f"| {collective} | {n}x{n} | {LINKS[links]} | {model} "
                  f"| {us(report['before']['makespan_s'])} "
                  f"| {us(first['makespan_s'])} ({step}) | {us(report['after']['makespan_s'])} "
                  f"| {shards:g} shards | {us(bound) if model == 'fluid' else ''} "
                  f"| {TACOS_PUBLISHED.get((collective, n), '') if links == 'bare' else ''} |")


if __name__ == "__main__":
    main()
