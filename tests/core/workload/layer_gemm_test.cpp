#include "workload/layer_gemm.h"
#include "workload/transformer_presets.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ws {
namespace {

TransformerConfig preset(const std::string& name) {
    return transformerPreset(name).value_or(TransformerConfig{});
}

// Narayanan et al., SC'21: 24 T h^2 + 4 T s h forward FLOPs per layer, T = sequences x s.
double narayanan(double h, double sequences, double s) {
    const double tokens = sequences * s;
    return 24 * tokens * h * h + 4 * tokens * s * h;
}

TEST(LayerGemms, Gpt3MatchesNarayananExactly) {
    for (const auto& [sequences, seqLen] :
         std::vector<std::pair<double, double>>{{1, 2048}, {8, 2048}, {2, 4096}, {3, 1}}) {
        EXPECT_EQ(layerForwardFlops(preset("gpt3-175b"), sequences, seqLen),
                  narayanan(12288, sequences, seqLen))
            << sequences << " x " << seqLen;
        EXPECT_EQ(layerForwardFlops(preset("gpt3-6.7b"), sequences, seqLen),
                  narayanan(4096, sequences, seqLen))
            << sequences << " x " << seqLen;
    }
    EXPECT_EQ(layerForwardFlops(preset("gpt3-175b"), 1, 2048), 7'627'861'917'696);
}

TEST(LayerGemms, Gpt3Shapes) {
    const double t = 4 * 2048.0; // 4 sequences
    const std::vector<LayerGemm> expected{
        {"qkv", {t, 12288, 3 * 12288}, 1, true, false, GemmRole::Qkv},
        {"attention_scores", {2048, 128, 2048}, 96 * 4, false, false, GemmRole::AttentionScores},
        {"attention_values", {2048, 2048, 128}, 96 * 4, false, false, GemmRole::AttentionValues},
        {"output_projection", {t, 12288, 12288}, 1, true, false, GemmRole::OutputProjection},
        {"mlp_up", {t, 12288, 49152}, 1, true, false, GemmRole::MlpUp},
        {"mlp_down", {t, 49152, 12288}, 1, true, false, GemmRole::MlpDown},
    };
    EXPECT_EQ(layerGemms(preset("gpt3-175b"), 4, 2048), expected);
}

TEST(LayerGemms, GatedGroupedQueryByHand) {
    // llama2-70b, one sequence of 2048 (h = 8192, d = 128, 64 heads, 8 kv heads, ffn 28672):
    //   qkv    2 x 2048 x 8192 x (8192 + 2 x 8 x 128) =   343,597,383,680
    //   scores 2 x 2048 x 128 x 2048 x 64             =    68,719,476,736
    //   values the same                               =    68,719,476,736
    //   o      2 x 2048 x 8192 x 8192                 =   274,877,906,944
    //   up     2 x 2048 x 8192 x (2 x 28672)          = 1,924,145,348,608
    //   down   2 x 2048 x 28672 x 8192                =   962,072,674,304
    const std::vector<LayerGemm> gemms = layerGemms(preset("llama2-70b"), 1, 2048);
    ASSERT_EQ(gemms.size(), 6u);
    EXPECT_EQ(gemms[0].shape, (GemmShape{2048, 8192, 10240}));
    EXPECT_EQ(gemms[0].flops(), 343'597'383'680);
    EXPECT_EQ(gemms[1].flops(), 68'719'476'736);
    EXPECT_EQ(gemms[2].flops(), 68'719'476'736);
    EXPECT_EQ(gemms[3].flops(), 274'877'906'944);
    EXPECT_EQ(gemms[4].shape, (GemmShape{2048, 8192, 57344}));
    EXPECT_EQ(gemms[4].flops(), 1'924'145'348'608);
    EXPECT_EQ(gemms[5].flops(), 962'072'674'304);
    EXPECT_EQ(layerForwardFlops(preset("llama2-70b"), 1, 2048), 3'642'132'267'008);
}

TEST(LayerGemms, GatedMultiHeadByHand) {
    // llama2-7b, two sequences of 2048 (T = 4096, h = 4096, 32 heads of 128, ffn 11008):
    //   qkv 2T h 3h = 412,316,860,416; scores and values 2 s d s x 32 x 2 = 68,719,476,736
    //   each; o 2T h^2 = 137,438,953,472; up 2T h 2ffn = 738,734,374,912;
    //   down 2T ffn h = 369,367,187,456.
    EXPECT_EQ(layerForwardFlops(preset("llama2-7b"), 2, 2048), 1'795'296'329'728);
}

TEST(LayerGemms, MixtureOfExpertsByHand) {
    // grok-1, one sequence of 2048 (h = 6144, 48 heads of 128, 8 kv heads, 8 experts, top 2):
    // the experts see 2 x 2048 token rows; a router GEMM precedes them.
    const std::vector<LayerGemm> gemms = layerGemms(preset("grok-1"), 1, 2048);
    ASSERT_EQ(gemms.size(), 7u);
    EXPECT_EQ(gemms[4].name, "router");
    EXPECT_EQ(gemms[4].shape, (GemmShape{2048, 6144, 8}));
    EXPECT_FALSE(gemms[4].expert);
    EXPECT_EQ(gemms[5].name, "mlp_up");
    EXPECT_EQ(gemms[5].shape, (GemmShape{4096, 6144, 65536}));
    EXPECT_TRUE(gemms[5].expert);
    EXPECT_EQ(gemms[6].shape, (GemmShape{4096, 32768, 6144}));
    EXPECT_TRUE(gemms[6].expert);
    EXPECT_FALSE(gemms[0].expert);
    // 206,158,430,208 + 2 x 51,539,607,552 + 154,618,822,656 + 201,326,592
    //   + 3,298,534,883,328 + 1,649,267,441,664
    EXPECT_EQ(layerForwardFlops(preset("grok-1"), 1, 2048), 5'411'860'119'552);
}

TEST(LayerGemms, AttentionHasNoWeights) {
    for (const LayerGemm& gemm : layerGemms(preset("llama2-7b"), 1, 512))
        EXPECT_EQ(gemm.hasWeight, gemm.name.rfind("attention_", 0) != 0) << gemm.name;
}

TEST(LayerGemms, FlopsIsTwoMknCount) {
    const LayerGemm gemm{"x", {3, 5, 7}, 11, true, false, GemmRole::Linear};
    EXPECT_EQ(gemm.flops(), 2.0 * 3 * 5 * 7 * 11);
    EXPECT_EQ((GemmShape{3, 5, 7}).flops(), 210);
}

} // namespace
} // namespace ws
