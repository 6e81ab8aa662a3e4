#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace ws {

// `waferscope-cli validate-model SUITE.json [--json] [--calibrate]` (docs/cli.md section 12):
// simulates every point of a validation suite (validation/validation_suite.h) and prints
// published against simulated with the error, the mean and worst error over the predictions,
// and each point's drift from its recorded value. --calibrate instead finds the GPU efficiency
// that reproduces the calibration point. `args` are as runCli's (args[0] == "validate-model").
// Returns an ExitStatus: 0, or 1 when a point drifted beyond the suite's tolerance (a model
// change moved a prediction), 2 for bad input.
int runValidateModelCommand(const std::vector<std::string>& args, std::ostream& out,
                            std::ostream& err);

} // namespace ws
