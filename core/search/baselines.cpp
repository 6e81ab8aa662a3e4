#include "search/baselines.h"

namespace ws {

std::vector<BaselineFamily> baselineFamilies() {
    auto sequentialNoTatp = [](const Genome& g) {
        return g.placement == PlacementGene::Sequential && g.tatp == 1;
    };
    return {
        {"Megatron-1 (TP)", "dp x tp, no sp, no fsdp, sequential mapping",
         [=](const Genome& g) { return sequentialNoTatp(g) && g.sp == 1 && !g.fsdp; }},
        {"Megatron-3 (TP+SP)", "dp x sp x tp, no fsdp, sequential mapping",
         [=](const Genome& g) { return sequentialNoTatp(g) && !g.fsdp; }},
        {"FSDP", "dp with fsdp (ring all-gather), sequential mapping",
         [=](const Genome& g) {
             return sequentialNoTatp(g) && g.sp == 1 && g.tp == 1 && !g.fsdpMulticast &&
                    (g.fsdp || g.dp == 1);
         }},
    };
}

} // namespace ws
