#pragma once

#include "io/json_fields.h"
#include "scenario/transformer_config.h"

#include <string>

namespace ws {

// The JSON keys a transformer's shape is read from: the scenario's own ("hidden") or a Hugging
// Face config.json's ("hidden_size"). Messages name these keys.
struct TransformerKeys {
    std::string layers;
    std::string hidden;
    std::string heads;
    std::string kvHeads; // optional, default: heads
    std::string ffnHidden;
    std::string vocab;
    std::string experts;         // optional, default 1
    std::string expertsPerToken; // optional, default 1
};

// Reads layers, hidden, heads, kv heads, ffn width, vocabulary and experts (not the name or
// gatedMlp, which the two formats spell differently) and checks every TransformerConfig
// invariant: ranges (io/scenario_limits.h), hidden % heads, heads % kvHeads,
// expertsPerToken <= experts.
TransformerConfig readTransformerShape(const JsonFields& fields, const TransformerKeys& keys);

// Rejects a model of more than limits::kMaxParameters parameters (io/scenario_limits.h), at
// `fields`' object as a whole (call after gatedMlp is known: it changes the count).
void checkParameterCount(const TransformerConfig& model, const JsonFields& fields);

} // namespace ws
