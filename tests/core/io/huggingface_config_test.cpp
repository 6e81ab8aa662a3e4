#include "scenario/transformer_config.h"

#include "io/huggingface_config.h"
#include "scenario/scenario_error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace ws {
namespace {

using nlohmann::json;

json readData(const std::string& name) {
    std::ifstream in(std::filesystem::path(WAFERSCOPE_TEST_DATA_DIR) / "data" / name);
    return json::parse(in);
}

TEST(HuggingFaceConfig, Llama2) {
    const TransformerConfig model =
        transformerFromHuggingFace(readData("llama2_7b_config.json"), "workload.hf_config");
    EXPECT_EQ(model.name, "meta-llama/Llama-2-7b-hf");
    EXPECT_EQ(model.layers, 32);
    EXPECT_EQ(model.hidden, 4096);
    EXPECT_EQ(model.heads, 32);
    EXPECT_EQ(model.kvHeads, 32);
    EXPECT_EQ(model.ffnHidden, 11008);
    EXPECT_EQ(model.vocab, 32000);
    EXPECT_EQ(model.experts, 1);
    EXPECT_EQ(model.expertsPerToken, 1);
    EXPECT_TRUE(model.gatedMlp);
    EXPECT_EQ(model.totalParameters() + model.embeddingParameters(), 6'738'415'616);
}

TEST(HuggingFaceConfig, Mixtral) {
    const TransformerConfig model =
        transformerFromHuggingFace(readData("mixtral_8x7b_config.json"), "workload.hf_config");
    EXPECT_EQ(model.name, "mixtral"); // no _name_or_path: the model_type
    EXPECT_EQ(model.layers, 32);
    EXPECT_EQ(model.hidden, 4096);
    EXPECT_EQ(model.heads, 32);
    EXPECT_EQ(model.kvHeads, 8);
    EXPECT_EQ(model.ffnHidden, 14336);
    EXPECT_EQ(model.vocab, 32000);
    EXPECT_EQ(model.experts, 8);
    EXPECT_EQ(model.expertsPerToken, 2);
    EXPECT_TRUE(model.gatedMlp);
    // Mixtral-8x7B's published count (untied output projection added): 46.7B.
    EXPECT_EQ(model.totalParameters() + model.embeddingParameters(), 46'702'792'704);
}

json minimal() {
    return json{{"hidden_size", 1024},
                {"num_hidden_layers", 4},
                {"num_attention_heads", 16},
                {"intermediate_size", 4096},
                {"vocab_size", 50000}};
}

TEST(HuggingFaceConfig, DefaultsAndNulls) {
    json config = minimal();
    config["num_key_value_heads"] = nullptr; // Hugging Face writes null for "unset"
    config["num_local_experts"] = nullptr;
    const TransformerConfig model = transformerFromHuggingFace(config, "p");
    EXPECT_EQ(model.kvHeads, 16);
    EXPECT_EQ(model.experts, 1);
    EXPECT_EQ(model.expertsPerToken, 1);
    EXPECT_FALSE(model.gatedMlp);
    EXPECT_EQ(model.name, "huggingface");
}

TEST(HuggingFaceConfig, ADenseExpertCountIsNotAnError) {
    json config = minimal();
    config["num_experts"] = 0; // some dense configs carry it
    config["n_routed_experts"] = nullptr;
    EXPECT_EQ(transformerFromHuggingFace(config, "p").experts, 1);
}

TEST(HuggingFaceConfig, GatedByTypeOrActivation) {
    const auto gated = [](const char* key, const char* value) {
        json config = minimal();
        config[key] = value;
        return transformerFromHuggingFace(config, "p").gatedMlp;
    };
    EXPECT_TRUE(gated("model_type", "llama"));
    EXPECT_TRUE(gated("model_type", "mistral"));
    EXPECT_TRUE(gated("model_type", "mixtral"));
    EXPECT_TRUE(gated("hidden_act", "silu"));
    EXPECT_TRUE(gated("hidden_act", "swiglu"));
    EXPECT_FALSE(gated("model_type", "gpt_neox"));
    EXPECT_FALSE(gated("hidden_act", "gelu"));
}

void expectImportError(const json& config, const std::string& problemPart) {
    try {
        transformerFromHuggingFace(config, "workload.hf_config");
        ADD_FAILURE() << "no error for " << config.dump();
    } catch (const ScenarioError& error) {
        EXPECT_EQ(error.keyPath(), "workload.hf_config");
        EXPECT_NE(error.problem().find(problemPart), std::string::npos) << error.what();
    }
}

TEST(HuggingFaceConfig, Errors) {
    expectImportError(json::array(), "expected a JSON object (a Hugging Face config.json), "
                                     "got an array");
    json config = minimal();
    config.erase("hidden_size");
    expectImportError(config, "hidden_size: required key 'hidden_size' is missing");
    config = minimal();
    config["num_hidden_layers"] = "4";
    expectImportError(config, "num_hidden_layers: expected an integer, got a string");
    config = minimal();
    config["num_attention_heads"] = 24;
    expectImportError(config, "num_attention_heads: must divide hidden_size (1024) into equal "
                              "heads, got 24");
    config = minimal();
    config["num_key_value_heads"] = 3;
    expectImportError(config, "num_key_value_heads: must divide num_attention_heads (16)");
    config = minimal();
    config["vocab_size"] = 0;
    expectImportError(config, "vocab_size: must be 1 to 16777216, got 0");
    // MoE configs spelt otherwise than Mixtral's are refused, not read as dense.
    config = minimal();
    config["num_experts"] = 60;
    config["num_experts_per_tok"] = 4;
    expectImportError(config, "num_experts: only Mixtral-style mixture-of-experts configs "
                              "(num_local_experts) can be imported");
    config = minimal();
    config["n_routed_experts"] = 256;
    expectImportError(config, "n_routed_experts: only Mixtral-style");
    config = minimal();
    config["num_experts_per_tok"] = 2;
    expectImportError(config, "num_experts_per_tok: must be at most num_local_experts (1, the "
                              "default), got 2");
    config = minimal();
    config["model_type"] = 7;
    expectImportError(config, "model_type: expected a string, got an integer");
}

} // namespace
} // namespace ws
