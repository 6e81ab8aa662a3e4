#pragma once

#include <string>

namespace ws::python {

// Rethrows the exception being handled (call it in a catch block) as the Python exception a
// user of the module expects, its message the one `waferscope-cli` prints on stderr for the
// same scenario:
// - ScenarioError (bad input, the CLI's exit 2): ValueError "SOURCE: key.path: problem";
// - any other std::exception (the run failed, exit 1): RuntimeError "SOURCE: what";
// - anything else (already a Python error): unchanged.
// `source` is LoadedScenario::source, the CLI's FILE.
[[noreturn]] void rethrowForPython(const std::string& source);

} // namespace ws::python
