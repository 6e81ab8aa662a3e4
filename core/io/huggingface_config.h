#pragma once

#include "scenario/transformer_config.h"

#include <nlohmann/json.hpp>

#include <string>

namespace ws {

// A config from the parsed config.json of a Hugging Face model: hidden_size,
// num_hidden_layers, num_attention_heads, num_key_value_heads (default: num_attention_heads),
// intermediate_size, vocab_size, num_local_experts (default 1), num_experts_per_tok
// (default 1). The MLP is gated when model_type is llama, mistral or mixtral or hidden_act is
// silu or swiglu. The name is _name_or_path, else model_type. Other keys are ignored (such
// files carry many); a null counts as absent. Every problem is a ScenarioError at `keyPath`
// whose problem names the config.json key, e.g. "hidden_size: required key is missing".
TransformerConfig transformerFromHuggingFace(const nlohmann::json& config,
                                             const std::string& keyPath);

} // namespace ws
