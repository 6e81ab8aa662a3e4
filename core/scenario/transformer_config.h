#pragma once

#include <string>

namespace ws {

// The shape of a decoder-only transformer: everything the training-step model needs to size its
// GEMMs, weights and activations. Sizes are element counts, not bytes.
//
// Invariants (enforced by the readers, parseWorkload and transformerFromHuggingFace in
// io/; a hand-built config is trusted): every count is positive, hidden % heads == 0,
// heads % kvHeads == 0 (kvHeads < heads is grouped-query attention, kvHeads == 1 multi-query),
// 1 <= expertsPerToken <= experts.
struct TransformerConfig {
    std::string name;
    int layers = 0;
    int hidden = 0;    // model width h
    int heads = 0;     // query heads
    int kvHeads = 0;   // key/value heads
    int ffnHidden = 0; // MLP inner width (per expert for a mixture of experts)
    int vocab = 0;
    int experts = 1;         // 1: a dense MLP; more: a mixture of experts with a learned router
    int expertsPerToken = 1; // top-k routing
    bool gatedMlp = false;   // SwiGLU-style: up and gate projections (3 matrices), else 2
    friend bool operator==(const TransformerConfig&, const TransformerConfig&) = default;

    int headDim() const; // hidden / heads

    // Parameters of one layer:
    //   attention  h*h (q) + 2*h*kvHeads*headDim (k, v) + h*h (o)
    //   MLP        experts * (gated ? 3 : 2) * h*ffnHidden
    //   router     h*experts when experts > 1
    //   norms      2*h (the gains of the two pre-norms)
    // Biases are not counted (Llama-style models have none; for GPT-3 they are 13h per layer,
    // under 0.01% of the model).
    double parametersPerLayer() const;

    // vocab * hidden: one embedding matrix, tied between input and output. Models with an
    // untied output projection (Llama 2/3) have vocab * hidden more parameters than
    // totalParameters() reports; their weights are not otherwise different. Learned position
    // embeddings (GPT-3: 2048 * h, 0.01%) are not counted.
    double embeddingParameters() const;

    // layers * parametersPerLayer() + embeddingParameters() + h (the final norm's gain).
    // Worked example: llama2-7b gives 6,607,343,616; adding the untied output projection
    // (32000 * 4096) gives 6,738,415,616, the count Hugging Face reports for Llama-2-7b.
    double totalParameters() const;
};

} // namespace ws
