#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace ws {

// `waferscope-cli sweep SWEEP.json [-o OUT.csv|OUT.jsonl] [--threads N]` (docs/cli.md section
// 10): every point of the sweep file simulated, one row each, CSV (or JSON Lines for .jsonl) on
// `out` or in OUT; progress on `err`. With an existing OUT the points already in it are skipped
// and the new rows appended. `args` are as runCli's (args[0] == "sweep"). Returns an ExitStatus.
int runSweepCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace ws
