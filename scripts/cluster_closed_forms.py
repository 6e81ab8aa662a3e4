#!/usr/bin/env python3
"""The closed-form table of docs/validation.md section 9 ("GPU clusters and TPU pods: closed
forms"): `| case | closed form | closed-form value | simulated equals it |`.

Each case is the one tests/core/evaluation/cluster_test.cpp builds, written as a scenario file in
a temporary directory: a cluster without a preset (B_intra = 300 GB/s, a_intra = 1 us,
B_nic = 25 GB/s, a_inter = 2 us, N = 1 GB) or the `tpu-v5e-pod` wafer preset (50 GB/s, 1 us per
link). The closed forms are of bare links, so every tier is given `"protocols": []`, which
docs/file-format.md "Protocols" defines as the line rate with no latency of its own (the TPU
pod's preset would otherwise bring its own protocol list). The script computes each closed form
itself, simulates the case (`waferscope-cli simulate FILE --json=summary`, its `makespan_s`) and
prints "yes: X" when the two agree to 1e-6 relative, else "NO: X".

usage: scripts/cluster_closed_forms.py [--cli CLI]
  CLI: the waferscope-cli to run (default build/release/app/waferscope-cli)
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

B_INTRA, A_INTRA = 300e9, 1e-6  # bytes/s per GPU per direction through the node switch; s per link
B_NIC, A_INTER = 25e9, 2e-6  # bytes/s per GPU network card; s per link of the inter-node network
N = 1e9  # bytes, a collective's whole buffer


def cluster(nodes, gpus, inter=None):
    """A cluster of `nodes` x `gpus` at the speeds above, protocols off on both tiers."""
    inter_spec = {"kind": "rail", "nic_bandwidth": B_NIC, "latency": A_INTER, "protocols": []}
    inter_spec.update(inter or {})
    return {"cluster": {"nodes": nodes, "gpus_per_node": gpus, "gpu": {},
                        "intra": {"bandwidth": B_INTRA, "latency": A_INTRA, "protocols": []},
                        "inter": inter_spec}}


def collective(kind, group, size):
    return {"id": "op", "op": kind, "group": group, "bytes": size, "algorithm": "ring"}


def p2p(op_id, src, dst, size):
    return {"id": op_id, "op": "p2p", "src": src, "dst": dst, "bytes": size}


def cases():
    """(case, closed form as written, closed-form value in s, scenario)."""
    p = 8
    node = cluster(2, 8)
    node["traffic"] = [collective("allreduce", list(range(8)), N)]
    yield ("ring all-reduce over the 8 GPUs of one node",
           "2(P-1)/P N/B_intra + 2(P-1) x 2 a_intra",
           2 * (p - 1) / p * N / B_INTRA + 2 * (p - 1) * 2 * A_INTRA, node)

    p = 4
    rail = cluster(4, 8)
    rail["traffic"] = [collective("allgather", [0, 8, 16, 24], N)]
    yield ("ring all-gather over GPU 0 of 4 nodes (one rail)",
           "(P-1)/P N/B_nic + (P-1) x 2 a_inter",
           (p - 1) / p * N / B_NIC + (p - 1) * 2 * A_INTER, rail)
    rails = cluster(4, 8)
    rails["traffic"] = [collective("allgather", [0, 9, 18, 27], N)]
    yield ("ring all-gather over GPUs 0, 9, 18, 27 (four rails)",
           "(P-1)/P N/B_nic + (P-1) x 2 (a_inter + a_intra)",
           (p - 1) / p * N / B_NIC + (p - 1) * 2 * (A_INTER + A_INTRA), rails)

    s = 1e8
    for oversubscription, label, form in (
            (1, "fat tree, one node per leaf, 8 p2p of S = 100 MB across the spine, non-blocking",
             "S/B_nic + 4 a_inter"),
            (2, "the same, oversubscribed 2:1", "2 S/B_nic + 4 a_inter")):
        tree = cluster(2, 8, {"kind": "fat_tree", "nodes_per_leaf": 1,
                              "oversubscription": oversubscription})
        tree["traffic"] = [p2p(f"p{g}", g, 8 + g, s) for g in range(8)]
        yield label, form, oversubscription * s / B_NIC + 4 * A_INTER, tree

    p = 16
    pod = {"wafer": {"preset": "tpu-v5e-pod", "protocols": []},
           "traffic": [collective("allgather", list(range(16)), N)]}
    yield ("ring all-gather over one row of 16 chips of `tpu-v5e-pod` (50 GB/s, 1 us)",
           "(P-1)/P N/B + (P-1) a", (p - 1) / p * N / 50e9 + (p - 1) * 1e-6, pod)

    m, h, chunk = 64, 2, 1e6
    switch = cluster(1, 2)
    switch["traffic"] = [p2p("p", 0, 1, m * chunk)]
    switch["network"] = {"model": "store_and_forward", "chunk": chunk}
    yield ("store-and-forward p2p of 64 MB in 1 MB chunks through a node switch (h = 2)",
           "(m + h - 1) C/B_intra + h a_intra", (m + h - 1) * chunk / B_INTRA + h * A_INTRA,
           switch)


def fmt(seconds):
    """Milliseconds to 6 decimals, or microseconds to 3 below 1 ms, trailing zeros dropped."""
    value, unit, digits = ((seconds * 1e3, "ms", 6) if seconds >= 1e-3
                           else (seconds * 1e6, "us", 3))
    return f"{value:.{digits}f}".rstrip("0").rstrip(".") + " " + unit


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", default=str(ROOT / "build/release/app/waferscope-cli"))
    args = parser.parse_args()
    print("| case | closed form | closed-form value | simulated equals it |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "case.json"
        for label, form, expected, scenario in cases():
            print(f"cluster_closed_forms: {label}", file=sys.stderr)
            path.write_text(json.dumps(scenario))
            run = subprocess.run([args.cli, "simulate", str(path), "--json=summary"],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"{label}: {run.stderr.strip()}")
            simulated = json.loads(run.stdout)["makespan_s"]
            agrees = abs(simulated - expected) <= 1e-6 * abs(expected)
            print(f"| {label} | {form} | {fmt(expected)} | "
                  f"{'yes' if agrees else 'NO'}: {fmt(simulated)} |")


if __name__ == "__main__":
    main()
