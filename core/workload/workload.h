#pragma once

#include "workload/gemm_shape.h"
#include "workload/layer_gemm.h"
#include "workload/transformer_config.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace ws {

enum class WorkloadKind { Transformer, Gemm };

// What is being trained: the scenario's `workload` (docs/training-model.md), parsed.
struct Workload {
    WorkloadKind kind = WorkloadKind::Transformer;
    TransformerConfig model;   // transformer only
    GemmShape gemm;            // gemm only: the forward pass of one linear layer
    long long seqLen = 2048;   // tokens per sequence (transformer only)
    long long globalBatch = 1; // sequences per training step, over all data-parallel ranks
    int dtypeBytes = 2;        // bytes per weight, activation and gradient element: 1, 2 or 4
    // Optimizer state per parameter, bytes. 12 is mixed-precision Adam: an fp32 master copy,
    // and fp32 first and second moments (4 + 4 + 4).
    double optimizerBytesPerParameter = 12;
    friend bool operator==(const Workload&, const Workload&) = default;

    // Tokens in one step: globalBatch * seqLen; for a gemm, its m.
    double tokensPerStep() const;
};

// Parses and validates a scenario's `workload` object (docs/training-model.md, "## workload").
// Strict: unknown keys (other than "x-...") are errors. Every problem is a ScenarioError whose
// key path starts with "workload." and names the key ("workload.model.heads"); problems inside
// a Hugging Face config.json are at "workload.hf_config" and name the file and its key.
// `scenarioDirectory` is the directory of the scenario file: a relative hf_config is resolved
// against it (an empty path: against the working directory).
Workload parseWorkload(const nlohmann::json& workload,
                       const std::filesystem::path& scenarioDirectory);

} // namespace ws
