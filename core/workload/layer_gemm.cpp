#include "workload/layer_gemm.h"

namespace ws {

std::vector<LayerGemm> layerGemms(const TransformerConfig& model, double sequences, double seqLen) {
    const double tokens = sequences * seqLen;
    const double h = model.hidden;
    const double d = model.headDim();
    const double headInstances = static_cast<double>(model.heads) * sequences;
    const bool moe = model.experts > 1;
    // Each token visits expertsPerToken experts, so the experts together see that many rows.
    const double mlpRows = moe ? tokens * model.expertsPerToken : tokens;
    const double ffn = model.ffnHidden;

    std::vector<LayerGemm> gemms;
    gemms.push_back(
        {"qkv", {tokens, h, h + 2.0 * model.kvHeads * d}, 1, true, false, GemmRole::Qkv});
    gemms.push_back({"attention_scores",
                     {seqLen, d, seqLen},
                     headInstances,
                     false,
                     false,
                     GemmRole::AttentionScores});
    gemms.push_back({"attention_values",
                     {seqLen, seqLen, d},
                     headInstances,
                     false,
                     false,
                     GemmRole::AttentionValues});
    gemms.push_back(
        {"output_projection", {tokens, h, h}, 1, true, false, GemmRole::OutputProjection});
    if (moe)
        gemms.push_back({"router",
                         {tokens, h, static_cast<double>(model.experts)},
                         1,
                         true,
                         false,
                         GemmRole::Router});
    gemms.push_back(
        {"mlp_up", {mlpRows, h, model.gatedMlp ? 2.0 * ffn : ffn}, 1, true, moe, GemmRole::MlpUp});
    gemms.push_back({"mlp_down", {mlpRows, ffn, h}, 1, true, moe, GemmRole::MlpDown});
    return gemms;
}

double layerForwardFlops(const TransformerConfig& model, double sequences, double seqLen) {
    double flops = 0;
    for (const LayerGemm& gemm : layerGemms(model, sequences, seqLen))
        flops += gemm.flops();
    return flops;
}

} // namespace ws
