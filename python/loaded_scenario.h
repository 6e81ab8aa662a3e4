#pragma once

#include "scenario/scenario.h"

#include <string>

namespace ws::python {

// What `waferscope.load` returns (Python's `waferscope.Scenario`): a parsed scenario and where
// it came from. Immutable once made, so that a call may read it with the GIL released while
// other Python threads hold the same object.
struct LoadedScenario {
    // As read: no environment overrides yet. Each run applies them (TCME_MAX_ITER, ...), as
    // every CLI command does, so that a report equals the CLI's for the same environment.
    Scenario scenario;
    // The path as given, or "<dict>": the FILE of the CLI's messages ("FILE: key: problem").
    std::string source;
};

} // namespace ws::python
