// The scenario's `workload` and `strategy` are typed values, read once with the file
// (docs/architecture.md section 2, "read a scenario"), and written back as they were named.

#include "io/scenario_io.h"
#include "io/scenario_writer.h"
#include "scenario/scenario_error.h"
#include "test_data_paths.h"
#include "workload/transformer_presets.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace ws {
namespace {

using test::kTestData;

std::string scenarioWith(const std::string& workload, const std::string& strategy = "{}") {
    return R"({"format": "waferscope.scenario", "version": 1, "name": "typed",
               "wafer": {"rows": 2, "cols": 4}, "workload": )" +
           workload + R"(, "strategy": )" + strategy + "}";
}

TEST(TypedScenario, AHuggingFaceConfigIsReadAtLoadAndItsPathKeptForSaving) {
    const Scenario scenario = parseScenario(
        scenarioWith(R"({"kind": "transformer", "hf_config": "llama2_7b_config.json"})"),
        kTestData);
    ASSERT_TRUE(scenario.workload);
    EXPECT_EQ(scenario.workload->modelSource, ModelSource::HuggingFace);
    EXPECT_EQ(scenario.workload->hfConfig, "llama2_7b_config.json");
    EXPECT_EQ(scenario.workload->model.hidden, 4096);
    EXPECT_EQ(scenario.workload->model.ffnHidden, 11008);
    EXPECT_TRUE(scenario.workload->model.gatedMlp);

    const std::string saved = formatScenarioText(scenario);
    EXPECT_NE(saved.find(R"("hf_config": "llama2_7b_config.json")"), std::string::npos) << saved;
    EXPECT_EQ(saved.find("\"model\""), std::string::npos) << "the shape is not written out";
    EXPECT_EQ(parseScenario(saved, kTestData), scenario);
}

TEST(TypedScenario, AHuggingFaceConfigIsNotReadAgainAfterLoading) {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / "waferscope_typed_scenario_test";
    std::filesystem::create_directories(dir);
    std::filesystem::copy_file(kTestData / "llama2_7b_config.json", dir / "config.json",
                               std::filesystem::copy_options::overwrite_existing);
    const Scenario scenario =
        parseScenario(scenarioWith(R"({"kind": "transformer", "hf_config": "config.json"})"), dir);
    std::filesystem::remove_all(dir);
    // The file is gone: the scenario still holds its model, and saving still names it.
    ASSERT_TRUE(scenario.workload);
    EXPECT_EQ(scenario.workload->model.layers, 32);
    EXPECT_NE(formatScenarioText(scenario).find(R"("hf_config": "config.json")"),
              std::string::npos);
}

TEST(TypedScenario, AMissingHuggingFaceConfigIsALoadErrorAtItsKey) {
    try {
        parseScenario(scenarioWith(R"({"kind": "transformer", "hf_config": "nope.json"})"),
                      kTestData);
        FAIL() << "expected a ScenarioError";
    } catch (const ScenarioError& error) {
        EXPECT_EQ(error.keyPath(), "workload.hf_config");
        EXPECT_NE(error.problem().find("nope.json"), std::string::npos) << error.problem();
    }
}

TEST(TypedScenario, BadWorkloadsAndStrategiesAreLoadErrorsNamingTheKey) {
    const auto keyOf = [](const std::string& text) -> std::string {
        try {
            parseScenario(text);
        } catch (const ScenarioError& error) {
            return error.keyPath();
        }
        return "no error";
    };
    EXPECT_EQ(keyOf(scenarioWith(R"({"kind": "transformer", "model": "gpt3-175b", "seq": 2})")),
              "workload.seq");
    EXPECT_EQ(
        keyOf(scenarioWith(R"({"kind": "transformer", "model": "gpt3-175b"})", R"({"tapt": 2})")),
        "strategy.tapt");
    EXPECT_EQ(
        keyOf(scenarioWith(R"({"kind": "transformer", "model": "gpt3-175b"})", R"({"dp": 0})")),
        "strategy.dp");
}

TEST(TypedScenario, PresetsObjectsAndExtensionsAreWrittenAsTheyWereNamed) {
    const Scenario preset = parseScenario(
        scenarioWith(R"({"kind": "transformer", "model": "llama2-7b", "x-note": "kept"})",
                     R"({"dp": 2, "x-origin": "search"})"));
    ASSERT_TRUE(preset.workload && preset.strategy);
    EXPECT_EQ(preset.workload->modelSource, ModelSource::Preset);
    EXPECT_EQ(preset.workload->model, *transformerPreset("llama2-7b"));
    EXPECT_EQ(preset.strategy->dp, 2);
    const std::string presetText = formatScenarioText(preset);
    EXPECT_NE(presetText.find(R"("model": "llama2-7b")"), std::string::npos) << presetText;
    EXPECT_NE(presetText.find(R"("x-note": "kept")"), std::string::npos) << presetText;
    EXPECT_NE(presetText.find(R"("x-origin": "search")"), std::string::npos) << presetText;
    EXPECT_EQ(parseScenario(presetText), preset);

    const Scenario object = parseScenario(scenarioWith(
        R"({"kind": "transformer", "model": {"name": "tiny", "layers": 2, "hidden": 512,
            "heads": 8, "ffn_hidden": 2048, "vocab": 4096, "x-source": "notes"}})"));
    ASSERT_TRUE(object.workload);
    EXPECT_EQ(object.workload->modelSource, ModelSource::Object);
    const std::string objectText = formatScenarioText(object);
    EXPECT_NE(objectText.find(R"("x-source": "notes")"), std::string::npos) << objectText;
    EXPECT_EQ(parseScenario(objectText), object);
}

TEST(TypedScenario, WorkloadAndStrategyKeysAreWrittenInTheDocumentedOrder) {
    const Scenario scenario = parseScenario(
        scenarioWith(R"({"global_batch": 8, "model": "gpt3-6.7b", "kind": "transformer"})",
                     R"({"tatp": 4, "fsdp": true, "dp": 2})"));
    const std::string text = formatScenarioText(scenario);
    const auto at = [&](const char* key) { return text.find(std::string("\"") + key + "\""); };
    EXPECT_LT(at("kind"), at("model"));
    EXPECT_LT(at("model"), at("seq_len"));
    EXPECT_LT(at("seq_len"), at("global_batch"));
    EXPECT_LT(at("global_batch"), at("optimizer_bytes_per_param"));
    EXPECT_LT(at("optimizer_bytes_per_param"), at("attention"));
    EXPECT_LT(at("dp"), at("tatp"));
    EXPECT_LT(at("tatp"), at("fsdp"));
    EXPECT_LT(at("fsdp"), at("mapping"));
    EXPECT_LT(at("mapping"), at("activation_checkpointing"));
    EXPECT_NE(text.find(R"("optimizer_bytes_per_param": 12,)"
                        "\n"),
              std::string::npos)
        << "12, not 12.0: " << text;
}

} // namespace
} // namespace ws
