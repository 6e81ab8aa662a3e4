#pragma once

namespace ws {

// Why a training step communicates (step/step_plan.h): a typed role, so no reader (TCME, the
// report) has to match labels.
enum class CollectiveRole : unsigned char {
    FsdpWeightGather,    // FSDP: the layer's weights, all-gathered over DP before use
    SpKeyValueGather,    // SP: every die needs the keys and values of all tokens
    SpKeyValueScatter,   // SP backward: their gradients, reduce-scattered
    TpAllReduce,         // TP: after a row-parallel GEMM (backward: a column-parallel one)
    TpReduceScatter,     // TP with sequence parallelism: where TpAllReduce would be
    TpAllGather,         // ... and before the GEMM a norm feeds (backward: a row-parallel one)
    MoeDispatch,         // MoE: tokens to their experts, all-to-all over DP
    MoeCombine,          // MoE: and back
    FsdpGradientScatter, // FSDP: the layer's gradients, reduce-scattered over DP
    GradientSync,        // DP: the layer's gradients, all-reduced (SP under FSDP, or replicas)
    PipelineActivations, // pipeline stages: a micro-batch's activations, to the next stage
    PipelineGradients    // ... and their gradients, back to the stage before
};

} // namespace ws
