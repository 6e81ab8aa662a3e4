#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace ws {

// `waferscope-cli search FILE [--threads N] [--seed S] [--budget N] [--json] [-o BEST.json]`
// (docs/cli.md, docs/search.md): runs the strategy search on the scenario's wafer and
// workload. The report goes to `out` (a summary, or with --json one JSON object), progress and
// errors to `err`. `args` are as runCli's (args[0] == "search"). Returns an ExitStatus.
int runSearchCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace ws
