#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace ws {

// `waferscope-cli advise FILE [--json]` (docs/cli.md section 11): the advisor's
// findings for the scenario, each with its evidence and, where a simulated fix helped, the keys
// to change. Text by default; --json prints {"findings": [...]}. `args` are as runCli's
// (args[0] == "advise"). Returns an ExitStatus: 0 whatever the findings, 2 for bad input.
int runAdviseCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace ws
