#!/usr/bin/env bash
# Sweeps the TATP degree on one GPT-3 175B linear layer (the MLP up-projection's forward pass)
# on the 6x8 wafer, through the CLI: for each degree, dp fills the wafer (dp = 48 / tatp, or 1
# when tatp does not divide 48) and the step is simulated with both TATP schedules.
# Usage: scripts/tatp_sweep.sh [path/to/waferscope-cli]
set -euo pipefail
cli=${1:-build/release/app/waferscope-cli}
template=resources/scenarios/gemm_gpt3_175b_mlp_6x8.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '%5s %3s %5s %14s %14s %8s %12s  %s\n' tatp dp dies "bidirectional" "ring" "MFU" "memory/die" "SRAM (80 MB)"
for tatp in 2 3 4 6 8 12 16 24 32; do
  dp=$((48 % tatp == 0 ? 48 / tatp : 1))
  row=()
  for schedule in bidirectional ring; do
    file="$work/sweep_${tatp}_${schedule}.json"
    sed -e "s/\"dp\": 6/\"dp\": $dp/" -e "s/\"tatp\": 8/\"tatp\": $tatp/" \
        -e "s/\"double_buffering\": true/\"double_buffering\": true, \"tatp_schedule\": \"$schedule\"/" \
        "$template" > "$file"
    report=$("$cli" simulate "$file")
    step=$(sed -n 's/^step: *\([^(]*\).*/\1/p' <<<"$report" | xargs)
    row+=("$step")
    if [ "$schedule" = bidirectional ]; then
      mfu=$(sed -n 's/.*MFU \([0-9.]*%\).*/\1/p' <<<"$report")
      memory=$(sed -n 's/^memory: *\([^ ]* [^ ]*\) per die.*/\1/p' <<<"$report")
      fit=$(grep -A1 '^memory:' <<<"$report" | tail -n 1 | xargs)
    fi
  done
  printf '%5s %3s %5s %14s %14s %8s %12s  %s\n' "$tatp" "$dp" "$((dp * tatp))" "${row[0]}" "${row[1]}" \
    "$mfu" "$memory" "$fit"
done
