#!/usr/bin/env python3
"""Regenerates the tables of docs/ from the scripts named beside them (docs/validation.md, "How
the tables are made").

A generated table is preceded by a line naming the command that prints it, shown on the page:

    *Table: `scripts/tcme_table.py`*

    | scenario | ... |
    |---|---|

The command runs from the repository's root with `--cli CLI` appended (the waferscope-cli to
use: build/release/app/waferscope-cli unless given) and must print one Markdown table; the lines
that start with `|` after the marker (and one blank line) are replaced by it, with a blank line
before and after. Nothing else in the file changes.

Usage: scripts/update_doc_tables.py [--cli CLI] [--only SUBSTRING] [--check] FILE...
  --only   regenerate only the markers whose command contains SUBSTRING
  --check  write nothing; exit 1 when a table differs from what its command prints
"""
import argparse
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARKER = re.compile(r"^\*Table: `(.+?)`\*\s*$")


def run_table(command, cli):
    argv = shlex.split(command) + ["--cli", cli]
    argv[0] = os.path.join(ROOT, argv[0])
    result = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{command}: exit {result.returncode}\n{result.stderr}")
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    if not lines or not all(line.startswith("|") for line in lines):
        raise SystemExit(f"{command}: did not print a Markdown table:\n{result.stdout}")
    return lines


def update(path, cli, only, check):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, i, changed = [], 0, False
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        match = MARKER.match(line)
        if not match:
            continue
        out.append("")  # the blank line Markdown needs before a table
        if i < len(lines) and not lines[i].strip():
            i += 1
        old = []
        while i < len(lines) and lines[i].startswith("|"):
            old.append(lines[i])
            i += 1
        new = old
        if not only or only in match.group(1):
            print(f"{path}: {match.group(1)}", file=sys.stderr)
            new = run_table(match.group(1), cli)
        if new != old:
            changed = True
            for line in difflib.unified_diff(old, new, path, path + " (regenerated)", lineterm=""):
                print(line)
        out.extend(new)
        if i < len(lines) and lines[i].strip():
            out.append("")  # and the blank line that ends it
    changed = changed or out != lines
    if changed and not check:
        # Atomic: the page is never left half written.
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)))
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("\n".join(out))
        os.replace(tmp, path)
    return changed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--cli", default=os.path.join(ROOT, "build/release/app/waferscope-cli"))
    parser.add_argument("--only")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    changed = [f for f in args.files if update(f, os.path.abspath(args.cli), args.only, args.check)]
    if args.check and changed:
        print("tables out of date: " + ", ".join(changed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
