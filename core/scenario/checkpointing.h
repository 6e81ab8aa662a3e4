#pragma once

namespace ws {

// What a layer keeps for its backward pass and what it recomputes (docs/training-model.md
// `strategy.activation_checkpointing`), a field of the scenario's StrategySpec. Korthikanti et
// al. (MLSys 2023) name the three: none, selective and full recomputation.
enum class Checkpointing {
    None,      // keep every activation (the file's `false` or "none")
    Selective, // keep all but attention's s x s products; recompute the score and value GEMMs
               // (and standard attention's softmax) in backward, with no communication
    Full       // keep each layer's input; recompute its whole forward pass, communication
               // included (the file's `true` or "full")
};

} // namespace ws
