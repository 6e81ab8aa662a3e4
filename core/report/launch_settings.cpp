#include "report/launch_settings.h"

#include <sstream>

namespace ws {

namespace {

std::string flag(const std::string& name, long long value) {
    return name + " " + std::to_string(value);
}

// Sequences per GPU in one micro-batch, or 0 when the workload has no batch of sequences.
long long microBatchSize(const StrategySpec& strategy, const Workload* workload) {
    if (!workload || workload->kind != WorkloadKind::Transformer)
        return 0;
    const long long perStep = static_cast<long long>(strategy.dp) * strategy.microBatches;
    return workload->globalBatch % perStep == 0 ? workload->globalBatch / perStep : 0;
}

std::vector<std::string> megatronArguments(const LaunchSettings& settings,
                                           const StrategySpec& strategy, const Workload* workload) {
    std::vector<std::string> args;
    args.push_back(flag("--tensor-model-parallel-size", settings.tensorParallel));
    // Megatron's default schedule with pipeline stages is 1F1B, as simulated.
    args.push_back(flag("--pipeline-model-parallel-size", settings.pipelineParallel));
    if (settings.contextParallel > 1)
        args.push_back(flag("--context-parallel-size", settings.contextParallel));
    // Megatron's sequence parallelism splits the layer-norm and dropout activations along the
    // tokens within the tensor group: the strategy's sequence_parallel, and what a TATP die does
    // with its own rows. Plain tp replicates them in the memory model, so it stays off then.
    if ((strategy.sequenceParallel || strategy.tatp > 1) && settings.tensorParallel > 1)
        args.push_back("--sequence-parallel");
    const long long micro = microBatchSize(strategy, workload);
    if (workload && workload->kind == WorkloadKind::Transformer) {
        if (micro > 0)
            args.push_back(flag("--micro-batch-size", micro));
        args.push_back(flag("--global-batch-size", workload->globalBatch));
        args.push_back(flag("--seq-length", workload->seqLen));
        args.push_back(flag("--max-position-embeddings", workload->seqLen));
        const TransformerConfig& model = workload->model;
        args.push_back(flag("--num-layers", model.layers));
        args.push_back(flag("--hidden-size", model.hidden));
        args.push_back(flag("--num-attention-heads", model.heads));
        args.push_back(flag("--ffn-hidden-size", model.ffnHidden));
        if (model.kvHeads > 0 && model.kvHeads < model.heads) {
            args.push_back("--group-query-attention");
            args.push_back(flag("--num-query-groups", model.kvHeads));
        }
        if (model.gatedMlp)
            args.push_back("--swiglu");
        if (model.experts > 1) {
            args.push_back(flag("--num-experts", model.experts));
            args.push_back(flag("--moe-router-topk", model.expertsPerToken));
        }
        if (workload->dtypeBytes == 2)
            args.push_back("--bf16");
    }
    switch (strategy.activationCheckpointing) {
    case Checkpointing::None:
        break;
    case Checkpointing::Selective:
        // Megatron's selective recomputation of the core attention (Korthikanti et al.).
        args.push_back("--recompute-activations");
        break;
    case Checkpointing::Full:
        args.push_back("--recompute-granularity full");
        args.push_back("--recompute-method uniform");
        args.push_back(flag("--recompute-num-layers", 1));
        break;
    }
    if (strategy.fsdp)
        args.push_back("--use-distributed-optimizer");
    return args;
}

nlohmann::json deepspeedConfig(const StrategySpec& strategy, const Workload* workload) {
    nlohmann::json config = nlohmann::json::object();
    const long long micro = microBatchSize(strategy, workload);
    if (micro > 0) {
        config["train_batch_size"] = workload->globalBatch;
        config["train_micro_batch_size_per_gpu"] = micro;
    }
    config["gradient_accumulation_steps"] = strategy.microBatches;
    if (workload && workload->dtypeBytes == 2)
        config["bf16"] = {{"enabled", true}};
    nlohmann::json zero = {{"stage", strategy.fsdp ? 3 : 0}};
    if (strategy.fsdp)
        zero["overlap_comm"] = true;
    config["zero_optimization"] = zero;
    // DeepSpeed's activation checkpointing recomputes whole checkpointed blocks: full only.
    if (strategy.activationCheckpointing == Checkpointing::Full)
        config["activation_checkpointing"] = {{"partition_activations", false},
                                              {"contiguous_memory_optimization", false},
                                              {"cpu_checkpointing", false}};
    return config;
}

std::string fsdpSketch(const LaunchSettings& settings, const StrategySpec& strategy) {
    std::ostringstream out;
    out << "# PyTorch FSDP: torchrun --nproc-per-node 8 --nnodes " << (settings.gpus + 7) / 8
        << " train.py (" << settings.gpus << " ranks)\n";
    out << "from torch.distributed.device_mesh import init_device_mesh\n";
    out << "from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, "
           "ShardingStrategy\n";
    out << "mesh = init_device_mesh(\"cuda\", (" << settings.dataParallel << ", "
        << settings.contextParallel * settings.tensorParallel
        << "), mesh_dim_names=(\"dp\", \"tp\"))\n";
    if (settings.tensorParallel > 1)
        out << "# parallelize_module(model, mesh[\"tp\"], plan)  # tensor parallel of degree "
            << settings.tensorParallel << " first\n";
    out << "model = FSDP(model, device_mesh=mesh[\"dp\"], sharding_strategy=ShardingStrategy."
        << (strategy.fsdp ? "FULL_SHARD" : "NO_SHARD") << ", use_orig_params=True)\n";
    if (strategy.activationCheckpointing == Checkpointing::Full)
        out << "# apply_activation_checkpointing(model, check_fn=lambda m: isinstance(m, "
               "TransformerBlock))\n";
    else if (strategy.activationCheckpointing == Checkpointing::Selective)
        out << "# apply_activation_checkpointing(model, check_fn=lambda m: isinstance(m, "
               "CoreAttention))  # selective: the attention core only\n";
    if (strategy.pp > 1)
        out << "# pipeline stages: torch.distributed.pipelining, pipeline_stage over "
            << strategy.pp << " stages with Schedule1F1B(n_microbatches=" << strategy.microBatches
            << "); shard each stage with FSDP over its own dp mesh\n";
    else if (strategy.microBatches > 1)
        out << "# accumulate gradients over " << strategy.microBatches
            << " micro-batches (model.no_sync() on all but the last)\n";
    return out.str();
}

std::vector<std::string> notes(const Scenario& scenario, const StrategySpec& strategy,
                               const Workload* workload, const LaunchSettings& settings) {
    std::vector<std::string> result;
    if (strategy.tatp > 1)
        result.push_back(
            "TATP (degree " + std::to_string(strategy.tatp) +
            ") has no GPU equivalent: it streams sub-tensors one hop at a time between "
            "neighbouring dies instead of all-gathering them. It is mapped to tensor "
            "parallelism of the same degree (tensor size " +
            std::to_string(settings.tensorParallel) +
            "), the nearest GPU analogue, with sequence parallelism for its token split; GPU "
            "tensor parallelism communicates with all-reduce and all-gather instead.");
    if (settings.tensorParallel > 8)
        result.push_back("tensor size " + std::to_string(settings.tensorParallel) +
                         " exceeds the 8 GPUs of an NVLink node: tensor parallelism across "
                         "nodes is slow; consider pipeline parallelism instead.");
    if (strategy.pp > 1)
        result.push_back(
            "pp " + std::to_string(strategy.pp) +
            " pipeline stages run 1F1B, Megatron's default schedule "
            "(--pipeline-model-parallel-size). DeepSpeed sets stages in code "
            "(PipelineModule(layers, num_stages=" +
            std::to_string(strategy.pp) +
            ")) and its pipeline engine supports ZeRO stage 0 or 1 only" +
            // Said only where the config written above asks for stage 3 (fsdp).
            (strategy.fsdp ? ", so its config's ZeRO stage 3 does not combine with it." : "."));
    if (strategy.sp > 1)
        result.push_back("sp " + std::to_string(strategy.sp) +
                         " is mapped to Megatron context parallelism (ring attention); "
                         "DeepSpeed's nearest analogue is Ulysses sequence parallelism.");
    if (strategy.activationCheckpointing == Checkpointing::Selective)
        result.push_back("selective recomputation (attention's softmax, dropout and score "
                         "products) is Megatron-LM's --recompute-activations; DeepSpeed's "
                         "activation_checkpointing recomputes whole blocks, so its config leaves "
                         "it out, and the PyTorch sketch checkpoints the attention core only.");
    if (strategy.fsdp)
        result.push_back(
            "fsdp shards weights, gradients and optimizer state (ZeRO-3): DeepSpeed stage 3 "
            "and PyTorch FULL_SHARD match it; Megatron-LM's --use-distributed-optimizer "
            "shards only the optimizer state (ZeRO-1), so GPU memory per rank is higher than "
            "on the wafer.");
    if (strategy.doubleBuffering && strategy.tatp > 1)
        result.push_back("double buffering of TATP streams has no setting; Megatron overlaps "
                         "tensor-parallel communication with --tp-comm-overlap (Transformer "
                         "Engine).");
    if (scenario.cluster)
        result.push_back(std::string("GPU placement (mapping ") + toString(strategy.mapping) +
                         ") is the launcher's rank order: keep each tensor group inside one "
                         "node (Megatron places tensor ranks on consecutive GPUs).");
    else
        result.push_back(std::string("die placement (mapping ") + toString(strategy.mapping) +
                         ") has no GPU equivalent: keep each tensor group inside one node "
                         "(Megatron places tensor ranks on consecutive GPUs).");
    if (strategy.fsdpAllGatherMulticast)
        result.push_back("multicast FSDP all-gathers have no GPU equivalent (NCCL picks its own "
                         "rings and trees).");
    if (scenario.routing || !scenario.traffic.empty())
        result.push_back(std::string(scenario.cluster ? "" : "wafer ") +
                         "routing (routing mode, pinned paths, TCME-tuned routes) and "
                         "explicit traffic ops have no GPU equivalent.");
    if (!workload)
        result.push_back("the scenario has no workload: batch sizes and model shape are left "
                         "out.");
    else if (workload->kind == WorkloadKind::Gemm)
        result.push_back("the workload is one GEMM, not a model: only parallel sizes are "
                         "given.");
    else if (microBatchSize(strategy, workload) == 0)
        result.push_back("global_batch is not a multiple of dp * micro_batches: "
                         "--micro-batch-size is left out.");
    return result;
}

} // namespace

LaunchSettings launchSettings(const Scenario& scenario, const StrategySpec& strategy,
                              const Workload* workload) {
    LaunchSettings settings;
    settings.gpus = strategy.dieCount();
    settings.dataParallel = strategy.dp;
    settings.tensorParallel = strategy.tp * strategy.tatp;
    settings.pipelineParallel = strategy.pp;
    settings.contextParallel = strategy.sp;
    settings.onCluster = scenario.cluster.has_value();
    settings.megatronArguments = megatronArguments(settings, strategy, workload);
    settings.deepspeedConfig = deepspeedConfig(strategy, workload);
    settings.fsdpSketch = fsdpSketch(settings, strategy);
    settings.notes = notes(scenario, strategy, workload, settings);
    return settings;
}

std::string launchSettingsText(const LaunchSettings& settings, LaunchFramework framework) {
    std::ostringstream out;
    const bool all = framework == LaunchFramework::All;
    out << "# " << settings.gpus << " GPUs: data parallel " << settings.dataParallel
        << " x tensor parallel " << settings.tensorParallel;
    if (settings.contextParallel > 1)
        out << " x context parallel " << settings.contextParallel;
    if (settings.pipelineParallel > 1)
        out << " x pipeline parallel " << settings.pipelineParallel;
    out << (settings.onCluster ? "\n" : " (one GPU per die)\n");
    if (all || framework == LaunchFramework::Megatron) {
        out << "\n# Megatron-LM (pretrain_gpt.py); data parallel size " << settings.dataParallel
            << " is implied by the world size\n";
        for (std::size_t i = 0; i < settings.megatronArguments.size(); ++i)
            out << settings.megatronArguments[i]
                << (i + 1 < settings.megatronArguments.size() ? " \\\n" : "\n");
    }
    if (all || framework == LaunchFramework::DeepSpeed)
        out << "\n# DeepSpeed ds_config.json\n" << settings.deepspeedConfig.dump(2) << '\n';
    if (all || framework == LaunchFramework::Fsdp)
        out << '\n' << settings.fsdpSketch;
    if (!settings.notes.empty()) {
        out << "\n# Notes\n";
        for (const std::string& note : settings.notes)
            out << "# - " << note << '\n';
    }
    return out.str();
}

std::optional<LaunchFramework> launchFrameworkFromString(const std::string& text) {
    if (text == "megatron")
        return LaunchFramework::Megatron;
    if (text == "deepspeed")
        return LaunchFramework::DeepSpeed;
    if (text == "fsdp")
        return LaunchFramework::Fsdp;
    if (text == "all")
        return LaunchFramework::All;
    return std::nullopt;
}

} // namespace ws
