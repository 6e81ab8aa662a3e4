// `wafer.preset` (docs/file-format.md, docs/hardware.md): the presets' values read back exactly,
// every other key written in `wafer` overrides the preset (a `die` or `energy` object key by
// key), an unknown name is an error at wafer.preset naming the presets, and a saved file names
// the preset again with only its overrides.

#include "io/scenario_io.h"
#include "scenario/wafer_presets.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

namespace ws {
namespace {

Scenario withWafer(const std::string& wafer) {
    return parseScenario(R"({"wafer": )" + wafer + "}");
}

// The error parseScenario throws for a scenario around `wafer`; fails the test if none.
ScenarioError waferError(const std::string& wafer) {
    try {
        withWafer(wafer);
    } catch (const ScenarioError& error) {
        return error;
    }
    ADD_FAILURE() << "accepted: " << wafer;
    return ScenarioError("<none>", "<none>");
}

std::filesystem::path temporaryDirectory() {
    std::random_device random;
    const auto dir = std::filesystem::temp_directory_path() /
                     ("waferscope-preset-test-" + std::to_string(random()));
    std::filesystem::create_directories(dir);
    return dir;
}

// The paper's wafer read per link is the project's defaults: a file that names it and one that
// names nothing describe the same hardware.
TEST(WaferPreset, ThePaperWaferPerLinkIsTheDefaultWafer) {
    const Scenario scenario = withWafer(R"({"preset": "paper-wsc-per-link"})");
    WaferSpec defaults;
    defaults.preset = "paper-wsc-per-link";
    defaults.protocols = defaultWaferProtocols(); // a file's default; WaferSpec{} has none
    EXPECT_EQ(scenario.wafer, defaults);
    EXPECT_EQ(scenario.wafer.rows, 6);
    EXPECT_EQ(scenario.wafer.cols, 8);
    EXPECT_EQ(scenario.wafer.linkBandwidth, (Quantity{4e12, "4 TB/s"}));
}

// The same wafer with 4 TB/s per die shared by its four edges: only the links differ.
TEST(WaferPreset, ThePaperWaferPerDieHasAQuarterOfTheLinkBandwidth) {
    const WaferSpec perDie = withWafer(R"({"preset": "paper-wsc-per-die"})").wafer;
    EXPECT_EQ(perDie.preset, "paper-wsc-per-die");
    EXPECT_EQ(perDie.linkBandwidth, (Quantity{1e12, "1 TB/s"}));
    WaferSpec perLink = *waferPreset("paper-wsc-per-link");
    perLink.preset = perDie.preset;
    perLink.linkBandwidth = perDie.linkBandwidth;
    EXPECT_EQ(perDie, perLink);
}

// docs/hardware.md's table for the Dojo training tile, value by value.
TEST(WaferPreset, TheDojoTrainingTileReadsBackItsPublishedValues) {
    const WaferSpec tile = withWafer(R"({"preset": "tesla-dojo-tile"})").wafer;
    EXPECT_EQ(tile.preset, "tesla-dojo-tile");
    EXPECT_EQ(tile.rows, 5);
    EXPECT_EQ(tile.cols, 5);
    EXPECT_EQ(tile.topology, TopologyKind::Mesh);
    EXPECT_EQ(tile.linkBandwidth, (Quantity{2e12, "2 TB/s"}));
    EXPECT_EQ(tile.linkLatency, (Quantity{200e-9, "200 ns"}));
    EXPECT_EQ(tile.die.peakFlops, (Quantity{362e12, "362 TFLOP/s"}));
    EXPECT_EQ(tile.die.sram, (Quantity{440e6, "440 MB"}));
    EXPECT_EQ(tile.die.hbm, (Quantity{6.4e9, "6.4 GB"}));
    EXPECT_EQ(tile.die.hbmBandwidth, (Quantity{160e9, "160 GB/s"}));
    EXPECT_EQ(tile.die.efficiency, 1.0);
    EXPECT_EQ(tile.die.taskOverhead, (Quantity{1e-6, "1 us"}));
    EXPECT_EQ(tile.die.gemmTile, 8);
    EXPECT_EQ(tile.die.sramReserve, 0.10);
    EXPECT_EQ(tile.energy.d2dPicojoulesPerBit, 5.0);
    EXPECT_EQ(tile.energy.hbmPicojoulesPerBit, 6.0);
    EXPECT_EQ(tile.energy.flopsPerJoule, 905e9); // 362 TFLOP/s at 400 W
    EXPECT_TRUE(tile.deadDies.empty());
    EXPECT_TRUE(tile.deadLinks.empty());
}

// docs/hardware.md's table for the TPU v5e pod: a 16 x 16 torus of its chips.
TEST(WaferPreset, TheTpuV5ePodIsATorusOfItsChips) {
    const WaferSpec pod = withWafer(R"({"preset": "tpu-v5e-pod"})").wafer;
    EXPECT_EQ(pod.rows, 16);
    EXPECT_EQ(pod.cols, 16);
    EXPECT_EQ(pod.topology, TopologyKind::Torus);
    EXPECT_EQ(pod.linkBandwidth, (Quantity{50e9, "50 GB/s"}));
    EXPECT_EQ(pod.die.peakFlops, (Quantity{197e12, "197 TFLOP/s"}));
    EXPECT_EQ(pod.die.hbm, (Quantity{16e9, "16 GB"}));
    EXPECT_EQ(pod.die.hbmBandwidth, (Quantity{819e9, "819 GB/s"}));
    // The published bisection, 1.6 TB/s: 2 x 16 links cross a cut of the torus.
    EXPECT_DOUBLE_EQ(2 * 16 * pod.linkBandwidth.value, 1.6e12);
}

TEST(WaferPreset, EveryPresetReadsBackAsTheTable) {
    ASSERT_EQ(waferPresetNames(),
              (std::vector<std::string>{"paper-wsc-per-link", "paper-wsc-per-die",
                                        "tesla-dojo-tile", "tpu-v5e-pod"}));
    for (const std::string& name : waferPresetNames()) {
        SCOPED_TRACE(name);
        const std::optional<WaferSpec> preset = waferPreset(name);
        ASSERT_TRUE(preset);
        EXPECT_EQ(preset->preset, name);
        EXPECT_EQ(withWafer(R"({"preset": ")" + name + R"("})").wafer, *preset);
    }
    EXPECT_FALSE(waferPreset("Tesla-Dojo-Tile")); // names are exact
}

// Every key beside the preset wins; `die` and `energy` override only the keys they name.
TEST(WaferPreset, AKeyWrittenBesideThePresetOverridesIt) {
    const WaferSpec wafer = withWafer(R"({"preset": "tesla-dojo-tile", "rows": 2,
        "link_latency": "100 ns", "die": {"sram": "220 MB", "x-note": "half"},
        "energy": {"d2d_pj_per_bit": 1.5}, "faults": {"dies": [9]}})")
                                .wafer;
    const WaferSpec tile = *waferPreset("tesla-dojo-tile");
    EXPECT_EQ(wafer.preset, "tesla-dojo-tile");
    EXPECT_EQ(wafer.rows, 2);
    EXPECT_EQ(wafer.cols, 5); // the preset's
    EXPECT_EQ(wafer.linkBandwidth, tile.linkBandwidth);
    EXPECT_EQ(wafer.linkLatency, (Quantity{100e-9, "100 ns"}));
    EXPECT_EQ(wafer.die.sram, (Quantity{220e6, "220 MB"}));
    EXPECT_EQ(wafer.die.peakFlops, tile.die.peakFlops);
    EXPECT_EQ(wafer.die.hbmBandwidth, tile.die.hbmBandwidth);
    EXPECT_EQ(wafer.die.gemmTile, 8);
    EXPECT_EQ(wafer.die.extensions, (nlohmann::json{{"x-note", "half"}}));
    EXPECT_EQ(wafer.energy.d2dPicojoulesPerBit, 1.5);
    EXPECT_EQ(wafer.energy.flopsPerJoule, tile.energy.flopsPerJoule);
    EXPECT_EQ(wafer.deadDies, std::vector<DieId>{9});
}

// Die ids are checked against the wafer the preset and its overrides make: 5x5, dies 0 to 24.
TEST(WaferPreset, FaultsAreCheckedAgainstThePresetsSize) {
    EXPECT_EQ(
        withWafer(R"({"preset": "tesla-dojo-tile", "faults": {"dies": [24]}})").wafer.deadDies,
        std::vector<DieId>{24});
    const ScenarioError error =
        waferError(R"({"preset": "tesla-dojo-tile", "faults": {"dies": [25]}})");
    EXPECT_EQ(error.keyPath(), "wafer.faults.dies[0]");
    EXPECT_NE(error.problem().find("dies 0 to 24"), std::string::npos) << error.what();
}

TEST(WaferPreset, AnUnknownPresetIsAnErrorNamingTheKeyAndThePresets) {
    const ScenarioError error = waferError(R"({"preset": "paper-wsc-per-dei", "rows": 2})");
    EXPECT_EQ(error.keyPath(), "wafer.preset");
    EXPECT_EQ(error.problem(),
              "unknown wafer preset 'paper-wsc-per-dei'; expected one of paper-wsc-per-link, "
              "paper-wsc-per-die, tesla-dojo-tile, tpu-v5e-pod; did you mean 'paper-wsc-per-die'?");
    const ScenarioError notAString = waferError(R"({"preset": 3})");
    EXPECT_EQ(notAString.keyPath(), "wafer.preset");
    EXPECT_NE(notAString.problem().find("expected a string"), std::string::npos)
        << notAString.what();
}

// Only a preset gives rows and cols: without one they are still required.
TEST(WaferPreset, WithoutAPresetRowsAndColsAreRequired) {
    const ScenarioError error = waferError(R"({"cols": 4})");
    EXPECT_EQ(error.keyPath(), "wafer.rows");
    EXPECT_NE(error.problem().find("required key 'rows' is missing"), std::string::npos);
}

// Saved, a preset's wafer names the preset and writes only what overrides it; read again it is
// the same scenario.
TEST(WaferPreset, ASavedFileNamesThePresetAndOnlyItsOverrides) {
    const Scenario original = withWafer(R"({"preset": "paper-wsc-per-die", "cols": 4,
        "link_latency": "200 ns", "die": {"sram": "40 MB", "x-note": 1},
        "faults": {"links": ["0-1"]}, "x-wafer": true})");
    const nlohmann::json written = toJson(original)["wafer"];
    EXPECT_EQ(written, nlohmann::json::parse(R"({"preset": "paper-wsc-per-die", "cols": 4,
        "die": {"sram": "40 MB", "x-note": 1}, "faults": {"links": ["0-1"]},
        "x-wafer": true})"))
        << written.dump();
    const auto dir = temporaryDirectory();
    saveScenario(original, dir / "preset.json");
    EXPECT_EQ(loadScenario(dir / "preset.json"), original);
    std::filesystem::remove_all(dir);
}

// A wafer with no preset is written in full, as before presets existed.
TEST(WaferPreset, AWaferWithoutAPresetIsWrittenWithEveryKey) {
    const nlohmann::json written = toJson(withWafer(R"({"rows": 2, "cols": 3})"))["wafer"];
    EXPECT_FALSE(written.contains("preset"));
    for (const char* key :
         {"rows", "cols", "topology", "link_bandwidth", "link_latency", "die", "energy", "faults"})
        EXPECT_TRUE(written.contains(key)) << key;
}

// The shipped GPT-3 175B scenario under the paper's per-die reading is the reference scenario
// (gpt3_175b_6x8_fsdp_tatp.json, whose wafer is the per-link reading: the defaults) with its
// wafer named by preset: same workload and strategy, a quarter of the link bandwidth.
TEST(WaferPreset, TheShippedPerDieReadingDiffersOnlyInItsLinks) {
    const std::filesystem::path dir(WAFERSCOPE_SCENARIO_DIR);
    const Scenario reference = loadScenario(dir / "gpt3_175b_6x8_fsdp_tatp.json");
    const Scenario perDie = loadScenario(dir / "gpt3_175b_6x8_per_die_links.json");
    EXPECT_EQ(perDie.workload, reference.workload);
    EXPECT_EQ(perDie.strategy, reference.strategy);
    EXPECT_EQ(perDie.wafer.preset, "paper-wsc-per-die");
    WaferSpec expected = reference.wafer;
    expected.preset = "paper-wsc-per-die";
    expected.linkBandwidth = Quantity{1e12, "1 TB/s"};
    EXPECT_EQ(perDie.wafer, expected);
    // The reference wafer is the per-link reading, value for value.
    EXPECT_EQ(waferPreset("paper-wsc-per-link")->linkBandwidth.value,
              reference.wafer.linkBandwidth.value);
}

} // namespace
} // namespace ws
