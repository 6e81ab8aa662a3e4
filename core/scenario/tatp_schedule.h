#pragma once

namespace ws {

// How a TATP group streams its sub-tensors along its path (docs/training-model.md
// `strategy.tatp_schedule`), a field of the scenario's StrategySpec.
enum class TatpSchedule {
    Bidirectional, // docs/concepts.md section 2: relay to both neighbours, every transfer one hop
    Ring           // the naive logical ring laid on the path: an (n-1)-hop wrap-around
};

} // namespace ws
