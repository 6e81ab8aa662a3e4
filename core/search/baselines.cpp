#include "search/baselines.h"

namespace ws {

std::vector<BaselineFamily> baselineFamilies() {
    // None of the three published systems, as the paper compares them, pipelines its layers.
    auto sequentialNoTatp = [](const Genome& g) {
        return g.placement == PlacementGene::Sequential && g.tatp == 1 && g.pp == 1;
    };
    // Megatron-1 and PyTorch FSDP recompute whole layers or nothing; selective recomputation
    // and sequence parallelism came with Megatron-3.
    auto noneOrFull = [](const Genome& g) { return g.checkpointing != Checkpointing::Selective; };
    return {
        {"Megatron-1 (TP)",
         "dp x tp, no sequence parallelism, no or full checkpointing, no fsdp, sequential mapping",
         [=](const Genome& g) {
             return sequentialNoTatp(g) && g.sp == 1 && !g.fsdp && !g.sequenceParallel &&
                    noneOrFull(g);
         }},
        // Korthikanti et al. (MLSys 2023): sequence parallelism in every TP group and selective
        // recomputation; context parallelism (sp) as the paper's Megatron-3 baseline has it.
        {"Megatron-3 (TP+SP)",
         "dp x sp (context) x tp, sequence parallelism, selective recomputation, no fsdp, "
         "sequential mapping",
         [=](const Genome& g) {
             return sequentialNoTatp(g) && !g.fsdp && g.sequenceParallel == (g.tp > 1) &&
                    !g.tpOverlap && g.checkpointing == Checkpointing::Selective;
         }},
        {"FSDP", "dp with fsdp (ring all-gather), no or full checkpointing, sequential mapping",
         [=](const Genome& g) {
             return sequentialNoTatp(g) && g.sp == 1 && g.tp == 1 && !g.fsdpMulticast &&
                    (g.fsdp || g.dp == 1) && noneOrFull(g);
         }},
    };
}

} // namespace ws
