#include "scenario/workload.h"

namespace ws {

const char* toString(AttentionKind attention) {
    return attention == AttentionKind::Flash ? "flash" : "standard";
}

double Workload::tokensPerStep() const {
    if (kind == WorkloadKind::Gemm)
        return gemm.m;
    return static_cast<double>(globalBatch) * static_cast<double>(seqLen);
}

} // namespace ws
