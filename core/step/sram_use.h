#pragma once

#include <string>

namespace ws {

// What the residency pass (step/sram_residency.h, docs/compute-model.md section 4) found of a
// die's SRAM in one step, for the report (`step.sram`) and the notes.
struct SramUse {
    double usableBytes = 0.0; // sram x (1 - sram_reserve)
    // The most a task must hold at once to read each operand once: a TATP round's stationary
    // block plus the stream buffers, or the smaller input of a GEMM without TATP (bytes).
    double largestWorkingSetBytes = 0.0;
    // Whether every task's working set fits beside what it cannot evict: no block product had to
    // re-read an operand.
    bool fits = true;
    // Whether the TATP streams fell back from double to single buffering because the double
    // buffers overflowed SRAM and single buffering is faster (strategy.double_buffering stays
    // what the file says).
    bool singleBuffered = false;
};

} // namespace ws
