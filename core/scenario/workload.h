#pragma once

#include "scenario/gemm_shape.h"
#include "scenario/transformer_config.h"

#include <nlohmann/json.hpp>

#include <string>

namespace ws {

enum class WorkloadKind { Transformer, Gemm };

// How attention computes its scores (docs/compute-model.md): Flash keeps no s x s scores in
// memory (online softmax, fused into the attention GEMMs); Standard materialises them and
// keeps them for the backward pass (Korthikanti et al.'s 5as/h activation term).
enum class AttentionKind { Flash, Standard };

const char* toString(AttentionKind attention); // "flash", "standard"

// How a transformer workload names its model in the file (docs/training-model.md, "## workload"),
// kept so that saving writes it the way it was written.
enum class ModelSource {
    Preset,     // "model": "gpt3-175b": `model.name` is the preset's name
    Object,     // "model": {...}: the shape written out
    HuggingFace // "hf_config": "config.json": read from that file when the scenario was loaded
};

// What is being trained: the scenario's `workload` (docs/training-model.md), parsed and
// validated when the scenario is read (io/workload_reader.h). A Hugging Face config.json is
// read then too: `model` holds its shape, `hfConfig` the path as the file wrote it.
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
    AttentionKind attention = AttentionKind::Flash; // transformer only

    ModelSource modelSource = ModelSource::Object; // transformer only
    std::string hfConfig; // HuggingFace only: relative to the scenario file's directory
    nlohmann::json extensions = nlohmann::json::object();      // "x-..." keys of `workload`
    nlohmann::json modelExtensions = nlohmann::json::object(); // "x-..." keys of a model object
    friend bool operator==(const Workload&, const Workload&) = default;

    // Tokens in one step: globalBatch * seqLen; for a gemm, its m.
    double tokensPerStep() const;
};

} // namespace ws
