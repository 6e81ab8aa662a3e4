#include "io/scenario_io.h"
#include "io/strategy_reader.h"
#include "scenario/wafer_presets.h"

#include "io/error_case.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace ws {
namespace {

// docs/file-format.md, verbatim.
const std::string kSpecExample = R"({
  "format": "waferscope.scenario", "version": 1,
  "name": "FSDP all-gather vs TATP stream on a 4x4 wafer",
  "wafer": {
    "rows": 4, "cols": 4, "topology": "mesh",
    "link_bandwidth": "4 TB/s", "link_latency": "200 ns",
    "die": { "peak_flops": "1000 TFLOP/s", "sram": "80 MB", "hbm": "72 GB", "hbm_bandwidth": "1 TB/s" },
    "energy": { "d2d_pj_per_bit": 5, "hbm_pj_per_bit": 6, "flops_per_joule": 2e12 },
    "faults": { "dies": [5], "links": ["1->2", "6-7"] }
  },
  "workload": { "kind": "transformer", "model": "gpt3-175b", "seq_len": 2048, "global_batch": 128 },
  "strategy": { "dp": 2, "sp": 1, "tp": 1, "tatp": 8, "fsdp": true, "mapping": "snake",
                "double_buffering": true, "activation_checkpointing": false, "micro_batches": 1 },
  "traffic": [
    { "id": "ag", "op": "allgather", "group": [3, 2, 6, 7], "bytes": "64 MB", "algorithm": "ring" },
    { "id": "p", "op": "p2p", "src": 2, "dst": 10, "bytes": "32 MB" }
  ],
  "routing": { "mode": "xy", "paths": { "p": [2, 6, 10] } },
  "tcme": { "max_iter": 10, "min_gain": 0.05, "patience": 3, "target_utilization": 0.7 }
})";

// A scenario that sets every optional field at least once, with extensions at every level.
const std::string kFullScenario = R"({
  "format": "waferscope.scenario", "version": 1,
  "name": "everything", "description": "every key once",
  "wafer": {
    "rows": 3, "cols": 4, "topology": "torus",
    "link_bandwidth": 1e12, "link_latency": "1.5 us",
    "die": { "peak_flops": 5e14, "sram": "64 MiB", "hbm": 0, "hbm_bandwidth": "900 GB/s",
             "efficiency": 0.8, "task_overhead": "250 ns", "gemm_tile": 64, "sram_reserve": 0.2,
             "x-vendor": "acme" },
    "energy": { "d2d_pj_per_bit": 1.25, "hbm_pj_per_bit": 0, "flops_per_joule": 1e12, "x-source": "paper" },
    "faults": { "dies": [11, 0], "links": ["1->2", "3-7"] },
    "x-wafer-note": [1, 2]
  },
  "traffic": [
    { "id": "bc", "op": "broadcast", "group": [4, 5, 6], "root": 5, "bytes": 1000000,
      "algorithm": "multicast", "start": "2 us", "x-color": "red" },
    { "id": "rs", "op": "reducescatter", "group": [1, 2, 5, 6], "bytes": "8 MiB",
      "algorithm": "hierarchical", "after": ["bc", "a2a"] },
    { "id": "a2a", "op": "alltoall", "group": [8, 9, 10], "bytes": "1 GB", "algorithm": "direct",
      "split": 2, "start": 0 },
    { "id": "ar", "op": "allreduce", "group": [5, 9], "bytes": "100 Gb" }
  ],
  "routing": { "mode": "adaptive",
               "paths": { "ar/s0/r0": [5, 9], "bc/s0/r0": [[5, 4], [5, 6]] }, "x-r": true },
  "tcme": { "max_iter": 20, "min_gain": 0, "patience": 1, "target_utilization": 10, "x-t": null },
  "network": { "model": "store_and_forward", "chunk": "256 KiB", "x-n": 1 },
  "x-top": { "nested": { "a": 1 } }
})";

std::filesystem::path temporaryDirectory() {
    std::random_device random;
    const auto dir =
        std::filesystem::temp_directory_path() / ("waferscope-io-test-" + std::to_string(random()));
    std::filesystem::create_directories(dir);
    return dir;
}

std::string readText(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

// The error parseScenario throws for `text`; fails the test if it throws none.
ScenarioError errorFor(const std::string& text) {
    try {
        parseScenario(text);
    } catch (const ScenarioError& error) {
        return error;
    }
    ADD_FAILURE() << "accepted: " << text;
    return ScenarioError("<none>", "<none>");
}

// A minimal valid scenario around a fragment: {"wafer": {4x4, die 5 dead}, <fragment>}.
std::string withWafer(const std::string& fragment) {
    return R"({"wafer": {"rows": 4, "cols": 4, "faults": {"dies": [5], "links": ["1->2"]}})" +
           (fragment.empty() ? "" : ", " + fragment) + "}";
}

TEST(ScenarioIo, ParsesTheSpecExample) {
    const Scenario s = parseScenario(kSpecExample);
    EXPECT_EQ(s.name, "FSDP all-gather vs TATP stream on a 4x4 wafer");
    EXPECT_EQ(s.wafer.rows, 4);
    EXPECT_EQ(s.wafer.cols, 4);
    EXPECT_EQ(s.wafer.topology, TopologyKind::Mesh);
    EXPECT_EQ(s.wafer.linkBandwidth, (Quantity{4e12, "4 TB/s"}));
    EXPECT_DOUBLE_EQ(s.wafer.linkLatency.value, 200e-9);
    EXPECT_DOUBLE_EQ(s.wafer.die.peakFlops.value, 1e15);
    EXPECT_DOUBLE_EQ(s.wafer.die.hbm.value, 72e9);
    EXPECT_DOUBLE_EQ(s.wafer.energy.flopsPerJoule, 2e12);
    EXPECT_EQ(s.wafer.deadDies, std::vector<DieId>{5});
    ASSERT_EQ(s.wafer.deadLinks.size(), 2u);
    EXPECT_EQ(s.wafer.deadLinks[0], (LinkRef{1, 2, false}));
    EXPECT_EQ(s.wafer.deadLinks[1], (LinkRef{6, 7, true}));
    ASSERT_TRUE(s.workload && s.strategy);
    EXPECT_EQ(s.workload->model.name, "gpt3-175b");
    EXPECT_EQ(s.workload->modelSource, ModelSource::Preset);
    EXPECT_EQ(s.strategy->tatp, 8);
    ASSERT_EQ(s.traffic.size(), 2u);
    EXPECT_EQ(s.traffic[0].id, "ag");
    EXPECT_EQ(s.traffic[0].kind, OpKind::AllGather);
    EXPECT_EQ(s.traffic[0].group, (std::vector<DieId>{3, 2, 6, 7}));
    EXPECT_EQ(s.traffic[0].algorithm, Algorithm::Ring);
    EXPECT_EQ(s.traffic[0].bytes, (Quantity{64'000'000, "64 MB"}));
    EXPECT_EQ(s.traffic[1].kind, OpKind::P2P);
    EXPECT_EQ(s.traffic[1].src, 2);
    EXPECT_EQ(s.traffic[1].dst, 10);
    EXPECT_FALSE(s.traffic[1].algorithm);
    ASSERT_TRUE(s.routing);
    EXPECT_EQ(s.routing->mode, RoutingMode::XY);
    EXPECT_EQ(s.routing->paths.at("p").path, (std::vector<DieId>{2, 6, 10}));
    ASSERT_TRUE(s.tcme);
    EXPECT_EQ(s.tcme->maxIter, 10);
    EXPECT_DOUBLE_EQ(s.tcme->minGain, 0.05);
    EXPECT_EQ(s.tcme->patience, 3);
    EXPECT_DOUBLE_EQ(s.tcme->targetUtilization, 0.7);
}

TEST(ScenarioIo, AppliesDefaults) {
    const Scenario s = parseScenario(R"({"wafer": {"rows": 2, "cols": 3}})");
    WaferSpec expected;
    expected.rows = 2;
    expected.cols = 3;
    // A file without `protocols` runs the die-to-die default (docs/file-format.md "Protocols");
    // a WaferSpec built in code has none, the line rate.
    expected.protocols = defaultWaferProtocols();
    EXPECT_EQ(s.wafer, expected);
    EXPECT_EQ(s.wafer.linkBandwidth, (Quantity{4e12, "4 TB/s"}));
    EXPECT_DOUBLE_EQ(s.wafer.die.efficiency, 1.0);
    // The compute model's defaults (docs/compute-model.md explains each).
    EXPECT_EQ(s.wafer.die.taskOverhead, (Quantity{1e-6, "1 us"}));
    EXPECT_EQ(s.wafer.die.gemmTile, 128);
    EXPECT_DOUBLE_EQ(s.wafer.die.sramReserve, 0.10);
    EXPECT_TRUE(s.name.empty());
    EXPECT_TRUE(s.traffic.empty());
    EXPECT_FALSE(s.workload);
    EXPECT_FALSE(s.routing);
    EXPECT_FALSE(s.tcme);
    EXPECT_EQ(s.routingMode(), RoutingMode::XY);

    const Scenario t = parseScenario(withWafer(R"("routing": {}, "tcme": {})"));
    EXPECT_EQ(t.routing, RoutingSpec{});
    EXPECT_EQ(t.tcme, TcmeSpec{});
}

TEST(ScenarioIo, KeepsQuantityTextsAndPlainNumbers) {
    const Scenario s = parseScenario(kFullScenario);
    EXPECT_EQ(s.wafer.linkBandwidth, (Quantity{1e12, ""}));
    EXPECT_EQ(s.wafer.linkLatency, (Quantity{1.5e-6, "1.5 us"}));
    EXPECT_EQ(s.wafer.die.sram, (Quantity{64.0 * 1024 * 1024, "64 MiB"}));
    EXPECT_EQ(s.wafer.die.hbm, (Quantity{0, ""}));
    EXPECT_EQ(s.wafer.die.taskOverhead, (Quantity{250e-9, "250 ns"}));
    EXPECT_EQ(s.wafer.die.gemmTile, 64);
    EXPECT_DOUBLE_EQ(s.wafer.die.sramReserve, 0.2);
    ASSERT_TRUE(s.network);
    EXPECT_EQ(s.network->model, NetworkModel::StoreAndForward);
    EXPECT_EQ(s.network->chunk, (Quantity{262144, "256 KiB"}));
    EXPECT_EQ(s.networkSettings(), (NetworkSettings{NetworkModel::StoreAndForward, 262144}));
    EXPECT_EQ(s.traffic[0].bytes, (Quantity{1'000'000, ""}));
    EXPECT_EQ(s.traffic[3].bytes, (Quantity{12.5e9, "100 Gb"})); // bits
    EXPECT_EQ(s.traffic[0].start, (Quantity{2e-6, "2 us"}));
    EXPECT_EQ(s.traffic[2].start, (Quantity{0, ""}));
    EXPECT_EQ(s.traffic[0].root, 5);
    EXPECT_EQ(s.traffic[0].split, 1);
    EXPECT_EQ(s.traffic[2].split, 2);
    EXPECT_EQ(s.traffic[1].after, (std::vector<std::string>{"bc", "a2a"}));
    EXPECT_EQ(s.wafer.topology, TopologyKind::Torus);
    EXPECT_EQ(s.routing->paths.at("bc/s0/r0").treeEdges,
              (std::vector<std::pair<DieId, DieId>>{{5, 4}, {5, 6}}));
}

TEST(ScenarioIo, AcceptsIntegralDoublesAsIntegers) {
    const Scenario s = parseScenario(R"({"wafer": {"rows": 4.0, "cols": 2}})");
    EXPECT_EQ(s.wafer.rows, 4);
}

TEST(ScenarioIo, KeepsExtensionsAtEveryLevel) {
    const Scenario s = parseScenario(kFullScenario);
    EXPECT_EQ(s.extensions, (nlohmann::json{{"x-top", {{"nested", {{"a", 1}}}}}}));
    EXPECT_EQ(s.wafer.extensions, (nlohmann::json{{"x-wafer-note", {1, 2}}}));
    EXPECT_EQ(s.wafer.die.extensions, (nlohmann::json{{"x-vendor", "acme"}}));
    EXPECT_EQ(s.wafer.energy.extensions, (nlohmann::json{{"x-source", "paper"}}));
    EXPECT_EQ(s.traffic[0].extensions, (nlohmann::json{{"x-color", "red"}}));
    EXPECT_EQ(s.routing->extensions, (nlohmann::json{{"x-r", true}}));
    EXPECT_EQ(s.tcme->extensions, (nlohmann::json{{"x-t", nullptr}}));
    const nlohmann::json saved = toJson(s);
    EXPECT_EQ(saved["x-top"]["nested"]["a"], 1);
    EXPECT_EQ(saved["wafer"]["die"]["x-vendor"], "acme");
    EXPECT_EQ(saved["traffic"][0]["x-color"], "red");
}

TEST(ScenarioIo, TopologySpecExpandsBothDirectionLinks) {
    const Scenario s = parseScenario(kSpecExample);
    const TopologySpec spec = s.wafer.topologySpec();
    EXPECT_EQ(spec.rows, 4);
    EXPECT_EQ(spec.kind, TopologyKind::Mesh);
    EXPECT_EQ(spec.deadDies, std::vector<DieId>{5});
    EXPECT_EQ(spec.deadLinks, (std::vector<std::pair<DieId, DieId>>{{1, 2}, {6, 7}, {7, 6}}));
}

TEST(ScenarioIo, EnumSpellingsRoundTrip) {
    for (OpKind k : {OpKind::P2P, OpKind::AllGather, OpKind::ReduceScatter, OpKind::AllReduce,
                     OpKind::Broadcast, OpKind::AllToAll})
        EXPECT_EQ(opKindFromString(toString(k)), k);
    for (Algorithm a :
         {Algorithm::Ring, Algorithm::Multicast, Algorithm::Hierarchical, Algorithm::Direct})
        EXPECT_EQ(algorithmFromString(toString(a)), a);
    for (RoutingMode m :
         {RoutingMode::XY, RoutingMode::YX, RoutingMode::Shortest, RoutingMode::Adaptive})
        EXPECT_EQ(routingModeFromString(toString(m)), m);
    for (TopologyKind t : {TopologyKind::Mesh, TopologyKind::Torus})
        EXPECT_EQ(topologyKindFromString(toString(t)), t);
    EXPECT_EQ(toString(OpKind::ReduceScatter), "reducescatter");
    EXPECT_EQ(toString(Algorithm::Hierarchical), "hierarchical");
    EXPECT_EQ(toString(RoutingMode::YX), "yx");
    EXPECT_EQ(toString(TopologyKind::Torus), "torus");
    EXPECT_FALSE(opKindFromString("AllGather"));
    EXPECT_FALSE(algorithmFromString(""));
    EXPECT_FALSE(routingModeFromString("XY"));
    EXPECT_FALSE(topologyKindFromString("ring"));
}

// parseScenario(toJson(s)) == s, and load -> save -> load through a real file.
void expectRoundTrip(const std::string& text, const std::string& label) {
    SCOPED_TRACE(label);
    const Scenario original = parseScenario(text);
    EXPECT_EQ(parseScenario(toJson(original)), original);
    const auto dir = temporaryDirectory();
    const auto first = dir / "first.json";
    const auto second = dir / "second.json";
    std::ofstream(first) << text;
    const Scenario loaded = loadScenario(first);
    saveScenario(loaded, second);
    const Scenario reloaded = loadScenario(second);
    EXPECT_EQ(reloaded, original);
    // Saving what was loaded gives the same text again (the writer is deterministic).
    saveScenario(reloaded, first);
    EXPECT_EQ(readText(first), readText(second));
    std::filesystem::remove_all(dir);
}

TEST(ScenarioIo, RoundTripsTheSpecExample) {
    expectRoundTrip(kSpecExample, "SPEC example");
}

TEST(ScenarioIo, RoundTripsEveryOptionalField) {
    expectRoundTrip(kFullScenario, "full");
}

TEST(ScenarioIo, RoundTripsEveryShippedScenario) {
    const std::filesystem::path dir(WAFERSCOPE_SCENARIO_DIR);
    if (!std::filesystem::is_directory(dir))
        GTEST_SKIP() << "no scenario directory " << dir;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".json")
            expectRoundTrip(readText(entry.path()), entry.path().filename().string());
}

TEST(ScenarioIo, SavedNumbersReadBackExactly) {
    Scenario s = parseScenario(kSpecExample);
    s.wafer.energy.d2dPicojoulesPerBit = 1.0 / 3.0;
    s.wafer.energy.hbmPicojoulesPerBit = 1e-300;
    s.wafer.energy.flopsPerJoule = 123456789012.5;
    s.wafer.linkBandwidth = Quantity{1.7976931348623157e308, ""};
    s.wafer.linkLatency = Quantity{1.5e-7, ""};
    s.traffic[0].bytes = Quantity{999'999'999, ""};
    s.wafer.die.efficiency = 0.1;
    const auto dir = temporaryDirectory();
    saveScenario(s, dir / "numbers.json");
    const std::string text = readText(dir / "numbers.json");
    EXPECT_NE(text.find("\"link_latency\": 1.5e-7"), std::string::npos) << text;
    EXPECT_NE(text.find("\"bytes\": 999999999"), std::string::npos) << text;
    // Not a valid scenario (the bandwidth is absurd), so compare the JSON, not the Scenario.
    EXPECT_EQ(nlohmann::json::parse(text), toJson(s));
    std::filesystem::remove_all(dir);
}

TEST(ScenarioIo, SavesReadableTextAndLeavesNoTemporaryFile) {
    const auto dir = temporaryDirectory();
    const auto file = dir / "tuned.json";
    std::ofstream(file) << "old content";
    saveScenario(parseScenario(kSpecExample), file);
    const std::string text = readText(file);
    EXPECT_EQ(text.rfind("{\n  \"format\": \"waferscope.scenario\",\n  \"version\": 1,\n", 0), 0u)
        << text;
    EXPECT_NE(text.find("\"group\": [3, 2, 6, 7]"), std::string::npos) << text;
    EXPECT_NE(text.find("\"link_bandwidth\": \"4 TB/s\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"links\": [\"1->2\", \"6-7\"]"), std::string::npos) << text;
    EXPECT_EQ(text.back(), '\n');
    int files = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir))
        ++files;
    EXPECT_EQ(files, 1);
    std::filesystem::remove_all(dir);
}

TEST(ScenarioIo, WritesOnlyKeysThatApply) {
    const nlohmann::json json = toJson(parseScenario(kSpecExample));
    EXPECT_FALSE(json.contains("description"));
    EXPECT_FALSE(json["traffic"][0].contains("src"));
    EXPECT_FALSE(json["traffic"][0].contains("root"));
    EXPECT_FALSE(json["traffic"][0].contains("start"));
    EXPECT_FALSE(json["traffic"][1].contains("group"));
    EXPECT_FALSE(json["traffic"][1].contains("algorithm"));
    EXPECT_EQ(json["traffic"][1]["src"], 2);
    EXPECT_EQ(json["wafer"]["die"]["efficiency"], 1.0);
    EXPECT_EQ(json["routing"]["paths"]["p"], (nlohmann::json{2, 6, 10}));
    const nlohmann::json minimal = toJson(parseScenario(R"({"wafer": {"rows": 1, "cols": 2}})"));
    EXPECT_FALSE(minimal.contains("traffic"));
    EXPECT_FALSE(minimal.contains("routing"));
    EXPECT_FALSE(minimal.contains("tcme"));
    EXPECT_EQ(minimal["wafer"]["link_latency"], "200 ns");
}

TEST(ScenarioIo, ParsesAJsonDocumentDirectly) {
    EXPECT_EQ(parseScenario(nlohmann::json::parse(kSpecExample)), parseScenario(kSpecExample));
    EXPECT_THROW(parseScenario(nlohmann::json::array()), ScenarioError);
}

TEST(ScenarioIoErrors, UnreadableFile) {
    try {
        loadScenario("/nonexistent/waferscope/scenario.json");
        FAIL();
    } catch (const ScenarioError& error) {
        EXPECT_EQ(error.keyPath(), "");
        EXPECT_EQ(error.problem(), "cannot read file: No such file or directory");
    }
    const auto dir = temporaryDirectory();
    try {
        loadScenario(dir);
        FAIL();
    } catch (const ScenarioError& error) {
        EXPECT_EQ(error.problem().rfind("cannot read file: ", 0), 0u) << error.what();
    }
    std::filesystem::remove_all(dir);
}

// Not a ScenarioError: the scenario is fine, the write failed (the CLI exits 1, not 2).
TEST(ScenarioIoErrors, UnwritableFileIsAFileWriteError) {
    const std::filesystem::path file = "/nonexistent/waferscope/out.json";
    try {
        saveScenario(parseScenario(kSpecExample), file);
        FAIL() << "no FileWriteError";
    } catch (const FileWriteError& error) {
        EXPECT_EQ(error.path(), file);
        EXPECT_STREQ(error.what(),
                     "cannot write /nonexistent/waferscope/out.json: No such file or directory");
    }
}

TEST(ScenarioIoErrors, SyntaxErrorsGiveLineAndColumn) {
    ScenarioError error = errorFor("{\n  \"wafer\": {\"rows\": 4\n  \"cols\": 4}\n}");
    EXPECT_EQ(error.keyPath(), "line 3, column 8"); // the parser stops after the string "cols"
    EXPECT_EQ(error.problem().rfind("JSON syntax error: unexpected string literal", 0), 0u)
        << error.problem();
    error = errorFor("{\"wafer\": tru}");
    EXPECT_EQ(error.keyPath(), "line 1, column 14");
    error = errorFor("");
    EXPECT_EQ(error.keyPath(), "line 1, column 1");
    EXPECT_EQ(error.problem(), "JSON syntax error: the file is empty (expected a JSON object)");
    error = errorFor("{\"wafer\": {\"rows\": 1,\n\"cols\": 2}");
    EXPECT_EQ(error.keyPath(), "line 2, column 11");
    EXPECT_NE(error.problem().find("unexpected end of input"), std::string::npos);
}

TEST(ScenarioIoErrors, DuplicateKeys) {
    ScenarioError error = errorFor(R"({"wafer": {"rows": 1, "cols": 2, "rows": 3}})");
    EXPECT_EQ(error.keyPath(), "wafer.rows");
    EXPECT_EQ(error.problem().rfind("duplicate key 'rows'", 0), 0u);
    error = errorFor(withWafer(R"("traffic": [{"id": "a"}, {"id": "b", "id": "c"}])"));
    EXPECT_EQ(error.keyPath(), "traffic[1].id");
    error = errorFor(withWafer(R"("routing": {"paths": {"a": [[1, 2], [3, 4]], "a": []}})"));
    EXPECT_EQ(error.keyPath(), "routing.paths.a");
}

using test::ErrorCase;

class ScenarioIoErrorCase : public testing::TestWithParam<ErrorCase> {};

TEST_P(ScenarioIoErrorCase, NamesTheKeyAndTheProblem) {
    const ErrorCase& c = GetParam();
    const ScenarioError error = errorFor(c.text);
    EXPECT_EQ(error.keyPath(), c.keyPath) << error.what();
    EXPECT_NE(error.problem().find(c.phrase), std::string::npos) << error.what();
    EXPECT_EQ(std::string(error.what()), std::string(c.keyPath).empty()
                                             ? error.problem()
                                             : std::string(c.keyPath) + ": " + error.problem());
}

const std::string kAg = R"({"id": "ag", "op": "allgather", "group": [0, 1, 4], "bytes": "1 MB")";

INSTANTIATE_TEST_SUITE_P(
    Categories, ScenarioIoErrorCase,
    testing::Values(
        // top level
        ErrorCase{"not an object", "[1]", "", "expected a JSON object at the top level"},
        ErrorCase{"unknown top key", withWafer(R"("trafic": [])"), "trafic",
                  "unknown key 'trafic'; did you mean 'traffic'?"},
        ErrorCase{"far unknown key", withWafer(R"("zzz": 1)"), "zzz", "unknown key 'zzz'"},
        ErrorCase{"format", withWafer(R"("format": "other")"), "format",
                  "expected \"waferscope.scenario\""},
        ErrorCase{"version", withWafer(R"("version": 2)"), "version", "unsupported version 2"},
        ErrorCase{"version type", withWafer(R"("version": "1")"), "version",
                  "expected an integer, got a string"},
        ErrorCase{"missing wafer", R"({"name": "x"})", "wafer", "required key 'wafer' is missing"},
        ErrorCase{"strategy type", withWafer(R"("strategy": [])"), "strategy",
                  "expected an object, got an array"},
        ErrorCase{"traffic type", withWafer(R"("traffic": {})"), "traffic",
                  "expected an array, got an object"},
        // wafer
        ErrorCase{"missing cols", R"({"wafer": {"rows": 2}})", "wafer.cols", "required key"},
        ErrorCase{"rows 0", R"({"wafer": {"rows": 0, "cols": 2}})", "wafer.rows",
                  "must be 1 to 256, got 0"},
        ErrorCase{"rows fraction", R"({"wafer": {"rows": 2.5, "cols": 2}})", "wafer.rows",
                  "expected an integer, got 2.5"},
        ErrorCase{"rows huge", R"({"wafer": {"rows": 1e300, "cols": 2}})", "wafer.rows",
                  "must be 1 to 256, got 1e+300"},
        ErrorCase{"topology", R"({"wafer": {"rows": 2, "cols": 2, "topology": "tori"}})",
                  "wafer.topology", "unknown topology 'tori'; expected one of mesh, torus"},
        ErrorCase{"bandwidth zero", R"({"wafer": {"rows": 2, "cols": 2, "link_bandwidth": 0}})",
                  "wafer.link_bandwidth", "must be greater than 0, got 0"},
        ErrorCase{"bandwidth negative number",
                  R"({"wafer": {"rows": 2, "cols": 2, "link_bandwidth": -1}})",
                  "wafer.link_bandwidth", "is negative"},
        ErrorCase{"bandwidth absurd",
                  R"({"wafer": {"rows": 2, "cols": 2, "link_bandwidth": "2 PB/s"}})",
                  "wafer.link_bandwidth", "'2 PB/s' is absurd: more than 1 PB/s"},
        ErrorCase{"bandwidth unit",
                  R"({"wafer": {"rows": 2, "cols": 2, "link_bandwidth": "4 TB"}})",
                  "wafer.link_bandwidth", "is a data size, expected a bandwidth"},
        ErrorCase{"bandwidth nan",
                  R"({"wafer": {"rows": 2, "cols": 2, "link_bandwidth": "nan TB/s"}})",
                  "wafer.link_bandwidth", "not a finite number"},
        ErrorCase{"latency absurd", R"({"wafer": {"rows": 2, "cols": 2, "link_latency": "2 s"}})",
                  "wafer.link_latency", "absurd"},
        ErrorCase{"latency type", R"({"wafer": {"rows": 2, "cols": 2, "link_latency": null}})",
                  "wafer.link_latency", "expected a time (a number in seconds"},
        ErrorCase{"die key", R"({"wafer": {"rows": 2, "cols": 2, "die": {"sramm": 1}}})",
                  "wafer.die.sramm", "did you mean 'sram'?"},
        ErrorCase{"sram zero", R"({"wafer": {"rows": 2, "cols": 2, "die": {"sram": "0 MB"}}})",
                  "wafer.die.sram", "must be greater than 0"},
        ErrorCase{"peak flops unit",
                  R"({"wafer": {"rows": 2, "cols": 2, "die": {"peak_flops": "1 TB/s"}}})",
                  "wafer.die.peak_flops", "expected a compute rate"},
        ErrorCase{"efficiency zero",
                  R"({"wafer": {"rows": 2, "cols": 2, "die": {"efficiency": 0}}})",
                  "wafer.die.efficiency", "greater than 0 and at most 1"},
        ErrorCase{"task overhead negative",
                  R"({"wafer": {"rows": 2, "cols": 2, "die": {"task_overhead": -1e-6}}})",
                  "wafer.die.task_overhead", "-1e-06 is negative"},
        ErrorCase{"task overhead absurd",
                  R"({"wafer": {"rows": 2, "cols": 2, "die": {"task_overhead": "2 s"}}})",
                  "wafer.die.task_overhead", "must be between 0 and 1 s, got 2"},
        ErrorCase{"task overhead unit",
                  R"({"wafer": {"rows": 2, "cols": 2, "die": {"task_overhead": "1 MB"}}})",
                  "wafer.die.task_overhead", "expected a time"},
        ErrorCase{"gemm tile zero", R"({"wafer": {"rows": 2, "cols": 2, "die": {"gemm_tile": 0}}})",
                  "wafer.die.gemm_tile", "must be 1 to 65536, got 0"},
        ErrorCase{"gemm tile fraction",
                  R"({"wafer": {"rows": 2, "cols": 2, "die": {"gemm_tile": 12.5}}})",
                  "wafer.die.gemm_tile", "expected an integer"},
        ErrorCase{"sram reserve one",
                  R"({"wafer": {"rows": 2, "cols": 2, "die": {"sram_reserve": 1}}})",
                  "wafer.die.sram_reserve", "must be at least 0 and below 1, got 1"},
        ErrorCase{"die key typo",
                  R"({"wafer": {"rows": 2, "cols": 2, "die": {"task_overhed": 0}}})",
                  "wafer.die.task_overhed", "did you mean 'task_overhead'?"},
        ErrorCase{"energy string",
                  R"({"wafer": {"rows": 2, "cols": 2, "energy": {"d2d_pj_per_bit": "5"}}})",
                  "wafer.energy.d2d_pj_per_bit", "expected a number, got a string"},
        ErrorCase{"energy flops per joule",
                  R"({"wafer": {"rows": 2, "cols": 2, "energy": {"flops_per_joule": 0}}})",
                  "wafer.energy.flops_per_joule", "must be greater than 0"},
        ErrorCase{"fault die duplicate",
                  R"({"wafer": {"rows": 2, "cols": 2, "faults": {"dies": [1, 3, 1]}}})",
                  "wafer.faults.dies[2]", "die 1 is listed twice (also at wafer.faults.dies[0])"},
        ErrorCase{"fault die range",
                  R"({"wafer": {"rows": 2, "cols": 2, "faults": {"dies": [-1]}}})",
                  "wafer.faults.dies[0]", "die -1 is out of range (this wafer has dies 0 to 3)"},
        ErrorCase{"fault link range",
                  R"({"wafer": {"rows": 2, "cols": 2, "faults": {"links": ["3->4"]}}})",
                  "wafer.faults.links[0]", "die 4 is out of range"},
        ErrorCase{"fault link mesh wrap",
                  R"({"wafer": {"rows": 1, "cols": 4, "faults": {"links": ["0-3"]}}})",
                  "wafer.faults.links[0]", "not neighbours on this 1x4 mesh"},
        ErrorCase{"fault link self",
                  R"({"wafer": {"rows": 2, "cols": 2, "faults": {"links": ["1-1"]}}})",
                  "wafer.faults.links[0]", "not neighbours"},
        ErrorCase{"fault link syntax",
                  R"({"wafer": {"rows": 2, "cols": 2, "faults": {"links": ["0->"]}}})",
                  "wafer.faults.links[0]", "expected a link such as"},
        ErrorCase{"fault link duplicate",
                  R"({"wafer": {"rows": 2, "cols": 2, "faults": {"links": ["0-1", "1->0"]}}})",
                  "wafer.faults.links[1]", "the link 1->0 is listed twice"},
        // traffic
        ErrorCase{"op not object", withWafer(R"("traffic": [3])"), "traffic[0]",
                  "expected an object, got an integer"},
        ErrorCase{"op unknown key", withWafer(R"("traffic": [)" + kAg + R"(, "sizee": 1}])"),
                  "traffic[0].sizee", "unknown key 'sizee'"},
        ErrorCase{"op id type", withWafer(R"("traffic": [{"id": 1}])"), "traffic[0].id",
                  "expected a string, got an integer"},
        ErrorCase{"op id slash", withWafer(R"("traffic": [{"id": "a/b"}])"), "traffic[0].id",
                  "contains '/'"},
        ErrorCase{"missing op", withWafer(R"("traffic": [{"id": "a"}])"), "traffic[0].op",
                  "required key 'op' is missing"},
        ErrorCase{"unknown op", withWafer(R"("traffic": [{"id": "a", "op": "all_reduce"}])"),
                  "traffic[0].op", "did you mean 'allreduce'?"},
        ErrorCase{"duplicate op id", withWafer(R"("traffic": [)" + kAg + "}, " + kAg + "}]"),
                  "traffic[1].id", "duplicate op id 'ag' (also traffic[0].id)"},
        ErrorCase{"bytes missing",
                  withWafer(R"("traffic": [{"id": "a", "op": "p2p", "src": 0, "dst": 1}])"),
                  "traffic[0].bytes", "required key 'bytes' is missing"},
        ErrorCase{
            "bytes absurd",
            withWafer(
                R"("traffic": [{"id": "a", "op": "p2p", "src": 0, "dst": 1, "bytes": "2 PB"}])"),
            "traffic[0].bytes", "absurd"},
        ErrorCase{
            "bytes rate",
            withWafer(
                R"("traffic": [{"id": "a", "op": "p2p", "src": 0, "dst": 1, "bytes": "2 GB/s"}])"),
            "traffic[0].bytes", "is a bandwidth, expected a data size"},
        ErrorCase{
            "p2p out of range",
            withWafer(R"("traffic": [{"id": "a", "op": "p2p", "src": 0, "dst": 99, "bytes": 1}])"),
            "traffic[0].dst", "die 99 is out of range (this wafer has dies 0 to 15)"},
        ErrorCase{
            "p2p dead",
            withWafer(R"("traffic": [{"id": "a", "op": "p2p", "src": 5, "dst": 1, "bytes": 1}])"),
            "traffic[0].src", "die 5 is dead (wafer.faults.dies)"},
        ErrorCase{
            "p2p same die",
            withWafer(R"("traffic": [{"id": "a", "op": "p2p", "src": 1, "dst": 1, "bytes": 1}])"),
            "traffic[0].dst", "two different dies"},
        ErrorCase{
            "p2p root",
            withWafer(
                R"("traffic": [{"id": "a", "op": "p2p", "root": 1, "src": 0, "dst": 1, "bytes": 1}])"),
            "traffic[0].root", "does not apply to a p2p op"},
        ErrorCase{
            "collective dst",
            withWafer(
                R"("traffic": [{"id": "a", "op": "alltoall", "dst": 1, "group": [0, 1], "bytes": 1}])"),
            "traffic[0].dst", "applies only to a p2p op, not to alltoall"},
        ErrorCase{"group missing",
                  withWafer(R"("traffic": [{"id": "a", "op": "allreduce", "bytes": 1}])"),
                  "traffic[0].group", "required key 'group' is missing"},
        ErrorCase{
            "group empty",
            withWafer(R"("traffic": [{"id": "a", "op": "allreduce", "group": [], "bytes": 1}])"),
            "traffic[0].group", "the group is empty"},
        ErrorCase{
            "group single",
            withWafer(R"("traffic": [{"id": "a", "op": "allreduce", "group": [4], "bytes": 1}])"),
            "traffic[0].group", "at least 2 dies, got 1"},
        ErrorCase{
            "group duplicate",
            withWafer(
                R"("traffic": [{"id": "a", "op": "allreduce", "group": [4, 6, 4], "bytes": 1}])"),
            "traffic[0].group[2]",
            "die 4 appears twice in the group (also at traffic[0].group[0])"},
        ErrorCase{
            "group dead",
            withWafer(
                R"("traffic": [{"id": "a", "op": "allreduce", "group": [4, 5], "bytes": 1}])"),
            "traffic[0].group[1]", "die 5 is dead"},
        ErrorCase{
            "group element type",
            withWafer(
                R"("traffic": [{"id": "a", "op": "allreduce", "group": [4, "6"], "bytes": 1}])"),
            "traffic[0].group[1]", "expected an integer, got a string"},
        ErrorCase{
            "root not member",
            withWafer(
                R"("traffic": [{"id": "a", "op": "broadcast", "group": [4, 6], "root": 7, "bytes": 1}])"),
            "traffic[0].root", "is not in the group"},
        ErrorCase{
            "root on allreduce",
            withWafer(
                R"("traffic": [{"id": "a", "op": "allreduce", "group": [4, 6], "root": 4, "bytes": 1}])"),
            "traffic[0].root", "applies only to a broadcast"},
        ErrorCase{
            "algorithm unknown",
            withWafer(
                R"("traffic": [{"id": "a", "op": "allreduce", "group": [4, 6], "bytes": 1, "algorithm": "binomial"}])"),
            "traffic[0].algorithm",
            "unknown algorithm 'binomial'; expected one of ring, multicast, hierarchical, direct, "
            "tree"},
        ErrorCase{
            "multicast alltoall",
            withWafer(
                R"("traffic": [{"id": "a", "op": "alltoall", "group": [4, 6], "bytes": 1, "algorithm": "multicast"}])"),
            "traffic[0].algorithm", "not defined for alltoall"},
        ErrorCase{
            "tree alltoall",
            withWafer(
                R"("traffic": [{"id": "a", "op": "alltoall", "group": [4, 6], "bytes": 1, "algorithm": "tree"}])"),
            "traffic[0].algorithm", "'tree' is not defined for alltoall (use ring or direct)"},
        ErrorCase{
            "multicast reducescatter",
            withWafer(
                R"("traffic": [{"id": "a", "op": "reducescatter", "group": [4, 6], "bytes": 1, "algorithm": "multicast"}])"),
            "traffic[0].algorithm", "(use ring, tree, hierarchical or direct)"},
        ErrorCase{
            "hierarchical alltoall",
            withWafer(
                R"("traffic": [{"id": "a", "op": "alltoall", "group": [0, 1], "bytes": 1, "algorithm": "hierarchical"}])"),
            "traffic[0].algorithm", "not defined for alltoall"},
        ErrorCase{
            "hierarchical gap",
            withWafer(
                R"("traffic": [{"id": "a", "op": "allreduce", "group": [0, 2], "bytes": 1, "algorithm": "hierarchical"}])"),
            "traffic[0].algorithm", "span rows 0 to 0 and columns 0 to 2 (3 dies)"},
        ErrorCase{
            "algorithm p2p",
            withWafer(
                R"("traffic": [{"id": "a", "op": "p2p", "src": 0, "dst": 1, "bytes": 1, "algorithm": "ring"}])"),
            "traffic[0].algorithm", "applies only to collectives"},
        ErrorCase{
            "start absurd",
            withWafer(
                R"("traffic": [{"id": "a", "op": "p2p", "src": 0, "dst": 1, "bytes": 1, "start": 2e6}])"),
            "traffic[0].start", "absurd"},
        ErrorCase{
            "start unit",
            withWafer(
                R"("traffic": [{"id": "a", "op": "p2p", "src": 0, "dst": 1, "bytes": 1, "start": "1 MB"}])"),
            "traffic[0].start", "expected a time"},
        ErrorCase{
            "after type",
            withWafer(
                R"("traffic": [{"id": "a", "op": "p2p", "src": 0, "dst": 1, "bytes": 1, "after": "b"}])"),
            "traffic[0].after", "expected an array, got a string"},
        ErrorCase{"after unknown", withWafer(R"("traffic": [)" + kAg + R"(, "after": ["a"]}])"),
                  "traffic[0].after[0]", "unknown op id 'a'; did you mean 'ag'?"},
        ErrorCase{"after self", withWafer(R"("traffic": [)" + kAg + R"(, "after": ["ag"]}])"),
                  "traffic[0].after[0]", "cannot wait for itself"},
        ErrorCase{"after duplicate",
                  withWafer(R"("traffic": [{"id": "a", "op": "p2p", "src": 0, "dst": 1, "bytes": 1},
                               {"id": "b", "op": "p2p", "src": 0, "dst": 1, "bytes": 1, "after": ["a", "a"]}])"),
                  "traffic[1].after[1]", "op 'a' is listed twice (also at traffic[1].after[0])"},
        ErrorCase{"after cycle of 2",
                  withWafer(R"("traffic": [{"id": "x", "op": "p2p", "src": 0, "dst": 1, "bytes": 1},
                               {"id": "a", "op": "p2p", "src": 0, "dst": 1, "bytes": 1, "after": ["x", "b"]},
                               {"id": "b", "op": "p2p", "src": 0, "dst": 1, "bytes": 1, "after": ["a"]}])"),
                  "traffic[1].after", "dependency cycle a -> b -> a"},
        // routing
        ErrorCase{"routing mode", withWafer(R"("routing": {"mode": "XY"})"), "routing.mode",
                  "unknown routing mode 'XY'"},
        ErrorCase{"routing key", withWafer(R"("routing": {"path": {}})"), "routing.path",
                  "did you mean 'paths'?"},
        ErrorCase{"paths type", withWafer(R"("routing": {"paths": []})"), "routing.paths",
                  "expected an object, got an array"},
        ErrorCase{"path type", withWafer(R"("routing": {"paths": {"ag/s0/r1": 3}})"),
                  "routing.paths.ag/s0/r1", "expected an array, got an integer"},
        ErrorCase{"path empty", withWafer(R"("routing": {"paths": {"p": []}})"), "routing.paths.p",
                  "at least 2 dies, got 0"},
        ErrorCase{"path range", withWafer(R"("routing": {"paths": {"p": [0, 16]}})"),
                  "routing.paths.p[1]", "die 16 is out of range"},
        ErrorCase{"path dead die", withWafer(R"("routing": {"paths": {"p": [4, 5, 6]}})"),
                  "routing.paths.p[1]", "die 5 is dead"},
        ErrorCase{"path jump", withWafer(R"("routing": {"paths": {"p": [0, 2]}})"),
                  "routing.paths.p[1]", "dies 0 and 2 are not neighbours"},
        ErrorCase{"path dead link", withWafer(R"("routing": {"paths": {"p": [0, 1, 2]}})"),
                  "routing.paths.p[2]", "the link 1->2 is dead (wafer.faults.links)"},
        ErrorCase{"path loop", withWafer(R"("routing": {"paths": {"p": [0, 1, 0]}})"),
                  "routing.paths.p[2]", "die 0 is visited twice (also at routing.paths.p[0])"},
        ErrorCase{"tree mixed", withWafer(R"("routing": {"paths": {"t": [[0, 1], 2]}})"),
                  "routing.paths.t[1]", "expected a [from, to] pair"},
        ErrorCase{"tree dead link", withWafer(R"("routing": {"paths": {"t": [[0, 1], [1, 2]]}})"),
                  "routing.paths.t[1]", "the link 1->2 is dead"},
        ErrorCase{"tree not neighbours",
                  withWafer(R"("routing": {"paths": {"t": [[0, 1], [1, 9]]}})"),
                  "routing.paths.t[1]", "not neighbours"},
        ErrorCase{"tree duplicate edge",
                  withWafer(R"("routing": {"paths": {"t": [[0, 1], [0, 1]]}})"),
                  "routing.paths.t[1]", "listed twice"},
        ErrorCase{"tree dead die", withWafer(R"("routing": {"paths": {"t": [[4, 5]]}})"),
                  "routing.paths.t[0][1]", "die 5 is dead"},
        // tcme
        ErrorCase{"tcme max_iter", withWafer(R"("tcme": {"max_iter": 1001})"), "tcme.max_iter",
                  "must be 1 to 1000, got 1001"},
        ErrorCase{"tcme min_gain", withWafer(R"("tcme": {"min_gain": -0.1})"), "tcme.min_gain",
                  "at least 0 and less than 1"},
        ErrorCase{"tcme patience", withWafer(R"("tcme": {"patience": 0})"), "tcme.patience",
                  "must be 1 to 1000"},
        ErrorCase{"tcme target", withWafer(R"("tcme": {"target_utilization": 0})"),
                  "tcme.target_utilization", "greater than 0 and at most 10"},
        ErrorCase{"tcme split", withWafer(R"("tcme": {"split_transfers": 1})"),
                  "tcme.split_transfers", "true or false"},
        ErrorCase{"tcme key", withWafer(R"("tcme": {"patient": 3})"), "tcme.patient",
                  "did you mean 'patience'?"}),
    [](const testing::TestParamInfo<ErrorCase>& param) { return test::errorCaseName(param); });

TEST(ScenarioIoErrors, AcceptsValidEdgeCases) {
    // Torus wrap-around links and hierarchical on a full rectangle in any order.
    EXPECT_NO_THROW(parseScenario(
        R"({"wafer": {"rows": 1, "cols": 4, "topology": "torus", "faults": {"links": ["0-3"]}}})"));
    EXPECT_NO_THROW(parseScenario(withWafer(
        R"("traffic": [{"id": "h", "op": "allreduce", "group": [10, 6, 7, 11], "bytes": 1, "algorithm": "hierarchical"}])")));
    // A dead link next to a dead die, an op that waits for a later op, x- keys in faults.
    EXPECT_NO_THROW(parseScenario(withWafer(
        R"("traffic": [{"id": "a", "op": "p2p", "src": 0, "dst": 1, "bytes": 1, "after": ["b"]},
                       {"id": "b", "op": "p2p", "src": 0, "dst": 1, "bytes": 1}])")));
    EXPECT_NO_THROW(parseScenario(
        R"({"wafer": {"rows": 2, "cols": 2, "faults": {"dies": [0], "links": ["0-1"], "x-why": 1}}})"));
}

} // namespace
} // namespace ws
