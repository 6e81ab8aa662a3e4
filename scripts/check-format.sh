#!/usr/bin/env bash
# Fails when a tracked *.cpp or *.h file is not formatted as .clang-format says, and lists the
# files. Fix them with `clang-format -i FILE...`. Only tracked files are checked (git ls-files),
# so build directories and generated headers never count.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v clang-format >/dev/null; then
  echo "check-format: clang-format not found (scripts/install-deps.sh installs it)" >&2
  exit 1
fi

unformatted=()
while IFS= read -r -d '' file; do
  [[ -f "$file" ]] || continue # deleted in the work tree, not yet committed
  # --dry-run -Werror: exit status non-zero when formatting would change the file.
  if ! clang-format --dry-run -Werror "$file" >/dev/null 2>&1; then
    unformatted+=("$file")
  fi
done < <(git ls-files -z -- '*.cpp' '*.h')

if ((${#unformatted[@]} > 0)); then
  echo "check-format: ${#unformatted[@]} file(s) not clang-formatted:" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  echo "check-format: run clang-format -i on them" >&2
  exit 1
fi
echo "check-format: all tracked C++ files are clang-formatted"
