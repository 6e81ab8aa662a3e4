#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>

namespace ws {

// Thrown when a run's cancel predicate asked it to stop (the simulator polls it between
// events). Not an error of the input: callers show "cancelled", never a failure.
class RunCancelled : public std::runtime_error {
public:
    RunCancelled() : std::runtime_error("cancelled") {}
};

// Where a run prepares (builds a step's graph, plans traffic) it polls the same predicate
// between units of work of a few milliseconds.
inline void throwIfCancelled(const std::function<bool()>& cancel) {
    if (cancel && cancel())
        throw RunCancelled();
}

// Work done item by item (flows expanded or routed, flows or tasks reported) polls every
// kItemsBetweenCancelPolls items: a few milliseconds of work in a debug build.
constexpr std::size_t kItemsBetweenCancelPolls = 4096;
inline void pollCancelAt(std::size_t item, const std::function<bool()>& cancel) {
    if (item % kItemsBetweenCancelPolls == 0)
        throwIfCancelled(cancel);
}

} // namespace ws
