#include "io/transformer_fields.h"

#include "io/scenario_limits.h"

#include <cstdio>

namespace ws {
namespace {

using namespace limits;

// 1.3194141736370176e+16 -> "1.32e+16": a magnitude is what such a message needs.
std::string roughly(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

} // namespace

TransformerConfig readTransformerShape(const JsonFields& fields, const TransformerKeys& keys) {
    TransformerConfig model;
    model.layers = static_cast<int>(fields.integer(keys.layers, 1, kMaxLayers));
    model.hidden = static_cast<int>(fields.integer(keys.hidden, 1, kMaxHidden));
    model.heads = static_cast<int>(fields.integer(keys.heads, 1, kMaxHeads));
    if (model.hidden % model.heads != 0)
        fields.fail(keys.heads, "must divide " + keys.hidden + " (" + std::to_string(model.hidden) +
                                    ") into equal heads, got " + std::to_string(model.heads));
    model.kvHeads = static_cast<int>(fields.integer(keys.kvHeads, 1, model.heads, model.heads));
    if (model.heads % model.kvHeads != 0)
        fields.fail(keys.kvHeads, "must divide " + keys.heads + " (" + std::to_string(model.heads) +
                                      "), got " + std::to_string(model.kvHeads) +
                                      ": each key/value head serves a whole group of query heads");
    model.ffnHidden = static_cast<int>(fields.integer(keys.ffnHidden, 1, kMaxFfnHidden));
    model.vocab = static_cast<int>(fields.integer(keys.vocab, 1, kMaxVocab));
    model.experts = static_cast<int>(fields.integer(keys.experts, 1, kMaxExperts, 1));
    const std::int64_t perToken = fields.integer(keys.expertsPerToken, 1, kMaxExperts, 1);
    if (perToken > model.experts)
        fields.fail(keys.expertsPerToken, "must be at most " + keys.experts + " (" +
                                              std::to_string(model.experts) +
                                              (fields.has(keys.experts) ? "" : ", the default") +
                                              "), got " + std::to_string(perToken));
    model.expertsPerToken = static_cast<int>(perToken);
    return model;
}

void checkParameterCount(const TransformerConfig& model, const JsonFields& fields) {
    const double parameters = model.totalParameters();
    if (parameters > kMaxParameters)
        fields.failObject("the model has " + roughly(parameters) +
                          " parameters; more than 1e+14 (100 trillion) is not a realistic "
                          "workload");
}

} // namespace ws
