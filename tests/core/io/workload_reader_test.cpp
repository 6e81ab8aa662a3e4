#include "io/workload_reader.h"

#include "scenario/workload.h"
#include "test_data_paths.h"
#include "workload/transformer_presets.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace ws {
namespace {

using nlohmann::json;

using test::kTestData;

Workload parse(const std::string& text, const std::filesystem::path& directory = {}) {
    return parseWorkload(json::parse(text), directory);
}

TEST(ParseWorkload, SpecExample) {
    const Workload w = parse(
        R"({ "kind": "transformer", "model": "gpt3-175b", "seq_len": 2048, "global_batch": 128 })");
    EXPECT_EQ(w.kind, WorkloadKind::Transformer);
    EXPECT_EQ(w.model, *transformerPreset("gpt3-175b"));
    EXPECT_EQ(w.seqLen, 2048);
    EXPECT_EQ(w.globalBatch, 128);
    EXPECT_EQ(w.dtypeBytes, 2);
    EXPECT_EQ(w.optimizerBytesPerParameter, 12);
    EXPECT_EQ(w.tokensPerStep(), 262'144);
    EXPECT_EQ(w.attention, AttentionKind::Flash); // online softmax unless the file says otherwise
}

TEST(ParseWorkload, StandardAttentionRoundTrips) {
    const Workload w =
        parse(R"({ "kind": "transformer", "model": "llama2-7b", "attention": "standard" })");
    EXPECT_EQ(w.attention, AttentionKind::Standard);
    EXPECT_EQ(toOrderedJson(w)["attention"], "standard");
    EXPECT_EQ(parseWorkload(json::parse(toOrderedJson(w).dump()), {}), w);
}

TEST(ParseWorkload, PresetWithDefaults) {
    const Workload w = parse(R"({ "kind": "transformer", "model": "llama2-7b" })");
    EXPECT_EQ(w.model.name, "llama2-7b");
    EXPECT_EQ(w.seqLen, 2048);
    EXPECT_EQ(w.globalBatch, 1);
    EXPECT_EQ(w.tokensPerStep(), 2048);
}

TEST(ParseWorkload, EveryTransformerKey) {
    const Workload w = parse(R"({
        "kind": "transformer",
        "model": { "name": "tiny-moe", "layers": 4, "hidden": 512, "heads": 8, "kv_heads": 2,
                   "ffn_hidden": 1024, "vocab": 1000, "experts": 4, "experts_per_token": 2,
                   "gated_mlp": true, "x-note": "kept out of the config" },
        "seq_len": 4096.0, "global_batch": 16, "dtype_bytes": 4,
        "optimizer_bytes_per_param": 16, "x-owner": "me" })");
    TransformerConfig expected;
    expected.name = "tiny-moe";
    expected.layers = 4;
    expected.hidden = 512;
    expected.heads = 8;
    expected.kvHeads = 2;
    expected.ffnHidden = 1024;
    expected.vocab = 1000;
    expected.experts = 4;
    expected.expertsPerToken = 2;
    expected.gatedMlp = true;
    EXPECT_EQ(w.model, expected);
    EXPECT_EQ(w.seqLen, 4096); // 4096.0 is an integer written as a double
    EXPECT_EQ(w.globalBatch, 16);
    EXPECT_EQ(w.dtypeBytes, 4);
    EXPECT_EQ(w.optimizerBytesPerParameter, 16);
    EXPECT_EQ(w.tokensPerStep(), 65'536);
}

TEST(ParseWorkload, ModelObjectDefaults) {
    const Workload w = parse(R"({ "kind": "transformer",
        "model": { "layers": 2, "hidden": 256, "heads": 4, "ffn_hidden": 1024, "vocab": 100 } })");
    EXPECT_EQ(w.model.name, "custom");
    EXPECT_EQ(w.model.kvHeads, 4); // multi-head unless told
    EXPECT_EQ(w.model.experts, 1);
    EXPECT_EQ(w.model.expertsPerToken, 1);
    EXPECT_FALSE(w.model.gatedMlp);
}

TEST(ParseWorkload, OptimizerBytesMayBeFractionalOrZero) {
    EXPECT_EQ(parse(R"({ "kind": "transformer", "model": "gpt3-13b",
                         "optimizer_bytes_per_param": 0 })")
                  .optimizerBytesPerParameter,
              0);
    EXPECT_EQ(parse(R"({ "kind": "transformer", "model": "gpt3-13b",
                         "optimizer_bytes_per_param": 6.5 })")
                  .optimizerBytesPerParameter,
              6.5);
}

TEST(ParseWorkload, HuggingFaceRelativeToTheScenario) {
    const Workload w = parse(R"({ "kind": "transformer", "hf_config": "data/llama2_7b_config.json",
                                  "seq_len": 4096 })",
                             WAFERSCOPE_TEST_DATA_DIR);
    TransformerConfig expected = *transformerPreset("llama2-7b");
    expected.name = "meta-llama/Llama-2-7b-hf";
    EXPECT_EQ(w.model, expected);
    EXPECT_EQ(w.seqLen, 4096);
}

TEST(ParseWorkload, HuggingFaceAbsolutePathIgnoresTheDirectory) {
    json document{{"kind", "transformer"},
                  {"hf_config", (kTestData / "mixtral_8x7b_config.json").string()}};
    const Workload w = parseWorkload(document, "/nonexistent/scenario/dir");
    EXPECT_EQ(w.model.name, "mixtral");
    EXPECT_EQ(w.model.experts, 8);
}

TEST(ParseWorkload, Gemm) {
    const Workload w = parse(
        R"({ "kind": "gemm", "m": 8192, "k": 12288, "n": 49152, "dtype_bytes": 1, "x-a": 1 })");
    EXPECT_EQ(w.kind, WorkloadKind::Gemm);
    EXPECT_EQ(w.gemm, (GemmShape{8192, 12288, 49152}));
    EXPECT_EQ(w.dtypeBytes, 1);
    EXPECT_EQ(w.tokensPerStep(), 8192);
    EXPECT_EQ(parse(R"({ "kind": "gemm", "m": 1, "k": 2, "n": 3 })").dtypeBytes, 2);
}

TEST(ParseWorkload, LargestAcceptedValues) {
    // The limits themselves are accepted: only beyond them is a value absurd.
    const Workload w = parse(R"({ "kind": "transformer", "model": "gpt3-6.7b",
                                  "seq_len": 16777216, "global_batch": 4096 })");
    EXPECT_EQ(w.tokensPerStep(), 68'719'476'736.0); // 2^36
    const Workload g = parse(R"({ "kind": "gemm", "m": 4294967296, "k": 256, "n": 1 })");
    EXPECT_EQ(g.gemm.m, 4'294'967'296.0);
}

} // namespace
} // namespace ws
