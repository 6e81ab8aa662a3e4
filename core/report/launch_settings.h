#pragma once

#include "scenario/scenario.h"
#include "scenario/strategy_spec.h"
#include "scenario/workload.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ws {

// Launch settings for GPU frameworks derived from a scenario's strategy (docs/exports.md):
// Megatron-LM command-line arguments, a DeepSpeed config and a PyTorch FSDP sketch, with notes
// on what maps only approximately or has no GPU equivalent.
//
// Mapping (one GPU per die, world size pp * dp * sp * tp * tatp):
//   dp    -> data parallelism: implied by Megatron (world / (tensor * context)), DeepSpeed's
//            data-parallel world; it is the dp of the strategy.
//   tp    -> --tensor-model-parallel-size.
//   tatp  -> no GPU equivalent (a neighbour-to-neighbour stream on the wafer); mapped to tensor
//            parallelism of the same degree, the nearest analogue: tensor size = tp * tatp, with
//            --sequence-parallel because a TATP die keeps only its own token rows.
//   sp    -> --context-parallel-size (the strategy's sp splits the tokens of every layer).
//   pp    -> --pipeline-model-parallel-size (1F1B, Megatron's default schedule, as simulated);
//            DeepSpeed's PipelineModule(num_stages) and torch.distributed.pipelining's
//            Schedule1F1B, both in code: a note and the sketch say so.
//   sequence_parallel -> --sequence-parallel (also written for tatp > 1, above).
//   fsdp  -> DeepSpeed ZeRO stage 3 / PyTorch FULL_SHARD; Megatron --use-distributed-optimizer
//            (which shards only the optimizer state: noted).
//   micro_batches -> gradient accumulation steps; --micro-batch-size is
//            global_batch / (dp * micro_batches) sequences.
//   activation_checkpointing "full" (true) -> full recomputation of every layer (the memory
//            model keeps each layer's input only): --recompute-granularity full
//            --recompute-method uniform --recompute-num-layers 1; DeepSpeed's
//            activation_checkpointing section; PyTorch's apply_activation_checkpointing.
//            "selective" -> --recompute-activations (Megatron's selective recomputation of the
//            core attention); no DeepSpeed section; the PyTorch sketch checkpoints the attention
//            core; a note says so.
// Worked example (gpt3_175b_6x8_fsdp_tatp.json: dp 6, tatp 8, fsdp, 4 micro-batches of the
// global batch 96): 48 GPUs, --tensor-model-parallel-size 8 --sequence-parallel
// --micro-batch-size 4 --global-batch-size 96, DeepSpeed ZeRO stage 3, gradient accumulation 4.
struct LaunchSettings {
    int gpus = 0;             // world size
    int dataParallel = 1;     // dp
    int tensorParallel = 1;   // tp * tatp
    int contextParallel = 1;  // sp
    int pipelineParallel = 1; // pp
    bool onCluster = false;   // the scenario is a GPU cluster: its GPUs are the GPUs, not dies
    std::vector<std::string> megatronArguments; // "--tensor-model-parallel-size 8", in order
    nlohmann::json deepspeedConfig;             // a ds_config.json
    std::string fsdpSketch;                     // PyTorch code, commented
    std::vector<std::string> notes;             // approximations and what has no equivalent
};

enum class LaunchFramework { Megatron, DeepSpeed, Fsdp, All };

// `workload` may be null (no workload: batch and model flags are left out, and a note says so).
LaunchSettings launchSettings(const Scenario& scenario, const StrategySpec& strategy,
                              const Workload* workload);

// The settings as text for one framework or all of them: comment lines start with "#", the
// Megatron arguments are one per line with a trailing backslash, the DeepSpeed config is
// indented JSON. Every framework's text ends with the notes.
std::string launchSettingsText(const LaunchSettings& settings, LaunchFramework framework);

// "megatron", "deepspeed", "fsdp", "all"; nullopt for anything else.
std::optional<LaunchFramework> launchFrameworkFromString(const std::string& text);

} // namespace ws
