#pragma once

#include "sweep/sweep_spec.h"

#include <functional>
#include <optional>
#include <string>

namespace ws {

// The figures of one point of a sweep (docs/cli.md section 10): a failed point (a strategy that
// cannot be placed, a route that cannot be found, a scenario too large to simulate) is a row
// with `ok` false and the reason, never a failed sweep.
struct SweepRow {
    SweepPoint point;
    bool ok = false;
    std::string error;
    // A training step's; absent for a pure network experiment or a failed point.
    std::optional<double> stepS, tokensPerSecond, mfu;
    double makespanS = 0.0;
    double maxLinkBytes = 0.0;
    double peakMemoryBytes = 0.0; // the largest die's, 0 without a memory model
    bool outOfMemory = false;
};

// Simulates one point as `simulate` would (the environment's overrides, a summary report).
SweepRow evaluatePoint(const SweepSpec& spec, const SweepPoint& point);

struct SweepRunOptions {
    int threads = 1;
    // Points to leave out (already in the output being resumed).
    std::function<bool(const SweepPoint&)> skip;
    // Each finished row, in point order whatever the threads (one caller thread).
    std::function<void(const SweepRow&)> onRow;
    // After each row: points done and to do in this run.
    std::function<void(std::size_t done, std::size_t total)> progress;
};

// Evaluates every point not skipped, on `threads` threads, handing rows over in point order.
// Returns how many points ran.
std::size_t runSweep(const SweepSpec& spec, const SweepRunOptions& options);

} // namespace ws
