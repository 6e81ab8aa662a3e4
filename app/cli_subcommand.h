#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace ws {

// Runs the body of a command on a FILE (all but sweep, which reports per MPI rank) and turns
// what it throws into the message and exit status of docs/cli.md, alike for every command:
//  - CliUsageError (search, advise, validate-model): the message and a pointer to --help, exit
//    2 (simulate, validate, optimize and launch print their whole usage themselves);
//  - ScenarioError: "FILE: key: problem", exit 2 (the input is wrong);
//  - FileWriteError: an output (-o FILE) could not be written, exit 1, naming that output;
//  - any other std::exception: "waferscope-cli: COMMAND FILE: what", exit 1 (the run failed).
// `file` is read when something is thrown: the body sets it once it has read the arguments.
int runSubcommand(const std::string& command, const std::string& file, std::ostream& err,
                  const std::function<int()>& body);

} // namespace ws
