#!/usr/bin/env python3
"""The TCME table of docs/validation.md section 2 ("TCME on a training step"):
`| scenario | TCME starts? | what it keeps | step time | gain |`, TCME run on the GPT-3 175B
training step of a 6x8 wafer as the links get slower.

Rows: resources/scenarios/gpt3_175b_6x8_fsdp_tatp.json as shipped (4 TB/s links); that step at
1 TB/s and at 500 GB/s with ring FSDP all-gathers (resources/scenarios/gpt3_175b_6x8_slow_links_ring.json
with `wafer.link_bandwidth` changed, written to a temporary directory); and
gpt3_175b_6x8_slow_links_ring.json as shipped (250 GB/s). Every figure is from
`waferscope-cli optimize FILE --json` (docs/cli.md section 5):
- "TCME starts?": whether it ran an iteration, and what it looked at first: the link busiest
  during a collective's critical phase (`iterations[0].phase`, docs/tcme.md "Phases"), else the
  TATP round whose links were busiest over its compute (`rounds` of
  `waferscope-cli simulate FILE --json=summary`, when that is the utilisation `before` reports),
  else the window's busiest link;
- "what it keeps": the actions of the iterations that gained, in order; when the next iteration
  looks at the same collective's phase, how long that phase became;
- "step time" and "gain": `before.step_s` -> `after.step_s`, and their ratio.
The last row, the paper's TCME ablation, is the paper's published figure (a comparison point
typed into this script, not simulated).

usage: scripts/tcme_table.py [--cli CLI]
  CLI: the waferscope-cli to run (default build/release/app/waferscope-cli)
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "resources/scenarios"
SHIPPED = SCENARIOS / "gpt3_175b_6x8_fsdp_tatp.json"
SLOW = SCENARIOS / "gpt3_175b_6x8_slow_links_ring.json"
PAPER_ROW = "| the paper's ablation (TCME on top of TATP; published, not simulated) | | | | 1.14x |"


def run(cli, *argv):
    result = subprocess.run([cli, *argv], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(argv)}: {result.stderr.strip()}")
    return json.loads(result.stdout)


def phase_us(phase):
    return (phase["to_s"] - phase["from_s"]) * 1e6


def starts(cli, path, report):
    iterations = report["iterations"]
    utilization = report["before"]["max_utilization"]
    if not iterations:
        return f"no: {utilization:.0%} busiest, below the target ({report['stop_reason']})"
    first = iterations[0]
    link = f"link {first['max_link']['from']}->{first['max_link']['to']}"
    if first.get("phase"):
        phase = first["phase"]
        return (f"yes: {link} is {first['max_utilization']:.1%} busy during the phase of "
                f"`{phase['collective']}` ({phase_us(phase):,.0f} us)")
    rounds = run(cli, "simulate", str(path), "--json=summary").get("rounds", [])
    hottest = max(rounds, key=lambda r: r["max_utilization"], default=None)
    if hottest and abs(hottest["max_utilization"] - utilization) <= 1e-9 * utilization:
        return (f"yes: TATP round {hottest['round']}'s busiest link at "
                f"{hottest['max_utilization']:.0%} of its compute")
    return f"yes: {link} {first['max_utilization']:.0%} busy over the window"


def kept(report):
    """The kept actions in order, in words."""
    words = []
    iterations = report["iterations"]
    for i, iteration in enumerate(iterations):
        if iteration["gain"] == "none":
            continue
        actions = iteration["actions"]
        kinds = [action["kind"] for action in actions]
        said = []
        for action in actions:
            kind, flow = action["kind"], action["flow"]
            if kind == "multicast" and flow == "strategy.fsdp_allgather":
                said.append("FSDP all-gathers to multicast")
            elif kind == "reduction_tree" and flow == "strategy.fsdp_reducescatter":
                said.append("FSDP gradient reduce-scatters to reduction trees")
            elif kind == "bidirectional_ring" and flow == "strategy.ring_algorithm":
                said.append("the step's rings bidirectional")
            elif kind in ("retree", "reroute"):
                continue  # counted below
            else:
                said.append(f"{kind} {flow}")
        for kind, one, many in (("retree", "a tree re-shaped", "{} trees re-shaped"),
                                ("reroute", "a reroute", "{} reroutes")):
            count = kinds.count(kind)
            if count:
                said.append(one if count == 1 else many.format(count))
        text = ", ".join(said)
        following = iterations[i + 1] if i + 1 < len(iterations) else None
        if (iteration.get("phase") and following and following.get("phase")
                and following["phase"]["collective"] == iteration["phase"]["collective"]):
            text += f" (that phase falls to {phase_us(following['phase']):,.0f} us)"
        words.append(text)
    return ", then ".join(words) if words else "nothing"


def seconds(value):
    return f"{value:.4g} s" if value < 10 else f"{value:.2f} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", default=str(ROOT / "build/release/app/waferscope-cli"))
    args = parser.parse_args()
    slow = json.loads(SLOW.read_text())
    print("| scenario | TCME starts? | what it keeps | step time | gain |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        rows = [("`gpt3_175b_6x8_fsdp_tatp.json` (4 TB/s links)", SHIPPED)]
        for bandwidth in ("1 TB/s", "500 GB/s"):
            variant = json.loads(json.dumps(slow))
            variant["wafer"]["link_bandwidth"] = bandwidth
            path = pathlib.Path(tmp) / f"slow_links_{bandwidth.replace(' ', '').replace('/', '')}.json"
            path.write_text(json.dumps(variant))
            rows.append((f"the same at {bandwidth}, ring all-gathers", path))
        rows.append(("`gpt3_175b_6x8_slow_links_ring.json` (250 GB/s, ring all-gathers)", SLOW))
        for label, path in rows:
            print(f"tcme_table: {label}", file=sys.stderr)
            report = run(args.cli, "optimize", str(path), "--json")
            before, after = report["before"]["step_s"], report["after"]["step_s"]
            gain = before / after
            gain_text = f"{gain:.4f}x" if gain < 1.01 else f"{gain:.2f}x"
            print(f"| {label} | {starts(args.cli, path, report)} | {kept(report)} "
                  f"| {seconds(before)} -> {seconds(after)} | {gain_text} |")
    print(PAPER_ROW)


if __name__ == "__main__":
    main()
