#!/usr/bin/env bash
# The table of docs/search.md: for GPT-3 175B, Llama 2 70B and GPT-3 6.7B on the 6x8 wafer, the
# best strategy the search finds against each baseline (step time, tokens/s, memory per die).
# Usage: scripts/search_table.sh [--cli CLI] [extra search options, e.g. --threads 2 --seed 1]
# (CLI: build/release/app/waferscope-cli unless given; scripts/update_doc_tables.py passes it.)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cli="$here/build/release/app/waferscope-cli"
options=()
while [ $# -gt 0 ]; do
    if [ "$1" = "--cli" ]; then cli="$2"; shift 2; else options+=("$1"); shift; fi
done
set -- "${options[@]}"
command -v jq >/dev/null || { echo "search_table.sh needs jq" >&2; exit 2; }

echo "| Model | System | Strategy | Step (s) | Tokens/s | Memory/die (GB) | Best is faster by |"
echo "|---|---|---|---|---|---|---|"
for scenario in gpt3_175b_6x8_fsdp_tatp llama2_70b_6x8_search gpt3_6_7b_6x8_search; do
    "$cli" search "$here/resources/scenarios/$scenario.json" --json "$@" 2>/dev/null | jq -r '
      def row($model; $system; $s; $speedup):
        "| \($model) | \($system) | \($s.label) | \($s.simulated_step_s * 1000 | round / 1000) | " +
        "\($s.tokens_per_second | round) | \($s.memory_per_die_bytes / 1e9 * 100 | round / 100)" +
        "\(if $s.fits_in_sram then " (SRAM)" else "" end) | \($speedup) |";
      .best as $best
      | row("'"$scenario"'"; "search (best)"; $best; "-"),
        (.baselines[] | if .score == null then
           "| '"$scenario"' | \(.name) | \(.why_not) | - | - | - | - |"
         else row("'"$scenario"'"; .name; .score; "\(.speedup_of_best * 100 | round / 100)x") end)'
done
