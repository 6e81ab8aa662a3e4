// Every user intention as a pure core edit (core/edit/scenario_edits.h): what it changes, and
// each refusal with its typed reason.
#include "edit/scenario_edits.h"

#include "io/scenario_io.h"
#include "io/scenario_writer.h"
#include "io/strategy_reader.h"
#include "io/workload_reader.h"
#include "scenario/strategy_spec.h"
#include "scenario/wafer_presets.h"
#include "strategy/die_groups.h"
#include "workload/transformer_presets.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

namespace ws {
namespace {

using Reason = EditRefused::Reason;

WaferTopology mesh(int rows, int cols, std::vector<DieId> dead = {}) {
    return WaferTopology(TopologySpec{rows, cols, TopologyKind::Mesh, std::move(dead), {}});
}

Scenario gemmScenario(nlohmann::json strategy) {
    Scenario scenario;
    scenario.wafer.rows = 4;
    scenario.wafer.cols = 4;
    scenario.workload =
        parseWorkload(nlohmann::json{{"kind", "gemm"}, {"m", 1024}, {"k", 1024}, {"n", 1024}}, {});
    scenario.strategy = parseStrategy(strategy);
    return scenario;
}

// GPT-3 6.7B (32 heads) on a 4x4 wafer.
Scenario transformerScenario() {
    Scenario scenario;
    scenario.wafer.rows = 4;
    scenario.wafer.cols = 4;
    scenario.workload = parseWorkload(nlohmann::json{{"kind", "transformer"},
                                                     {"model", "gpt3-6.7b"},
                                                     {"seq_len", 2048},
                                                     {"global_batch", 8}},
                                      {});
    scenario.strategy = parseStrategy(nlohmann::json{{"dp", 2}, {"tatp", 2}});
    return scenario;
}

Scenario teachingTraffic() {
    return loadScenario(WAFERSCOPE_SCENARIO_DIR "/contention_fsdp_tatp_4x4.json");
}

// `edit` must be refused with `reason`, its sentence containing `part`.
void expectRefused(const std::function<void()>& edit, Reason reason, const std::string& part) {
    try {
        edit();
        ADD_FAILURE() << "expected a refusal containing '" << part << "'";
    } catch (const EditRefused& refused) {
        EXPECT_EQ(refused.reason(), reason) << refused.what();
        EXPECT_NE(std::string(refused.what()).find(part), std::string::npos) << refused.what();
    }
}

// A die key keeps the unit text the GUI wrote, and a value the file would refuse is refused
// with the reader's own message, naming the key.
TEST(ScenarioEdits, ADieKeyIsSetWithTheFilesOwnRules) {
    const Scenario before = transformerScenario();
    const Scenario after = setDieKey(before, "task_overhead", "500 ns");
    EXPECT_EQ(after.wafer.die.taskOverhead, (Quantity{500e-9, "500 ns"}));
    EXPECT_EQ(setDieKey(before, "gemm_tile", 64).wafer.die.gemmTile, 64);
    EXPECT_DOUBLE_EQ(setDieKey(before, "sram_reserve", 0.25).wafer.die.sramReserve, 0.25);
    EXPECT_EQ(setDieKey(before, "peak_flops", "1200 TFLOP/s").wafer.die.peakFlops.value, 1200e12);
    auto refusal = [&](const char* key, const nlohmann::json& value) -> std::string {
        try {
            setDieKey(before, key, value);
        } catch (const EditRefused& refused) {
            return refused.what();
        }
        return "applied";
    };
    EXPECT_NE(refusal("sram_reserve", 1.0).find("wafer.die.sram_reserve"), std::string::npos);
    EXPECT_NE(refusal("gemm_tile", 0).find("wafer.die.gemm_tile"), std::string::npos);
    EXPECT_NE(refusal("peak_flop", 1e15).find("did you mean 'peak_flops'?"), std::string::npos);
    EXPECT_EQ(before.wafer.die, transformerScenario().wafer.die); // the scenario is untouched
}

// The links' bandwidth and latency are set with the file's rules and messages too.
TEST(ScenarioEdits, ALinkKeyIsSetWithTheFilesOwnRules) {
    const Scenario before = transformerScenario();
    EXPECT_EQ(setLinkKey(before, "link_bandwidth", "2.5 TB/s").wafer.linkBandwidth,
              (Quantity{2.5e12, "2.5 TB/s"}));
    EXPECT_EQ(setLinkKey(before, "link_latency", "50 ns").wafer.linkLatency,
              (Quantity{50e-9, "50 ns"}));
    auto refusal = [&](const char* key, const nlohmann::json& value) -> std::string {
        try {
            setLinkKey(before, key, value);
        } catch (const EditRefused& refused) {
            return refused.what();
        }
        return "applied";
    };
    EXPECT_EQ(refusal("link_bandwidth", "-3 TB/s"), "wafer.link_bandwidth: '-3 TB/s' is negative");
    EXPECT_NE(refusal("link_latency", "2 s").find("wafer.link_latency"), std::string::npos);
    EXPECT_NE(refusal("link_latency", "4 TB/s").find("wafer.link_latency"), std::string::npos);
    EXPECT_NE(refusal("rows", 3).find("not a link key"), std::string::npos);
    EXPECT_EQ(before.wafer, transformerScenario().wafer); // the scenario is untouched
}

TEST(ScenarioEdits, AnEnergyKeyIsSetWithTheFilesOwnRules) {
    const Scenario before = transformerScenario();
    const Scenario after = setEnergyKey(before, "d2d_pj_per_bit", 2.5);
    EXPECT_DOUBLE_EQ(after.wafer.energy.d2dPicojoulesPerBit, 2.5);
    EXPECT_DOUBLE_EQ(after.wafer.energy.hbmPicojoulesPerBit,
                     before.wafer.energy.hbmPicojoulesPerBit); // the others are kept
    EXPECT_DOUBLE_EQ(setEnergyKey(before, "flops_per_joule", 4e12).wafer.energy.flopsPerJoule,
                     4e12);
    EXPECT_DOUBLE_EQ(setEnergyKey(before, "hbm_pj_per_bit", 0).wafer.energy.hbmPicojoulesPerBit,
                     0.0);
    auto refusal = [&](const char* key, double value) -> std::string {
        try {
            setEnergyKey(before, key, value);
        } catch (const EditRefused& refused) {
            return refused.what();
        }
        return "applied";
    };
    EXPECT_NE(refusal("d2d_pj_per_bit", -1).find("wafer.energy.d2d_pj_per_bit"), std::string::npos);
    EXPECT_NE(refusal("flops_per_joule", 0).find("greater than 0"), std::string::npos);
    EXPECT_NE(refusal("d2d_pj_per_byte", 1).find("d2d_pj_per_byte"), std::string::npos);
    EXPECT_NE(refusal("x-note", 1).find("not an energy key"), std::string::npos);
    EXPECT_EQ(before.wafer, transformerScenario().wafer);
}

TEST(ScenarioEdits, SetADegreeAndDropDraggedGroups) {
    const Scenario before = gemmScenario({{"dp", 2}, {"tatp", 2}});
    const Scenario after = setStrategyDegree(before, StrategyDegree::Tatp, 4);
    EXPECT_EQ(after.strategy->tatp, 4);
    EXPECT_EQ(before.strategy->tatp, 2); // the input is untouched

    const Scenario dragged = moveDies(before, mesh(4, 4), {1}, 1, 5);
    ASSERT_EQ(dragged.strategy->mapping, StrategySpec::Explicit);
    // A new degree no longer fits the dragged groups: back to the sequential mapping.
    const Scenario resized = setStrategyDegree(dragged, StrategyDegree::Dp, 1);
    EXPECT_EQ(resized.strategy->mapping, StrategySpec::Sequential);
    // Micro-batches do not change the groups.
    const Scenario accumulated = setStrategyDegree(dragged, StrategyDegree::MicroBatches, 2);
    EXPECT_EQ(accumulated.strategy->mapping, StrategySpec::Explicit);
    EXPECT_EQ(accumulated.strategy->microBatches, 2);
}

TEST(ScenarioEdits, ADegreeTheModelCannotTakeIsRefusedNamingTheKey) {
    expectRefused([] { setStrategyDegree(transformerScenario(), StrategyDegree::Tp, 5); },
                  Reason::Infeasible, "strategy.tp");
    // 16 x 2 = 32 dies on a 16-die wafer.
    expectRefused([] { setStrategyDegree(transformerScenario(), StrategyDegree::Dp, 16); },
                  Reason::Infeasible, "strategy");
    expectRefused([] { setStrategyDegree(teachingTraffic(), StrategyDegree::Dp, 2); },
                  Reason::NoStrategy, "no strategy");
}

TEST(ScenarioEdits, FlagsAndMappings) {
    const Scenario fsdp = setStrategyFlag(transformerScenario(), StrategyFlag::Fsdp, true);
    EXPECT_TRUE(fsdp.strategy->fsdp);
    const Scenario checkpointed = setActivationCheckpointing(fsdp, Checkpointing::Selective);
    EXPECT_EQ(checkpointed.strategy->activationCheckpointing, Checkpointing::Selective);
    EXPECT_EQ(setActivationCheckpointing(checkpointed, Checkpointing::Full)
                  .strategy->activationCheckpointing,
              Checkpointing::Full);
    const Scenario single = setStrategyFlag(fsdp, StrategyFlag::DoubleBuffering, false);
    EXPECT_FALSE(single.strategy->doubleBuffering);

    const Scenario snake = setStrategyMapping(transformerScenario(), StrategySpec::Snake);
    EXPECT_EQ(snake.strategy->mapping, StrategySpec::Snake);
    expectRefused([] { setStrategyMapping(transformerScenario(), StrategySpec::Explicit); },
                  Reason::NoChange, "drag dies");
}

// strategy.sequence_parallel needs tp > 1: turning it on with tp 1 is refused with the file's
// own message, and setting tp to 1 turns it off in the same edit.
TEST(ScenarioEdits, SequenceParallelismNeedsTensorParallelism) {
    expectRefused(
        [] { setStrategyFlag(transformerScenario(), StrategyFlag::SequenceParallel, true); },
        Reason::Infeasible, "strategy.sequence_parallel: needs tp > 1");
    const Scenario tp2 = setStrategyDegree(transformerScenario(), StrategyDegree::Tp, 2);
    const Scenario parallel = setStrategyFlag(tp2, StrategyFlag::SequenceParallel, true);
    EXPECT_TRUE(parallel.strategy->sequenceParallel);
    const Scenario tp1 = setStrategyDegree(parallel, StrategyDegree::Tp, 1);
    EXPECT_EQ(tp1.strategy->tp, 1);
    EXPECT_FALSE(tp1.strategy->sequenceParallel);
    // Without a workload too: a saved scenario must read back.
    Scenario noWorkload = transformerScenario();
    noWorkload.workload.reset();
    expectRefused([&] { setStrategyFlag(noWorkload, StrategyFlag::SequenceParallel, true); },
                  Reason::Infeasible, "strategy.sequence_parallel");
}

TEST(ScenarioEdits, AModelPresetTurnsTrafficIntoATrainingStep) {
    const Scenario step = setModelPreset(teachingTraffic(), "llama2-7b");
    ASSERT_TRUE(step.workload.has_value());
    EXPECT_EQ(step.workload->model, transformerPreset("llama2-7b"));
    EXPECT_EQ(step.workload->modelSource, ModelSource::Preset);
    EXPECT_TRUE(step.traffic.empty());
    EXPECT_FALSE(step.routing.has_value());
    ASSERT_TRUE(step.strategy.has_value());

    // On a training step only the model changes; sequence length and batch stay.
    const Scenario other = setModelPreset(transformerScenario(), "llama2-7b");
    EXPECT_EQ(other.workload->seqLen, 2048);
    EXPECT_EQ(other.workload->globalBatch, 8);
    EXPECT_EQ(other.strategy, transformerScenario().strategy);

    expectRefused([] { setModelPreset(transformerScenario(), "gpt-5"); }, Reason::Infeasible,
                  "no preset is named 'gpt-5'");
}

TEST(ScenarioEdits, SequenceLengthAndGlobalBatchAreSetOnATransformerOnly) {
    const Scenario before = transformerScenario(); // dp 2 x tatp 2, global batch 8, seq_len 2048
    const Scenario longer = setWorkloadSize(before, WorkloadSize::SeqLen, 4096);
    EXPECT_EQ(longer.workload->seqLen, 4096);
    EXPECT_EQ(before.workload->seqLen, 2048); // the input is untouched
    EXPECT_EQ(setWorkloadSize(before, WorkloadSize::GlobalBatch, 16).workload->globalBatch, 16);

    expectRefused([] { setWorkloadSize(transformerScenario(), WorkloadSize::GlobalBatch, 3); },
                  Reason::Infeasible, "strategy.dp");
    expectRefused([] { setWorkloadSize(transformerScenario(), WorkloadSize::SeqLen, 0); },
                  Reason::Infeasible, "workload.seq_len: must be 1 to 16777216, got 0");
    expectRefused(
        [] { setWorkloadSize(transformerScenario(), WorkloadSize::GlobalBatch, 1 << 25); },
        Reason::Infeasible, "workload.global_batch: must be 1 to 16777216");
    expectRefused(
        [] {
            setWorkloadSize(gemmScenario({{"dp", 2}}), WorkloadSize::SeqLen, 64);
        },
        Reason::Infeasible, "only a transformer workload");
    expectRefused([] { setWorkloadSize(teachingTraffic(), WorkloadSize::SeqLen, 64); },
                  Reason::Infeasible, "only a transformer workload");
}

// Found on the way: the preset edit erased a key named "config", not "hf_config", so a Hugging
// Face workload became one with both `model` and `hf_config`, which no longer loads.
TEST(ScenarioEdits, AModelPresetReplacesAHuggingFaceConfig) {
    Scenario scenario = transformerScenario();
    scenario.workload =
        parseWorkload(nlohmann::json{{"kind", "transformer"},
                                     {"hf_config", "llama2_7b_config.json"},
                                     {"seq_len", 2048},
                                     {"global_batch", 8}},
                      std::filesystem::path(WAFERSCOPE_TEST_DATA_DIR) / ".." / "io" / "data");
    ASSERT_EQ(scenario.workload->modelSource, ModelSource::HuggingFace);
    const Scenario preset = setModelPreset(scenario, "gpt3-6.7b");
    EXPECT_EQ(preset.workload->modelSource, ModelSource::Preset);
    EXPECT_TRUE(preset.workload->hfConfig.empty());
    EXPECT_EQ(preset.workload->model, transformerPreset("gpt3-6.7b"));
    EXPECT_EQ(preset.workload->globalBatch, 8);
    // What is saved loads again, as this very scenario.
    EXPECT_EQ(parseScenario(formatScenarioText(preset)), preset);
}

// A die's speed is a slow_dies entry below 1; 1 removes it. The saved file reads back the same
// speeds, and a die that is dead, off the wafer or given a speed outside (0, 1] is refused.
TEST(ScenarioEdits, ADiesSpeedIsASlowDiesEntryAndFullSpeedRemovesIt) {
    Scenario before = gemmScenario({{"tatp", 4}});
    before.wafer.deadDies = {15};
    const Scenario slow = setDieSpeed(before, 5, 0.5);
    EXPECT_EQ(slow.wafer.slowDies, (std::map<DieId, double>{{5, 0.5}}));
    EXPECT_DOUBLE_EQ(slow.wafer.dieSpeed(5), 0.5);
    EXPECT_EQ(parseScenario(nlohmann::json(toOrderedJson(slow))).wafer.slowDies,
              slow.wafer.slowDies);
    EXPECT_EQ(setDieSpeed(setDieSpeed(slow, 5, 0.25), 5, 0.25).wafer.slowDies.at(5), 0.25);
    EXPECT_EQ(setDieSpeed(slow, 5, 1.0), before); // full speed: the entry goes
    EXPECT_EQ(setDieSpeed(before, 6, 1.0), before);

    expectRefused([&] { setDieSpeed(before, 15, 0.5); }, Reason::DieUnavailable,
                  "wafer.faults.slow_dies.15: die 15 is dead");
    expectRefused([&] { setDieSpeed(before, 16, 0.5); }, Reason::OffWafer,
                  "the 4x4 wafer has no die 16");
    expectRefused([&] { setDieSpeed(before, -1, 0.5); }, Reason::OffWafer, "no die -1");
    for (const double speed : {0.0, -0.5, 1.5, std::nan("")})
        expectRefused([&] { setDieSpeed(before, 5, speed); }, Reason::Infeasible,
                      "wafer.faults.slow_dies.5: a die's speed is the fraction of its peak");
}

// Dead dies and links (docs/compute-model.md section 8) are edited one at a time and undone by
// the opposite edit; the file reads back the same faults. A die made dead stops being slow; a
// link written dead both ways keeps its other direction dead when one is revived.
TEST(ScenarioEdits, DiesAndLinksAreMadeDeadAndAliveAgain) {
    Scenario before = gemmScenario({{"tatp", 4}});
    before.wafer.deadDies = {2, 9};
    before.wafer.slowDies = {{5, 0.5}};
    const Scenario deadFive = setDieDead(before, 5, true);
    EXPECT_EQ(deadFive.wafer.deadDies, (std::vector<DieId>{2, 5, 9})); // in order
    EXPECT_TRUE(deadFive.wafer.slowDies.empty());
    EXPECT_EQ(parseScenario(nlohmann::json(toOrderedJson(deadFive))).wafer.deadDies,
              deadFive.wafer.deadDies);
    EXPECT_EQ(setDieDead(before, 9, false).wafer.deadDies, (std::vector<DieId>{2}));
    expectRefused([&] { setDieDead(before, 2, true); }, Reason::NoChange,
                  "wafer.faults.dies: die 2 is already dead");
    expectRefused([&] { setDieDead(before, 3, false); }, Reason::NoChange,
                  "die 3 is already alive");
    expectRefused([&] { setDieDead(before, 16, true); }, Reason::OffWafer, "has no die 16");

    const WaferTopology topology = mesh(4, 4);
    const Scenario deadLink = setLinkDead(before, topology, 1, 2, true);
    EXPECT_EQ(deadLink.wafer.deadLinks, (std::vector<LinkRef>{{1, 2, false}}));
    EXPECT_EQ(setLinkDead(deadLink, topology, 1, 2, false), before);
    EXPECT_EQ(parseScenario(nlohmann::json(toOrderedJson(deadLink))).wafer.deadLinks,
              deadLink.wafer.deadLinks);
    Scenario both = before;
    both.wafer.deadLinks = {{1, 2, true}}; // "1-2"
    EXPECT_EQ(setLinkDead(both, topology, 2, 1, false).wafer.deadLinks,
              (std::vector<LinkRef>{{1, 2, false}}));
    expectRefused([&] { setLinkDead(both, topology, 2, 1, true); }, Reason::NoChange,
                  "wafer.faults.links: link 2->1 is already dead");
    expectRefused([&] { setLinkDead(before, topology, 0, 5, true); }, Reason::OffWafer,
                  "no link joins die 0 to die 5");
}

TEST(ScenarioEdits, TheBalanceIsSetOnAStrategyOnly) {
    const Scenario before = gemmScenario({{"tatp", 4}});
    ASSERT_EQ(before.strategy->balance, StrategySpec::Balance::Even);
    const Scenario speed = setStrategyBalance(before, StrategySpec::Balance::Speed);
    EXPECT_EQ(speed.strategy->balance, StrategySpec::Balance::Speed);
    Scenario expected = before;
    expected.strategy->balance = StrategySpec::Balance::Speed;
    EXPECT_EQ(speed, expected); // nothing else changes
    EXPECT_EQ(setStrategyBalance(speed, StrategySpec::Balance::Even), before);
    expectRefused([&] { setStrategyBalance(teachingTraffic(), StrategySpec::Balance::Speed); },
                  Reason::NoStrategy, "no strategy");
}

TEST(ScenarioEdits, ResizingTheWaferKeepsOnlyWhatFits) {
    Scenario scenario = transformerScenario();
    scenario.wafer.deadDies = {3, 12};
    const Scenario smaller = resizeWafer(scenario, 2, 4);
    EXPECT_EQ(smaller.wafer.rows, 2);
    EXPECT_EQ(smaller.wafer.deadDies, std::vector<DieId>{3}); // die 12 is off the wafer now
    expectRefused([] { resizeWafer(transformerScenario(), 1, 2); }, Reason::Infeasible, "strategy");
    // The teaching example's traffic runs on row 0's four dies.
    expectRefused([] { resizeWafer(teachingTraffic(), 1, 2); }, Reason::OffWafer,
                  "wafer does not have");
}

// The preset replaces the hardware, not the experiment: the wafer keeps its 4x4 size, its dead
// die and its strategy, and takes the Dojo tile's links, die and energy.
TEST(ScenarioEdits, AHardwarePresetKeepsTheWafersSizeAndFaults) {
    Scenario before = transformerScenario();
    before.wafer.deadDies = {15};
    const Scenario after = setWaferPreset(before, "tesla-dojo-tile");
    const WaferSpec tile = *waferPreset("tesla-dojo-tile");
    EXPECT_EQ(after.wafer.rows, 4);
    EXPECT_EQ(after.wafer.cols, 4);
    EXPECT_EQ(after.wafer.deadDies, std::vector<DieId>{15});
    EXPECT_EQ(after.wafer.preset, "tesla-dojo-tile");
    EXPECT_EQ(after.wafer.linkBandwidth, (Quantity{2e12, "2 TB/s"}));
    EXPECT_EQ(after.wafer.die, tile.die);
    EXPECT_EQ(after.wafer.energy, tile.energy);
    EXPECT_EQ(after.strategy, before.strategy);
    EXPECT_EQ(after.workload, before.workload);
    // Saved, it names the preset and the size it differs in; loaded, it is the same scenario.
    const nlohmann::json wafer = toJson(after)["wafer"];
    EXPECT_EQ(wafer["preset"], "tesla-dojo-tile");
    EXPECT_EQ(wafer["rows"], 4);
    EXPECT_FALSE(wafer.contains("die")) << wafer.dump();
    EXPECT_EQ(parseScenario(formatScenarioText(after)), after);
    // Back to the paper's wafer per die: a preset replaces the previous one's every value.
    const Scenario paper = setWaferPreset(after, "paper-wsc-per-die");
    EXPECT_EQ(paper.wafer.die, DieSpec{});
    EXPECT_EQ(paper.wafer.linkBandwidth, (Quantity{1e12, "1 TB/s"}));
    EXPECT_EQ(paper.wafer.rows, 4);
}

TEST(ScenarioEdits, NetworkModelAndChunkAreSetAndSaved) {
    const Scenario before = teachingTraffic();
    const Scenario after = setNetworkModel(before, NetworkModel::StoreAndForward, 262144);
    EXPECT_EQ(after.networkSettings(), (NetworkSettings{NetworkModel::StoreAndForward, 262144}));
    EXPECT_EQ(after.network->chunk.text, "256 KiB");
    EXPECT_EQ(after.traffic, before.traffic);
    EXPECT_EQ(parseScenario(formatScenarioText(after)), after);
    // Back to fluid: the chunk (and its text) stays for the next switch.
    const Scenario fluid = setNetworkModel(after, NetworkModel::Fluid, 262144);
    EXPECT_EQ(fluid.network->model, NetworkModel::Fluid);
    EXPECT_EQ(fluid.network->chunk, after.network->chunk);
    expectRefused([&] { setNetworkModel(before, NetworkModel::StoreAndForward, 16); },
                  Reason::Infeasible, "network.chunk: must be at least 64 bytes");
}

TEST(ScenarioEdits, AnUnknownHardwarePresetOrOneTheFaultsDoNotFitIsRefused) {
    expectRefused([] { setWaferPreset(transformerScenario(), "dojo"); }, Reason::Infeasible,
                  "wafer.preset: no preset is named 'dojo'; the presets are paper-wsc-per-link, "
                  "paper-wsc-per-die, tesla-dojo-tile, tpu-v5e-pod");
    // A dead wrap-around link of a 1x4 torus joins no neighbours on the presets' meshes.
    Scenario torus = teachingTraffic();
    torus.traffic.clear();
    torus.wafer.rows = 1;
    torus.wafer.topology = TopologyKind::Torus;
    torus.wafer.deadLinks = {LinkRef{0, 3, true}};
    expectRefused([&] { setWaferPreset(torus, "paper-wsc-per-link"); }, Reason::Infeasible,
                  "wafer: dead link");
}

TEST(ScenarioEdits, AMoveOfASelectionIsATranslationEvenOntoItself) {
    // Dies 0 and 1 dragged one column right: far end first (1 <-> 2, then 0 <-> 1).
    const DieMove move = planDieMove(mesh(4, 4), {0, 1}, 0, 1);
    EXPECT_EQ(move.rows, 0);
    EXPECT_EQ(move.cols, 1);
    EXPECT_EQ(move.swaps, (std::vector<std::pair<DieId, DieId>>{{1, 2}, {0, 1}}));
    expectRefused([] { planDieMove(mesh(4, 4), {0}, 0, 0); }, Reason::NoChange,
                  "nothing to change");
    expectRefused(
        [] {
            planDieMove(mesh(4, 4), {0, 3}, 0, 1);
        },
        Reason::OffWafer, "die 3 would move off the wafer");
}

TEST(ScenarioEdits, AMoveOntoADeadDieIsRefusedWithCoresSentence) {
    Scenario scenario = gemmScenario({{"dp", 2}, {"tatp", 2}});
    scenario.wafer.deadDies = {5};
    const WaferTopology topology = mesh(4, 4, {5});
    expectRefused([&] { moveDies(scenario, topology, {1}, 1, 5); }, Reason::DieUnavailable,
                  "die 5 is dead");
    const Scenario moved = moveDies(scenario, topology, {1}, 1, 6);
    const DieGroups groups = dieGroups(moved, topology);
    EXPECT_EQ(groups.dpOfDie[1], -1); // its rank now runs on die 6
    EXPECT_GE(groups.dpOfDie[6], 0);
}

TEST(ScenarioEdits, ASearchedStrategyAppliesOnlyToTheSearchedWaferAndModel) {
    const Scenario searched = transformerScenario();
    Scenario best = searched;
    best.strategy = parseStrategy(nlohmann::json{{"dp", 4}, {"tatp", 4}});
    best.routing = RoutingSpec{};
    best.routing->paths["tuned"] = PinnedRoute{{0, 1}, {}};
    // Unchanged since the search: the best comes whole, with its tuned routes.
    EXPECT_EQ(applySearchedStrategy(searched, searched, best, *best.strategy), best);
    // Another candidate: only its strategy.
    const StrategySpec other = parseStrategy({{"dp", 8}, {"tatp", 2}});
    const Scenario applied = applySearchedStrategy(searched, searched, best, other);
    EXPECT_EQ(applied.strategy, other);
    EXPECT_FALSE(applied.routing.has_value());
    Scenario resized = searched;
    resized.wafer.cols = 8;
    expectRefused([&] { applySearchedStrategy(resized, searched, best, other); }, Reason::Mismatch,
                  "search again");
}

// A system's die ids number its whole grid (docs/file-format.md `system`): a [1, 2] system of 4x4
// wafers has dies 0 to 31, and its edits check ids, sizes and searches against that grid.
TEST(ScenarioEdits, ASystemsEditsUseItsWholeGrid) {
    Scenario system = transformerScenario();
    system.system.emplace();
    system.system->waferCols = 2;
    system.wafer.deadDies = {20};
    EXPECT_EQ(setDieSpeed(system, 25, 0.5).wafer.slowDies, (std::map<DieId, double>{{25, 0.5}}));
    expectRefused([&] { setDieSpeed(system, 32, 0.5); }, Reason::OffWafer,
                  "wafer.faults.slow_dies.32: the 4x8 grid of the system's 1x2 wafers has no die "
                  "32");

    // 2x4 wafers make a 2x8 grid, dies 0 to 15: dead die 20 is off it.
    const Scenario smaller = resizeWafer(system, 2, 4);
    EXPECT_TRUE(smaller.wafer.deadDies.empty());
    EXPECT_EQ(resizeWafer(system, 4, 4).wafer.deadDies, std::vector<DieId>{20});
    expectRefused([&] { resizeWafer(system, 4, 200); }, Reason::Infeasible,
                  "system.wafers: the 4x400 grid of the system's 1x2 wafers is too large");
    // The topology's own refusals name the system: a torus cannot be one of two wafers.
    Scenario torus = system;
    torus.wafer.topology = TopologyKind::Torus;
    expectRefused([&] { setStrategyDegree(torus, StrategyDegree::Dp, 1); }, Reason::Infeasible,
                  "system: a system of several wafers");

    expectRefused(
        [&] { applySearchedStrategy(system, transformerScenario(), system, *system.strategy); },
        Reason::Mismatch, "search again");
}

TEST(ScenarioEdits, TunedRoutesApplyOnlyToTheScenarioTheyWereTunedFor) {
    const Scenario scenario = teachingTraffic();
    Scenario tuned = scenario;
    if (!tuned.routing)
        tuned.routing = RoutingSpec{};
    tuned.routing->paths[scenario.traffic.front().id + "/s0/r0"] = PinnedRoute{{0, 1}, {}};
    tuned.traffic.front().algorithm = Algorithm::Multicast;
    const Scenario applied = applyTunedRoutes(scenario, tuned);
    EXPECT_EQ(applied, tuned);

    Scenario renamed = scenario;
    renamed.wafer.linkBandwidth = Quantity{1e12, "1 TB/s"};
    expectRefused([&] { applyTunedRoutes(renamed, tuned); }, Reason::Mismatch, "run it again");
}

} // namespace
} // namespace ws
