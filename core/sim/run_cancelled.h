#pragma once

#include <stdexcept>

namespace ws {

// Thrown when a run's cancel predicate asked it to stop (the simulator polls it between
// events). Not an error of the input: callers show "cancelled", never a failure.
class RunCancelled : public std::runtime_error {
public:
    RunCancelled() : std::runtime_error("cancelled") {}
};

} // namespace ws
