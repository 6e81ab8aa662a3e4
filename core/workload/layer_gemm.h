#pragma once

#include "scenario/gemm_shape.h"
#include "scenario/transformer_config.h"

#include <string>
#include <vector>

namespace ws {

// What a GEMM computes. The step plan splits a GEMM over tensor parallelism by its role
// (step/step_plan.h), never by its name.
enum class GemmRole {
    Linear,           // a `gemm` workload's one linear layer
    Qkv,              // the query, key and value projections
    AttentionScores,  // Q K^T, per head
    AttentionValues,  // softmax(Q K^T) V, per head
    OutputProjection, // the attention block's output projection
    Router,           // MoE: the gate that picks each token's experts
    MlpUp,            // the MLP's up (and gate) projection; an expert's with MoE
    MlpDown,          // the MLP's down projection; an expert's with MoE
    LmHead            // the language-model head (tied embedding)
};

// "linear", "qkv", "attention_scores", "attention_values", "output_projection", "router",
// "mlp_up", "mlp_down", "lm_head": the GEMM's name in task labels.
const char* toString(GemmRole role);

// One kind of GEMM in a transformer layer's forward pass, run `count` times.
struct LayerGemm {
    std::string name;      // toString(role)
    GemmShape shape;       // one instance
    double count = 1;      // identical instances (attention: one per head per sequence)
    bool hasWeight = true; // false: both operands are activations (attention scores, values)
    bool expert = false;   // an MoE expert's GEMM: m counts token-expert pairs
    GemmRole role = GemmRole::Linear;
    friend bool operator==(const LayerGemm&, const LayerGemm&) = default;

    double flops() const { return shape.flops() * count; } // 2 m k n count
};

// The forward GEMMs of one layer over `sequences` sequences of `seqLen` tokens, in execution
// order. With T = sequences * seqLen tokens, h = hidden, d = headDim, a = heads, g = kvHeads:
//   qkv                T x h x (h + 2 g d)
//   attention_scores   seqLen x d x seqLen,    count a * sequences, no weight
//   attention_values   seqLen x seqLen x d,    count a * sequences, no weight
//   output_projection  T x h x h
//   router             T x h x experts         (experts > 1 only)
//   mlp_up             T' x h x ffn            (gated: n = 2 ffn, the up and gate projections)
//   mlp_down           T' x ffn x h
// where T' = T * expertsPerToken for a mixture of experts (expert = true), else T. The causal
// mask is not exploited: scores and values are computed in full, as dense kernels do.
//
// Worked example: a multi-head (g = a), non-gated model with ffn = 4h gives
//   2T(3h^2) + 2T s h + 2T s h + 2T h^2 + 2T(4h^2) + 2T(4h^2) = 24 T h^2 + 4 T s h
// FLOPs per layer forward (s = seqLen), the count of Narayanan et al., SC'21 (their 72 B s l h^2
// (1 + s/6h) with backward = 2x forward). gpt3-175b, one sequence of 2048: 7,627,861,917,696 per
// layer.
std::vector<LayerGemm> layerGemms(const TransformerConfig& model, double sequences, double seqLen);

// The sum of layerGemms(...)'s flops(): one layer's forward FLOPs (element-wise work such as
// softmax, norms and activations is not counted: it is a fraction of a percent).
double layerForwardFlops(const TransformerConfig& model, double sequences, double seqLen);

} // namespace ws
