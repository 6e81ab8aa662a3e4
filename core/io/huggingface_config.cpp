// transformerFromHuggingFace: a TransformerConfig from a Hugging Face config.json.

#include "io/json_fields.h"
#include "io/transformer_fields.h"
#include "scenario/transformer_config.h"

#include "scenario/scenario_error.h"

#include <algorithm>
#include <array>

namespace ws {

TransformerConfig transformerFromHuggingFace(const nlohmann::json& config,
                                             const std::string& keyPath) {
    if (!config.is_object())
        throw ScenarioError(keyPath, "expected a JSON object (a Hugging Face config.json), got " +
                                         jsonTypeName(config));
    const JsonFields fields = JsonFields::imported(config, keyPath);
    // Experts are read in Mixtral's spelling. Other MoE configs name them differently and add
    // shared or fine-grained experts this model has no place for: reading them as a dense model
    // would be silently wrong, so they are refused.
    for (const char* key : {"num_experts", "n_routed_experts", "moe_num_experts"}) {
        const nlohmann::json* experts = fields.find(key);
        if (experts != nullptr && !(experts->is_number() && experts->get<double>() <= 1) &&
            !fields.has("num_local_experts"))
            fields.fail(key, "only Mixtral-style mixture-of-experts configs (num_local_experts) "
                             "can be imported; describe this model with a model object instead");
    }
    TransformerConfig model = readTransformerShape(
        fields, {"num_hidden_layers", "hidden_size", "num_attention_heads", "num_key_value_heads",
                 "intermediate_size", "vocab_size", "num_local_experts", "num_experts_per_tok"});

    const std::string modelType = fields.string("model_type", "");
    const std::string activation = fields.string("hidden_act", "");
    constexpr std::array kGatedTypes{"llama", "mistral", "mixtral"};
    constexpr std::array kGatedActivations{"silu", "swiglu"};
    model.gatedMlp =
        std::find(kGatedTypes.begin(), kGatedTypes.end(), modelType) != kGatedTypes.end() ||
        std::find(kGatedActivations.begin(), kGatedActivations.end(), activation) !=
            kGatedActivations.end();

    model.name = fields.string("_name_or_path", "");
    if (model.name.empty())
        model.name = modelType.empty() ? "huggingface" : modelType;
    checkParameterCount(model, fields);
    return model;
}

} // namespace ws
