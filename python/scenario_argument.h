#pragma once

#include "loaded_scenario.h"

#include <pybind11/pybind11.h>

#include <memory>

namespace ws::python {

// "<dict>": the source of a scenario given as a dict, where the CLI's messages name the FILE.
inline constexpr const char* kDictSource = "<dict>";

// A scenario argument of the module's functions as a LoadedScenario:
// - a waferscope.Scenario: itself, not copied;
// - a path (str, bytes or os.PathLike): the file read as `waferscope-cli` reads it, a relative
//   path against the current directory, its own relative paths (workload.hf_config) against
//   the file's directory;
// - a dict: the same document as JSON, its relative paths against the current directory.
// Needs the GIL. Bad input is a ValueError with the CLI's message ("FILE: key.path: problem");
// an argument of another type is a TypeError.
std::shared_ptr<LoadedScenario> loadScenarioArgument(pybind11::handle argument);

} // namespace ws::python
