// Every input error of parseWorkload, with the key path it must be reported at.

#include "scenario/workload.h"

#include "io/workload_reader.h"
#include "scenario/scenario_error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace ws {
namespace {

using nlohmann::json;

struct BadWorkload {
    const char* name;
    const char* json;
    const char* keyPath;
    const char* problem; // a part of the message
};

void PrintTo(const BadWorkload& bad, std::ostream* out) {
    *out << bad.name;
}

class WorkloadErrors : public testing::TestWithParam<BadWorkload> {};

TEST_P(WorkloadErrors, NamesTheKey) {
    const BadWorkload& bad = GetParam();
    try {
        parseWorkload(json::parse(bad.json), WAFERSCOPE_TEST_DATA_DIR);
        ADD_FAILURE() << "accepted " << bad.json;
    } catch (const ScenarioError& error) {
        EXPECT_EQ(error.keyPath(), bad.keyPath) << error.what();
        EXPECT_NE(error.problem().find(bad.problem), std::string::npos)
            << "message: " << error.what() << "\nexpected to contain: " << bad.problem;
    }
}

#define TRANSFORMER(rest) R"({ "kind": "transformer", )" rest " }"
#define MODEL(fields)                                                                              \
    R"({ "kind": "transformer", "model": { "layers": 2, "hidden": 256, "heads": 4, )"              \
    R"("ffn_hidden": 1024, "vocab": 100, )" fields " } }"

const BadWorkload kBadWorkloads[] = {
    // The object and its kind.
    {"NotAnObject", R"([1, 2])", "workload", "expected an object, got an array"},
    {"KindMissing", R"({ "model": "gpt3-13b" })", "workload.kind",
     "required key 'kind' is missing"},
    {"KindNotAString", R"({ "kind": 1 })", "workload.kind", "expected a string, got an integer"},
    {"KindUnknown", R"({ "kind": "transfomer", "model": "gpt3-13b" })", "workload.kind",
     "unknown kind 'transfomer'; did you mean 'transformer'?; expected \"transformer\" or "
     "\"gemm\""},
    {"UnknownKey", TRANSFORMER(R"("model": "gpt3-13b", "global_bach": 8)"), "workload.global_bach",
     "unknown key 'global_bach'; did you mean 'global_batch'?"},
    {"GemmKeyInTransformer", TRANSFORMER(R"("model": "gpt3-13b", "m": 2048)"), "workload.m",
     "'m' belongs to a workload of kind \"gemm\", not \"transformer\""},
    {"TransformerKeyInGemm", R"({ "kind": "gemm", "m": 1, "k": 1, "n": 1, "seq_len": 8 })",
     "workload.seq_len", "'seq_len' belongs to a workload of kind \"transformer\", not \"gemm\""},

    // model / hf_config.
    {"NeitherModelNorHf", TRANSFORMER(R"("seq_len": 2048)"), "workload.model",
     "required key 'model' is missing"},
    {"BothModelAndHf", TRANSFORMER(R"("model": "gpt3-13b", "hf_config": "c.json")"),
     "workload.hf_config", "give either model or hf_config, not both"},
    {"UnknownPreset", TRANSFORMER(R"("model": "gpt3-17b")"), "workload.model",
     "unknown model 'gpt3-17b'; did you mean 'gpt3-13b'?; the presets are gpt3-6.7b, gpt3-13b, "
     "gpt3-76b, gpt3-175b, llama2-7b, llama2-70b, llama3-70b, opt-175b, grok-1"},
    {"ModelWrongType", TRANSFORMER(R"("model": 175)"), "workload.model",
     "expected a preset name or an object, got an integer"},

    // The model object.
    {"ModelUnknownKey", MODEL(R"("hiden": 3)"), "workload.model.hiden",
     "unknown key 'hiden'; did you mean 'hidden'?"},
    {"ModelLayersMissing",
     TRANSFORMER(R"("model": { "hidden": 256, "heads": 4, "ffn_hidden": 1024, "vocab": 100 })"),
     "workload.model.layers", "required key 'layers' is missing"},
    {"ModelLayersZero",
     TRANSFORMER(R"("model": { "layers": 0, "hidden": 256, "heads": 4, "ffn_hidden": 1024,
                              "vocab": 100 })"),
     "workload.model.layers", "must be 1 to 1000, got 0"},
    {"ModelLayersAbsurd",
     TRANSFORMER(R"("model": { "layers": 1001, "hidden": 256, "heads": 4, "ffn_hidden": 1024,
                              "vocab": 100 })"),
     "workload.model.layers", "must be 1 to 1000, got 1001"},
    {"ModelHiddenString",
     TRANSFORMER(R"("model": { "layers": 2, "hidden": "256", "heads": 4, "ffn_hidden": 1024,
                              "vocab": 100 })"),
     "workload.model.hidden", "expected an integer, got a string"},
    {"ModelHiddenFractional",
     TRANSFORMER(R"("model": { "layers": 2, "hidden": 256.5, "heads": 4, "ffn_hidden": 1024,
                              "vocab": 100 })"),
     "workload.model.hidden", "expected an integer, got 256.5"},
    {"ModelHiddenNegative",
     TRANSFORMER(R"("model": { "layers": 2, "hidden": -256, "heads": 4, "ffn_hidden": 1024,
                              "vocab": 100 })"),
     "workload.model.hidden", "must be 1 to 1048576, got -256"},
    {"ModelHiddenHuge",
     TRANSFORMER(R"("model": { "layers": 2, "hidden": 1e300, "heads": 4, "ffn_hidden": 1024,
                              "vocab": 100 })"),
     "workload.model.hidden", "must be 1 to 1048576, got 1e+300"},
    {"ModelHeadsDoNotDivideHidden",
     TRANSFORMER(R"("model": { "layers": 2, "hidden": 256, "heads": 6, "ffn_hidden": 1024,
                              "vocab": 100 })"),
     "workload.model.heads", "must divide hidden (256) into equal heads, got 6"},
    {"ModelKvHeadsZero", MODEL(R"("kv_heads": 0)"), "workload.model.kv_heads",
     "must be 1 to 4, got 0"},
    {"ModelKvHeadsAboveHeads", MODEL(R"("kv_heads": 8)"), "workload.model.kv_heads",
     "must be 1 to 4, got 8"},
    {"ModelKvHeadsDoNotDivideHeads",
     TRANSFORMER(R"("model": { "layers": 2, "hidden": 256, "heads": 8, "kv_heads": 3,
                              "ffn_hidden": 1024, "vocab": 100 })"),
     "workload.model.kv_heads", "must divide heads (8)"},
    {"ModelFfnZero",
     TRANSFORMER(R"("model": { "layers": 2, "hidden": 256, "heads": 4, "ffn_hidden": 0,
                              "vocab": 100 })"),
     "workload.model.ffn_hidden", "must be 1 to 4194304, got 0"},
    {"ModelVocabMissing",
     TRANSFORMER(R"("model": { "layers": 2, "hidden": 256, "heads": 4, "ffn_hidden": 1024 })"),
     "workload.model.vocab", "required key 'vocab' is missing"},
    {"ModelVocabAbsurd",
     TRANSFORMER(R"("model": { "layers": 2, "hidden": 256, "heads": 4, "ffn_hidden": 1024,
                              "vocab": 100000000 })"),
     "workload.model.vocab", "must be 1 to 16777216, got 100000000"},
    {"ModelExpertsZero", MODEL(R"("experts": 0)"), "workload.model.experts",
     "must be 1 to 4096, got 0"},
    {"ModelTopKAboveDefaultExperts", MODEL(R"("experts_per_token": 2)"),
     "workload.model.experts_per_token", "must be at most experts (1, the default), got 2"},
    {"ModelTopKAboveExperts", MODEL(R"("experts": 4, "experts_per_token": 5)"),
     "workload.model.experts_per_token", "must be at most experts (4), got 5"},
    {"ModelGatedNotBool", MODEL(R"("gated_mlp": "yes")"), "workload.model.gated_mlp",
     "expected true or false, got a string"},
    {"ModelNameNotString", MODEL(R"("name": 7)"), "workload.model.name",
     "expected a string, got an integer"},
    {"ModelNullField", MODEL(R"("kv_heads": null)"), "workload.model.kv_heads",
     "expected an integer, got null"},
    {"ModelTooManyParameters",
     TRANSFORMER(R"("model": { "layers": 1000, "hidden": 1048576, "heads": 8192,
                              "ffn_hidden": 4194304, "vocab": 100 })"),
     "workload.model",
     "the model has 1.32e+16 parameters; more than 1e+14 (100 trillion) is not a realistic "
     "workload"},

    // Step sizes and precisions.
    {"SeqLenZero", TRANSFORMER(R"("model": "gpt3-13b", "seq_len": 0)"), "workload.seq_len",
     "must be 1 to 16777216, got 0"},
    {"SeqLenAbsurd", TRANSFORMER(R"("model": "gpt3-13b", "seq_len": 1e9)"), "workload.seq_len",
     "must be 1 to 16777216, got 1000000000"},
    {"SeqLenNotInteger", TRANSFORMER(R"("model": "gpt3-13b", "seq_len": 2048.5)"),
     "workload.seq_len", "expected an integer, got 2048.5"},
    {"GlobalBatchNegative", TRANSFORMER(R"("model": "gpt3-13b", "global_batch": -1)"),
     "workload.global_batch", "must be 1 to 16777216, got -1"},
    {"GlobalBatchHugeUnsigned",
     TRANSFORMER(R"("model": "gpt3-13b", "global_batch": 18446744073709551615)"),
     "workload.global_batch", "must be 1 to 16777216, got 18446744073709551615"},
    {"TokensPerStepAbsurd",
     TRANSFORMER(R"("model": "gpt3-13b", "seq_len": 16777216, "global_batch": 4097)"),
     "workload.global_batch", "seq_len x global_batch is 68736253952 tokens per step"},
    {"DtypeBytesThree", TRANSFORMER(R"("model": "gpt3-13b", "dtype_bytes": 3)"),
     "workload.dtype_bytes", "must be 1 (fp8), 2 (bf16/fp16) or 4 (fp32), got 3"},
    {"DtypeBytesString", TRANSFORMER(R"("model": "gpt3-13b", "dtype_bytes": "bf16")"),
     "workload.dtype_bytes", "expected an integer, got a string"},
    {"AttentionTypo", TRANSFORMER(R"("model": "gpt3-13b", "attention": "flsh")"),
     "workload.attention", "unknown attention 'flsh'; did you mean 'flash'?"},
    {"AttentionNotString", TRANSFORMER(R"("model": "gpt3-13b", "attention": true)"),
     "workload.attention", "expected a string"},
    {"OptimizerNegative", TRANSFORMER(R"("model": "gpt3-13b", "optimizer_bytes_per_param": -1)"),
     "workload.optimizer_bytes_per_param", "must be 0 to 64, got -1"},
    {"OptimizerAbsurd", TRANSFORMER(R"("model": "gpt3-13b", "optimizer_bytes_per_param": 100)"),
     "workload.optimizer_bytes_per_param", "must be 0 to 64, got 100"},
    {"OptimizerNotNumber",
     TRANSFORMER(R"("model": "gpt3-13b", "optimizer_bytes_per_param": "adam")"),
     "workload.optimizer_bytes_per_param", "expected a number, got a string"},

    // gemm.
    {"GemmMMissing", R"({ "kind": "gemm", "k": 1, "n": 1 })", "workload.m",
     "required key 'm' is missing"},
    {"GemmKZero", R"({ "kind": "gemm", "m": 1, "k": 0, "n": 1 })", "workload.k",
     "must be 1 to 4294967296, got 0"},
    {"GemmNFractional", R"({ "kind": "gemm", "m": 1, "k": 1, "n": 1.5 })", "workload.n",
     "expected an integer, got 1.5"},
    {"GemmSideAbsurd", R"({ "kind": "gemm", "m": 1e10, "k": 1, "n": 1 })", "workload.m",
     "must be 1 to 4294967296, got 10000000000"},
    {"GemmInputAbsurd", R"({ "kind": "gemm", "m": 4294967296, "k": 65536, "n": 1 })", "workload.k",
     "the input I[m, k] would have 281474976710656 elements"},
    {"GemmWeightAbsurd", R"({ "kind": "gemm", "m": 1, "k": 4294967296, "n": 4294967296 })",
     "workload.n", "the weight W[k, n] would have"},
    {"GemmOutputAbsurd", R"({ "kind": "gemm", "m": 4294967296, "k": 1, "n": 65536 })", "workload.n",
     "the output O[m, n] would have 281474976710656 elements"},
    {"GemmDtypeBytes", R"({ "kind": "gemm", "m": 1, "k": 1, "n": 1, "dtype_bytes": 8 })",
     "workload.dtype_bytes", "got 8"},
    {"GemmModelKey", R"({ "kind": "gemm", "m": 1, "k": 1, "n": 1, "model": "gpt3-13b" })",
     "workload.model", "'model' belongs to a workload of kind \"transformer\""},

    // hf_config files (relative to the test data directory).
    {"HfNotString", TRANSFORMER(R"("hf_config": 3)"), "workload.hf_config",
     "expected a string, got an integer"},
    {"HfEmpty", TRANSFORMER(R"("hf_config": "")"), "workload.hf_config",
     "expected the path of a config.json, got an empty string"},
    {"HfMissingFile", TRANSFORMER(R"("hf_config": "data/no_such_config.json")"),
     "workload.hf_config", "data/no_such_config.json': no such file"},
    {"HfDirectory", TRANSFORMER(R"("hf_config": "data")"), "workload.hf_config",
     "data' is a directory; expected a config.json file"},
    {"HfSyntaxError", TRANSFORMER(R"("hf_config": "data/broken_syntax_config.json")"),
     "workload.hf_config", "data/broken_syntax_config.json': line 4, column 1: JSON syntax error"},
    {"HfNotAnObject", TRANSFORMER(R"("hf_config": "data/array_config.json")"), "workload.hf_config",
     "data/array_config.json': expected a JSON object (a Hugging Face config.json), got an array"},
    {"HfBadField", TRANSFORMER(R"("hf_config": "data/uneven_heads_config.json")"),
     "workload.hf_config",
     "data/uneven_heads_config.json': num_attention_heads: must divide hidden_size (4096) into "
     "equal heads, got 48"},
};

// A named function, not a lambda: the macro's own parameter is called `info` (-Wshadow).
std::string badWorkloadName(const testing::TestParamInfo<BadWorkload>& param) {
    return param.param.name;
}

INSTANTIATE_TEST_SUITE_P(All, WorkloadErrors, testing::ValuesIn(kBadWorkloads), badWorkloadName);

TEST(WorkloadErrorMessages, FileErrorsNameTheResolvedFile) {
    const std::filesystem::path directory = WAFERSCOPE_TEST_DATA_DIR;
    try {
        parseWorkload(json::parse(TRANSFORMER(R"("hf_config": "data/no_such_config.json")")),
                      directory);
        FAIL() << "accepted a missing file";
    } catch (const ScenarioError& error) {
        const std::string file = (directory / "data" / "no_such_config.json").string();
        EXPECT_EQ(error.problem(), "cannot read '" + file + "': no such file");
        EXPECT_EQ(std::string(error.what()),
                  "workload.hf_config: cannot read '" + file + "': no such file");
    }
}

} // namespace
} // namespace ws
