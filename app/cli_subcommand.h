#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace ws {

// Runs the body of a subcommand (search, advise, validate-model) and turns what it throws into
// the message and exit status of docs/cli.md, alike for every subcommand:
//  - CliUsageError: the message and a pointer to --help, exit 2;
//  - ScenarioError: "FILE: key: problem", exit 2 (the input is wrong);
//  - FileWriteError: an output (-o FILE) could not be written, exit 1, naming that output;
//  - any other std::exception: "waferscope-cli: COMMAND FILE: what", exit 1 (the run failed).
// `file` is read when something is thrown: the body sets it once it has read the arguments.
int runSubcommand(const std::string& command, const std::string& file, std::ostream& err,
                  const std::function<int()>& body);

} // namespace ws
