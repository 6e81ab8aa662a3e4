#!/usr/bin/env bash
# Builds WaferScope (release preset) and opens the desktop app on the FSDP/TATP contention
# teaching example (or on the scenario FILE given). On a machine without a display it says so
# and falls back to an offscreen screenshot of the window after two TCME steps, plus the CLI's
# report of the same example, instead of failing.
set -euo pipefail
cd "$(dirname "$0")/.."

cmake --preset release >/dev/null
cmake --build --preset release

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec ./build/release/app/waferscope "$@"
fi

scenario="${1:-resources/scenarios/contention_fsdp_tatp_4x4.json}"
echo "waferscope: no display (DISPLAY and WAYLAND_DISPLAY are unset); rendering the window"
echo "offscreen to waferscope-screenshot.png and printing the CLI report instead."
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
QT_QPA_PLATFORM=offscreen ./build/release/app/waferscope "$scenario" --tcme-steps 2 \
  --screenshot waferscope-screenshot.png 2> >(grep -v propagateSizeHints >&2)
./build/release/app/waferscope-cli simulate "$scenario"
./build/release/app/waferscope-cli optimize "$scenario"
