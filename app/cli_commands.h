#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace ws {

// Exit statuses of docs/cli.md section 2.
enum ExitStatus { kExitOk = 0, kExitRunFailed = 1, kExitBadInput = 2 };

// `waferscope-cli` without the process: args exclude the program name. Reports go to `out`,
// errors ("FILE: key.path: what is wrong") and progress to `err`.
int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace ws
