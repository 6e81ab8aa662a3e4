#pragma once

#include "scenario/strategy_spec.h"
#include "scenario/workload.h"

namespace ws {

// Checks that the strategy cuts the workload into equal whole blocks; the first failure is a
// ScenarioError at the degree to blame ("strategy.tp: 5 does not divide the model's 96
// attention heads"). Degrees are assumed positive (parseStrategy).
//
// First, for both kinds: sequence_parallel needs tp > 1 (sequenceParallelProblem, the file's
// own rule, checked again here for strategies built in code: edits, the search).
// Transformer, in this order:
//   pp | layers;
//   micro_batches | global_batch;   dp | global_batch / micro_batches (sequences per replica);
//   sp | seq_len;   tp | heads;   tp | ffn_hidden;
//   tatp | seq_len * global_batch / (dp * micro_batches) / sp (token rows of one SP chunk of a
//   micro-batch, which TATP splits);   tatp | hidden (the W columns TATP splits).
// Gemm O[m, n] = I[m, k] W[k, n]: pp = 1, no sequence_parallel (it has no norms), sp | m and dp | m
// / sp (the rows DP and SP split), then tatp | m / (dp * sp) (each replica's rows, split again by
// TATP); tp | n and tatp | n / tp.
void checkStrategyAgainstWorkload(const StrategySpec& strategy, const Workload& workload);

} // namespace ws
