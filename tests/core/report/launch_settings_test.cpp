#include "report/launch_settings.h"

#include "io/scenario_io.h"
#include "workload/transformer_presets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace ws {
namespace {

struct Loaded {
    Scenario scenario;
    StrategySpec strategy;
    Workload workload;
};

Loaded load(const std::string& name) {
    Loaded loaded;
    loaded.scenario = loadScenario(std::string(WAFERSCOPE_SCENARIO_DIR) + "/" + name);
    loaded.strategy = *loaded.scenario.strategy;
    loaded.workload = *loaded.scenario.workload;
    return loaded;
}

// dp 6 x tatp 8, fsdp, 4 micro-batches of the global batch 96, checkpointing: TATP becomes
// tensor parallelism of degree 8 with sequence parallelism, 96 / (6 * 4) = 4 sequences per
// micro-batch.
// The four-wafer pipeline (pp 4 x dp 6 x tatp 8, 16 micro-batches of the global batch 384):
// 192 GPUs, Megatron's pipeline size 4, 384 / (6 * 16) = 4 sequences per micro-batch; the note
// says DeepSpeed's pipeline engine cannot take ZeRO stage 3.
TEST(LaunchSettings, PipelineStagesBecomeMegatronsPipelineSize) {
    const Loaded pipeline = load("gpt3_175b_four_6x8_wafers_pp4.json");
    const LaunchSettings settings =
        launchSettings(pipeline.scenario, pipeline.strategy, &pipeline.workload);
    EXPECT_EQ(settings.gpus, 192);
    EXPECT_EQ(settings.pipelineParallel, 4);
    const auto& args = settings.megatronArguments;
    EXPECT_NE(std::find(args.begin(), args.end(), "--pipeline-model-parallel-size 4"), args.end());
    EXPECT_NE(std::find(args.begin(), args.end(), "--micro-batch-size 4"), args.end());
    const std::string text = launchSettingsText(settings, LaunchFramework::All);
    EXPECT_NE(text.find("# 192 GPUs: data parallel 6 x tensor parallel 8 x pipeline parallel 4"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("Schedule1F1B(n_microbatches=16)"), std::string::npos) << text;
    EXPECT_NE(text.find("ZeRO stage 0 or 1 only"), std::string::npos) << text;
}

// Without fsdp the DeepSpeed config asks for ZeRO stage 0, and the pipeline note does not warn
// of a stage 3 the config does not use (GPT-3 13B on 32 A100, pp 2, no fsdp).
TEST(LaunchSettings, ThePipelineNoteNamesOnlyTheZeroStageTheConfigUses) {
    const Loaded cluster = load("gpt3_13b_dgx_a100_32gpu.json");
    ASSERT_FALSE(cluster.strategy.fsdp);
    const LaunchSettings settings =
        launchSettings(cluster.scenario, cluster.strategy, &cluster.workload);
    const std::string text = launchSettingsText(settings, LaunchFramework::All);
    EXPECT_NE(text.find("ZeRO stage 0 or 1 only."), std::string::npos) << text;
    EXPECT_EQ(text.find("stage 3"), std::string::npos) << text;
    EXPECT_NE(text.find("\"stage\": 0"), std::string::npos) << text;
}

// On a GPU cluster the GPUs are the scenario's own: nothing is mapped from dies
// (docs/exports.md "Launch settings").
TEST(LaunchSettings, AClustersSettingsSpeakOfItsGpusNotOfDies) {
    const Loaded cluster = load("gpt3_13b_dgx_a100_32gpu.json");
    const LaunchSettings settings =
        launchSettings(cluster.scenario, cluster.strategy, &cluster.workload);
    EXPECT_TRUE(settings.onCluster);
    const std::string text = launchSettingsText(settings, LaunchFramework::All);
    EXPECT_EQ(text.find(" die"), std::string::npos) << text; // a word, not "gradient"
    EXPECT_EQ(text.find("wafer"), std::string::npos) << text;
    EXPECT_EQ(text.substr(0, text.find('\n')), "# 32 GPUs: data parallel 2 x tensor parallel 8 x "
                                               "pipeline parallel 2");
}

TEST(LaunchSettings, Gpt3FsdpTatpMegatronArguments) {
    const Loaded gpt3 = load("gpt3_175b_6x8_fsdp_tatp.json");
    const LaunchSettings settings = launchSettings(gpt3.scenario, gpt3.strategy, &gpt3.workload);
    EXPECT_EQ(settings.gpus, 48);
    EXPECT_EQ(settings.dataParallel, 6);
    EXPECT_EQ(settings.tensorParallel, 8);
    EXPECT_EQ(settings.contextParallel, 1);
    const std::string text = launchSettingsText(settings, LaunchFramework::Megatron);
    EXPECT_EQ(text.substr(0, text.find("\n# Notes\n")),
              "# 48 GPUs: data parallel 6 x tensor parallel 8 (one GPU per die)\n"
              "\n"
              "# Megatron-LM (pretrain_gpt.py); data parallel size 6 is implied by the world "
              "size\n"
              "--tensor-model-parallel-size 8 \\\n"
              "--pipeline-model-parallel-size 1 \\\n"
              "--sequence-parallel \\\n"
              "--micro-batch-size 4 \\\n"
              "--global-batch-size 96 \\\n"
              "--seq-length 2048 \\\n"
              "--max-position-embeddings 2048 \\\n"
              "--num-layers 96 \\\n"
              "--hidden-size 12288 \\\n"
              "--num-attention-heads 96 \\\n"
              "--ffn-hidden-size 49152 \\\n"
              "--bf16 \\\n"
              "--recompute-granularity full \\\n"
              "--recompute-method uniform \\\n"
              "--recompute-num-layers 1 \\\n"
              "--use-distributed-optimizer\n");
}

TEST(LaunchSettings, Gpt3FsdpTatpDeepSpeedConfig) {
    const Loaded gpt3 = load("gpt3_175b_6x8_fsdp_tatp.json");
    const LaunchSettings settings = launchSettings(gpt3.scenario, gpt3.strategy, &gpt3.workload);
    EXPECT_EQ(settings.deepspeedConfig.dump(),
              R"({"activation_checkpointing":{"contiguous_memory_optimization":false,)"
              R"("cpu_checkpointing":false,"partition_activations":false},"bf16":{"enabled":true},)"
              R"("gradient_accumulation_steps":4,"train_batch_size":96,)"
              R"("train_micro_batch_size_per_gpu":4,)"
              R"("zero_optimization":{"overlap_comm":true,"stage":3}})");
    // train_batch_size = micro-batch x accumulation x data parallel, as DeepSpeed checks.
    EXPECT_EQ(4 * 4 * settings.dataParallel, 96);
}

TEST(LaunchSettings, NotesSayWhatHasNoGpuEquivalent) {
    const Loaded gpt3 = load("gpt3_175b_6x8_fsdp_tatp.json");
    const LaunchSettings settings = launchSettings(gpt3.scenario, gpt3.strategy, &gpt3.workload);
    ASSERT_EQ(settings.notes.size(), 4u);
    EXPECT_EQ(settings.notes[0].rfind("TATP (degree 8) has no GPU equivalent: ", 0), 0u);
    EXPECT_NE(settings.notes[0].find("tensor parallelism of the same degree (tensor size 8)"),
              std::string::npos);
    EXPECT_EQ(settings.notes[1].rfind("fsdp shards weights, gradients and optimizer state", 0), 0u);
    EXPECT_EQ(settings.notes[2].rfind("double buffering of TATP streams", 0), 0u);
    EXPECT_EQ(settings.notes[3].rfind("die placement (mapping snake) has no GPU equivalent", 0),
              0u);
    const std::string all = launchSettingsText(settings, LaunchFramework::All);
    for (const char* part : {"# Megatron-LM", "# DeepSpeed ds_config.json\n{\n  \"activation",
                             "ShardingStrategy.FULL_SHARD", "# Notes\n# - TATP (degree 8)"})
        EXPECT_NE(all.find(part), std::string::npos) << part;
}

TEST(LaunchSettings, PlainTensorAndSequenceParallelism) {
    Scenario scenario;
    StrategySpec strategy;
    strategy.dp = 2;
    strategy.sp = 2;
    strategy.tp = 4;
    Workload workload;
    workload.model = *transformerPreset("llama2-7b");
    workload.globalBatch = 8;
    workload.seqLen = 4096;
    const LaunchSettings settings = launchSettings(scenario, strategy, &workload);
    EXPECT_EQ(settings.gpus, 16);
    const auto& args = settings.megatronArguments;
    ASSERT_GE(args.size(), 4u);
    EXPECT_EQ(args[0], "--tensor-model-parallel-size 4");
    EXPECT_EQ(args[1], "--pipeline-model-parallel-size 1");
    EXPECT_EQ(args[2], "--context-parallel-size 2");
    EXPECT_EQ(args[3], "--micro-batch-size 4"); // no --sequence-parallel without TATP
    EXPECT_NE(std::find(args.begin(), args.end(), "--swiglu"), args.end());
    EXPECT_EQ(settings.deepspeedConfig.at("zero_optimization").at("stage"), 0);
    EXPECT_NE(settings.fsdpSketch.find("NO_SHARD"), std::string::npos);
}

TEST(LaunchSettings, WithoutWorkloadOnlyParallelSizes) {
    Scenario scenario;
    StrategySpec strategy;
    strategy.tatp = 4;
    const LaunchSettings settings = launchSettings(scenario, strategy, nullptr);
    EXPECT_EQ(
        settings.megatronArguments,
        (std::vector<std::string>{"--tensor-model-parallel-size 4",
                                  "--pipeline-model-parallel-size 1", "--sequence-parallel"}));
    EXPECT_FALSE(settings.deepspeedConfig.contains("train_batch_size"));
    EXPECT_NE(settings.notes.back().find("no workload"), std::string::npos);
    EXPECT_EQ(launchFrameworkFromString("deepspeed"), LaunchFramework::DeepSpeed);
    EXPECT_EQ(launchFrameworkFromString("jax"), std::nullopt);
}

// Megatron-3 as published: tensor parallelism with --sequence-parallel and selective
// recomputation, which is --recompute-activations; DeepSpeed has no selective section.
TEST(LaunchSettings, SequenceParallelismAndSelectiveRecomputation) {
    Scenario scenario;
    StrategySpec strategy;
    strategy.dp = 2;
    strategy.tp = 8;
    strategy.sequenceParallel = true;
    strategy.activationCheckpointing = Checkpointing::Selective;
    Workload workload;
    workload.model = *transformerPreset("gpt3-175b");
    workload.globalBatch = 128;
    const LaunchSettings settings = launchSettings(scenario, strategy, &workload);
    const auto& args = settings.megatronArguments;
    const auto has = [&](const char* arg) {
        return std::find(args.begin(), args.end(), arg) != args.end();
    };
    EXPECT_EQ(args[2], "--sequence-parallel");
    EXPECT_TRUE(has("--recompute-activations"));
    EXPECT_FALSE(has("--recompute-granularity full"));
    EXPECT_FALSE(settings.deepspeedConfig.contains("activation_checkpointing"));
    EXPECT_NE(settings.fsdpSketch.find("CoreAttention"), std::string::npos);
    EXPECT_TRUE(std::any_of(settings.notes.begin(), settings.notes.end(), [](const auto& note) {
        return note.rfind("selective recomputation", 0) == 0;
    }));

    // Full: the three flags of a uniform recomputation of every layer, and no note.
    strategy.activationCheckpointing = Checkpointing::Full;
    const LaunchSettings full = launchSettings(scenario, strategy, &workload);
    EXPECT_NE(std::find(full.megatronArguments.begin(), full.megatronArguments.end(),
                        "--recompute-granularity full"),
              full.megatronArguments.end());
    EXPECT_TRUE(full.deepspeedConfig.contains("activation_checkpointing"));
    // Without sequence parallelism (and without TATP) plain tp replicates: no flag.
    strategy.sequenceParallel = false;
    const LaunchSettings plain = launchSettings(scenario, strategy, &workload);
    EXPECT_EQ(std::find(plain.megatronArguments.begin(), plain.megatronArguments.end(),
                        "--sequence-parallel"),
              plain.megatronArguments.end());
}

} // namespace
} // namespace ws
