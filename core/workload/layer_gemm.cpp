#include "workload/layer_gemm.h"

namespace ws {

const char* toString(GemmRole role) {
    switch (role) {
    case GemmRole::Linear:
        return "linear";
    case GemmRole::Qkv:
        return "qkv";
    case GemmRole::AttentionScores:
        return "attention_scores";
    case GemmRole::AttentionValues:
        return "attention_values";
    case GemmRole::OutputProjection:
        return "output_projection";
    case GemmRole::Router:
        return "router";
    case GemmRole::MlpUp:
        return "mlp_up";
    case GemmRole::MlpDown:
        return "mlp_down";
    case GemmRole::LmHead:
        break;
    }
    return "lm_head";
}

namespace {

LayerGemm gemmOf(GemmRole role, GemmShape shape, double count, bool hasWeight, bool expert) {
    return {toString(role), shape, count, hasWeight, expert, role};
}

} // namespace

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
        gemmOf(GemmRole::Qkv, {tokens, h, h + 2.0 * model.kvHeads * d}, 1, true, false));
    gemms.push_back(
        gemmOf(GemmRole::AttentionScores, {seqLen, d, seqLen}, headInstances, false, false));
    gemms.push_back(
        gemmOf(GemmRole::AttentionValues, {seqLen, seqLen, d}, headInstances, false, false));
    gemms.push_back(gemmOf(GemmRole::OutputProjection, {tokens, h, h}, 1, true, false));
    if (moe)
        gemms.push_back(gemmOf(GemmRole::Router, {tokens, h, static_cast<double>(model.experts)}, 1,
                               true, false));
    gemms.push_back(
        gemmOf(GemmRole::MlpUp, {mlpRows, h, model.gatedMlp ? 2.0 * ffn : ffn}, 1, true, moe));
    gemms.push_back(gemmOf(GemmRole::MlpDown, {mlpRows, ffn, h}, 1, true, moe));
    return gemms;
}

double layerForwardFlops(const TransformerConfig& model, double sequences, double seqLen) {
    double flops = 0;
    for (const LayerGemm& gemm : layerGemms(model, sequences, seqLen))
        flops += gemm.flops();
    return flops;
}

} // namespace ws
