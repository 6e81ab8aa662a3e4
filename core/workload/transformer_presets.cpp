// transformerPreset / transformerPresetNames: public model shapes, from the papers and the
// published config files. Vocabularies are the tokenizers' own sizes, not padded ones.

#include "workload/transformer_presets.h"

#include <utility>

namespace ws {
namespace {

TransformerConfig dense(std::string name, int layers, int hidden, int heads, int ffnHidden,
                        int vocab) {
    TransformerConfig model;
    model.name = std::move(name);
    model.layers = layers;
    model.hidden = hidden;
    model.heads = heads;
    model.kvHeads = heads;
    model.ffnHidden = ffnHidden;
    model.vocab = vocab;
    return model;
}

TransformerConfig gated(std::string name, int layers, int hidden, int heads, int kvHeads,
                        int ffnHidden, int vocab) {
    TransformerConfig model = dense(std::move(name), layers, hidden, heads, ffnHidden, vocab);
    model.kvHeads = kvHeads;
    model.gatedMlp = true;
    return model;
}

TransformerConfig grok1() {
    // xai-org/grok-1: 8 experts, 2 active per token; 314B parameters.
    TransformerConfig model = gated("grok-1", 64, 6144, 48, 8, 32768, 131072);
    model.experts = 8;
    model.expertsPerToken = 2;
    return model;
}

std::vector<TransformerConfig> presets() {
    constexpr int kGpt2Vocab = 50257; // GPT-2/3 BPE
    return {
        // Brown et al. 2020, Table 2.1.
        dense("gpt3-6.7b", 32, 4096, 32, 16384, kGpt2Vocab),
        dense("gpt3-13b", 40, 5120, 40, 20480, kGpt2Vocab),
        // Narayanan et al. SC'21, Table 1: the 76.1B configuration.
        dense("gpt3-76b", 60, 10240, 80, 40960, kGpt2Vocab),
        dense("gpt3-175b", 96, 12288, 96, 49152, kGpt2Vocab),
        // meta-llama config.json files.
        gated("llama2-7b", 32, 4096, 32, 32, 11008, 32000),
        gated("llama2-70b", 80, 8192, 64, 8, 28672, 32000),
        gated("llama3-70b", 80, 8192, 64, 8, 28672, 128256),
        // Zhang et al. 2022: GPT-3 175B's shape with its own tokenizer.
        dense("opt-175b", 96, 12288, 96, 49152, 50272),
        grok1(),
    };
}

} // namespace

std::optional<TransformerConfig> transformerPreset(std::string_view name) {
    for (TransformerConfig& model : presets())
        if (model.name == name)
            return std::move(model);
    return std::nullopt;
}

std::vector<std::string> transformerPresetNames() {
    std::vector<std::string> names;
    for (const TransformerConfig& model : presets())
        names.push_back(model.name);
    return names;
}

} // namespace ws
