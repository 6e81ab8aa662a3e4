#!/usr/bin/env bash
# Runs the scripted user sessions (tests/sessions) in a real X window: under Xvfb when
# xvfb-run is installed (scripts/install-deps.sh installs it), else offscreen; and offscreen
# when WAFERSCOPE_SESSION_PLATFORM=offscreen (the sanitizer build).
#   run-sessions.sh BINARY SHOTS_DIR [GoogleTest arguments...]
set -euo pipefail
binary="$1"
export WAFERSCOPE_SESSION_SHOTS="$2"
shift 2
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
# Settings apart from the user's (recent files, window layout).
export XDG_CONFIG_HOME="$(mktemp -d)"
if [ "${WAFERSCOPE_SESSION_PLATFORM:-}" != offscreen ] && command -v xvfb-run >/dev/null; then
  QT_QPA_PLATFORM=xcb exec xvfb-run -a -s "-screen 0 1600x1000x24" "$binary" "$@"
fi
QT_QPA_PLATFORM=offscreen exec "$binary" "$@"
