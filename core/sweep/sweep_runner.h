#pragma once

#include "sweep/fault_sample.h"
#include "sweep/sweep_spec.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

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
    // The step does not fit its dies' SRAM and HBM: the point failed (`ok` false, its error
    // isOutOfMemoryError), or, in a file written before such points failed, ran flagged `oom`.
    bool outOfMemory = false;
    // A training step's dies used (MFU is per die used: a point on 24 dies is not one on 48)
    // and its pipeline bubble (0 with one stage); kept for a step out of memory, empty for a
    // network experiment or a point that did not place.
    std::optional<int> diesUsed;
    std::optional<double> ppBubble;
    // A sweep with fault axes: what re-placing after the faults changed in the strategy
    // ("dp 6 -> 4: 43 of 48 dies live; micro_batches 4 -> 8 to fit in memory"), "" when nothing.
    std::string note;
    // A sweep with `search` (SweepSpec::search), at a point whose search found a strategy that
    // fits: the best (its label, family and simulated step), the family that comes second and
    // its margin, the runner-up family's best step over the best, minus 1 (search/
    // strategy_family.h). The runner-up's are empty when one family alone fits.
    std::string bestStrategy;
    std::string bestFamily;
    std::optional<double> bestStepS;
    std::string runnerUpFamily;
    std::optional<double> margin;
};

// Whether a failed point's or sample's error says its step does not fit its dies' memory
// ("out of memory: 93.08 GB per die against 72.08 GB of SRAM and HBM", docs/cli.md section 10);
// not the host running out of memory while simulating.
bool isOutOfMemoryError(const std::string& error);

// The scenario a point simulates: scenarioJsonAt read as a scenario (relative paths in
// spec.baseDirectory) and, in a sweep with fault axes, the point's faults drawn on it
// (sampleFaults with the spec's seed and the point's sample and index); note is then what the
// faults changed. What evaluatePoint simulates, and what the GUI opens from a row. Throws the
// reader's ScenarioError.
FaultedScenario scenarioAt(const SweepSpec& spec, const SweepPoint& point);

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

// The points of the sweep, in order, but those `skip` (when set) leaves out.
std::vector<SweepPoint> pointsToRun(const SweepSpec& spec,
                                    const std::function<bool(const SweepPoint&)>& skip);

// Evaluates `points` on `threads` threads and hands each row to `onRow` with its position in
// `points`, in that order, on the calling thread. If onRow throws, the workers stop after their
// current point and the exception propagates.
void evaluatePointsInOrder(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                           int threads, const std::function<void(std::size_t, SweepRow&&)>& onRow);

// Evaluates every point not skipped, on `threads` threads, handing rows over in point order.
// Returns how many points ran.
std::size_t runSweep(const SweepSpec& spec, const SweepRunOptions& options);

} // namespace ws
