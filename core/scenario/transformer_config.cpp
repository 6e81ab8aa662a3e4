#include "scenario/transformer_config.h"

namespace ws {

int TransformerConfig::headDim() const {
    return heads > 0 ? hidden / heads : 0;
}

double TransformerConfig::parametersPerLayer() const {
    const double h = hidden;
    const double kvWidth = static_cast<double>(kvHeads) * headDim();
    const double attention = h * h + 2.0 * h * kvWidth + h * h; // q, k and v, o
    const double mlp = static_cast<double>(experts) * (gatedMlp ? 3.0 : 2.0) * h * ffnHidden;
    const double router = experts > 1 ? h * experts : 0.0;
    const double norms = 2.0 * h;
    return attention + mlp + router + norms;
}

double TransformerConfig::embeddingParameters() const {
    return static_cast<double>(vocab) * hidden;
}

double TransformerConfig::totalParameters() const {
    return layers * parametersPerLayer() + embeddingParameters() + hidden;
}

} // namespace ws
