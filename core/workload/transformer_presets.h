#pragma once

#include "scenario/transformer_config.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

// Public configurations by name: gpt3-6.7b, gpt3-13b, gpt3-76b, gpt3-175b, llama2-7b,
// llama2-70b, llama3-70b, opt-175b, grok-1. nullopt for any other name (names are exact,
// lower case).
std::optional<TransformerConfig> transformerPreset(std::string_view name);
std::vector<std::string> transformerPresetNames(); // in the order listed above

} // namespace ws
