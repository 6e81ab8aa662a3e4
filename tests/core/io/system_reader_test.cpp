// The `system` key (docs/file-format.md): wafers side by side, read and written
// back exactly; die ids of faults, traffic and routes numbered over the whole grid of dies; each
// problem an error naming its key.

#include "io/scenario_io.h"
#include "io/scenario_writer.h"

#include "io/error_case.h"

#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ws {
namespace {

// A [1, 2] system of 4x4 wafers: a 4x8 grid whose wafer 1 starts at die 4. With
// links_per_edge 2 its edge of 4 die pairs (3-4, 11-12, 19-20, 27-28) joins the pairs at
// floor((2i + 1) 4 / 4) = rows 1 and 3 only: 11-12 and 27-28.
const std::string kWafer = R"("wafer": {"rows": 4, "cols": 4})";
const std::string kSystem =
    R"("system": {"wafers": [1, 2], "link_bandwidth": "1 TB/s", "link_latency": "1 us",
                  "links_per_edge": 2})";

// {wafer, system, fragment}.
std::string document(const std::string& fragment, const std::string& system = kSystem,
                     const std::string& wafer = kWafer) {
    return "{" + wafer + ", " + system + (fragment.empty() ? "" : ", " + fragment) + "}";
}

// A 4x4 wafer's `"system": {<keys>}` with the two required links given.
std::string systemWith(const std::string& keys) {
    return R"("system": {"link_bandwidth": "1 TB/s", "link_latency": "1 us")" +
           (keys.empty() ? "" : ", " + keys) + "}";
}

// A 4x4 wafer with these faults in kSystem.
std::string withFaults(const std::string& faults, const std::string& fragment = "") {
    return document(fragment, kSystem,
                    R"("wafer": {"rows": 4, "cols": 4, "faults": )" + faults + "}");
}

ScenarioError errorFor(const std::string& text) {
    try {
        parseScenario(text);
    } catch (const ScenarioError& error) {
        return error;
    }
    ADD_FAILURE() << "accepted: " << text;
    return ScenarioError("<none>", "<none>");
}

TEST(SystemReader, ReadsEveryKey) {
    const Scenario scenario = parseScenario(document("", R"("system": {
        "wafers": [1, 2], "link_bandwidth": "1 TB/s", "link_latency": 2e-6,
        "links_per_edge": 2, "pj_per_bit": 10, "x-cable": "copper"})"));
    ASSERT_TRUE(scenario.system);
    const SystemSpec& system = *scenario.system;
    EXPECT_EQ(system.waferRows, 1);
    EXPECT_EQ(system.waferCols, 2);
    EXPECT_EQ(system.linkBandwidth, (Quantity{1e12, "1 TB/s"}));
    EXPECT_EQ(system.linkLatency, (Quantity{2e-6, ""}));
    EXPECT_EQ(system.linksPerEdge, 2);
    EXPECT_EQ(system.picojoulesPerBit, 10.0);
    EXPECT_EQ(system.extensions, (nlohmann::json{{"x-cable", "copper"}}));
    EXPECT_EQ(scenario.gridRows(), 4);
    EXPECT_EQ(scenario.gridCols(), 8);
    EXPECT_EQ(scenario.dieCount(), 32);

    const Scenario minimal = parseScenario(document("", systemWith(R"("wafers": [2, 1])")));
    EXPECT_FALSE(minimal.system->linksPerEdge);
    EXPECT_FALSE(minimal.system->picojoulesPerBit);
    EXPECT_EQ(minimal.dieCount(), 32);
    EXPECT_FALSE(parseScenario("{" + kWafer + "}").system);
}

// load -> save -> load gives the same scenario, with the user's quantity texts and without the
// optional keys that were not written; `system` follows `wafer` in the saved text.
TEST(SystemReader, RoundTrips) {
    const std::vector<std::string> documents = {
        document(R"("x-top": 1)", R"("system": {
            "wafers": [2, 2], "link_bandwidth": 5e11, "link_latency": "500 ns",
            "links_per_edge": 1, "pj_per_bit": 2.5, "x-note": [1, 2]})"),
        document(R"("name": "tall")", systemWith(R"("wafers": [2, 1])"),
                 R"("wafer": {"rows": 2, "cols": 3, "faults": {"dies": [11], "links": ["4-7"]}})"),
        document(R"("traffic": [{"id": "p", "op": "p2p", "src": 0, "dst": 31, "bytes": "1 MB"}],
                    "routing": {"paths": {"p": [0, 1, 2, 3, 11, 12, 13, 14, 15, 23, 31]}})"),
        document("", systemWith(R"("wafers": [1, 1], "links_per_edge": 200)"),
                 R"("wafer": {"rows": 4, "cols": 4, "topology": "torus"})")};
    for (const std::string& text : documents) {
        const Scenario first = parseScenario(text);
        ASSERT_TRUE(first.system) << text;
        EXPECT_EQ(parseScenario(formatScenarioText(first)), first) << formatScenarioText(first);
        EXPECT_EQ(parseScenario(toJson(first)), first);
    }
    const std::string saved =
        formatScenarioText(parseScenario(document("", systemWith(R"("wafers": [1, 3])"))));
    EXPECT_NE(saved.find(R"("system": {"wafers": [1, 3], "link_bandwidth": "1 TB/s", )"
                         R"("link_latency": "1 us"})"),
              std::string::npos)
        << saved;
    EXPECT_LT(saved.find("\"wafer\""), saved.find("\"system\""));
    EXPECT_EQ(saved.find("links_per_edge"), std::string::npos);
    EXPECT_EQ(saved.find("\"pj_per_bit\""), std::string::npos);
}

// Faults, traffic and routes name dies of the whole 4x8 grid; a dead link may be a joined
// off-wafer link.
TEST(SystemReader, AcceptsDieIdsOverTheWholeGrid) {
    const Scenario scenario = parseScenario(
        withFaults(R"({"dies": [30, 16], "links": ["27->28"], "slow_dies": {"29": 0.5}})",
                   R"("traffic": [{"id": "p", "op": "p2p", "src": 4, "dst": 31, "bytes": "1 MB"},
                       {"id": "q", "op": "p2p", "src": 0, "dst": 12, "bytes": "1 MB"},
                       {"id": "ag", "op": "allgather", "group": [3, 12, 20], "bytes": "1 MB"}],
           "routing": {"paths": {"p": [4, 5, 6, 7, 15, 23, 31], "q": [0, 8, 9, 10, 11, 12],
                                 "ag/s0/r0": [[3, 11], [11, 12], [12, 20]]}})"));
    EXPECT_EQ(scenario.wafer.deadDies, (std::vector<DieId>{30, 16}));
    ASSERT_EQ(scenario.wafer.deadLinks.size(), 1U);
    EXPECT_EQ(scenario.wafer.deadLinks[0].from, 27);
    EXPECT_EQ(scenario.wafer.deadLinks[0].to, 28);
    EXPECT_EQ(scenario.wafer.slowDies, (std::map<DieId, double>{{29, 0.5}}));
    EXPECT_EQ(scenario.traffic.at(0).dst, 31);
    // Wafers one above the other of a [2, 1] system with one pair per edge: column 2 (dies
    // 14-18) of floor(4 / 2).
    EXPECT_NO_THROW(parseScenario(document(
        "", systemWith(R"("wafers": [2, 1], "links_per_edge": 1)"),
        R"("wafer": {"rows": 4, "cols": 4, "faults": {"links": ["14-18"], "dies": [31]}})")));
}

using test::ErrorCase;

class SystemReaderError : public testing::TestWithParam<ErrorCase> {};

TEST_P(SystemReaderError, NamesTheKeyAndTheProblem) {
    const ErrorCase& c = GetParam();
    const ScenarioError error = errorFor(c.text);
    EXPECT_EQ(error.keyPath(), c.keyPath) << error.what();
    EXPECT_NE(error.problem().find(c.phrase), std::string::npos) << error.what();
}

INSTANTIATE_TEST_SUITE_P(
    Keys, SystemReaderError,
    testing::Values(
        ErrorCase{"not an object", document("", R"("system": [1, 2])"), "system",
                  "expected an object, got an array"},
        ErrorCase{"unknown key",
                  document("", systemWith(R"("wafers": [1, 2], "links_per_egde": 1)")),
                  "system.links_per_egde", "did you mean 'links_per_edge'?"},
        ErrorCase{"wafers missing", document("", systemWith("")), "system.wafers",
                  "required key 'wafers' is missing"},
        ErrorCase{"wafers not an array", document("", systemWith(R"("wafers": 2)")),
                  "system.wafers", "expected an array, got an integer"},
        ErrorCase{"wafers of three", document("", systemWith(R"("wafers": [1, 2, 3])")),
                  "system.wafers",
                  "expected [rows, cols] of wafers, two integers, got an array "
                  "of 3"},
        ErrorCase{"wafers zero", document("", systemWith(R"("wafers": [0, 2])")),
                  "system.wafers[0]", "must be 1 to 256, got 0"},
        ErrorCase{"wafers fraction", document("", systemWith(R"("wafers": [1, 1.5])")),
                  "system.wafers[1]", "integer"},
        ErrorCase{"grid too large",
                  document("", systemWith(R"("wafers": [3, 1])"),
                           R"("wafer": {"rows": 100, "cols": 100})"),
                  "system.wafers",
                  "3x1 wafers of 100x100 dies make a 300x100 grid of dies; a grid has at most "
                  "256 rows and 256 columns"},
        ErrorCase{"torus of wafers",
                  document("", systemWith(R"("wafers": [1, 2])"),
                           R"("wafer": {"rows": 4, "cols": 4, "topology": "torus"})"),
                  "system.wafers", "a torus wafer cannot be one of several"},
        ErrorCase{"bandwidth missing",
                  document("", R"("system": {"wafers": [1, 2], "link_latency": "1 us"})"),
                  "system.link_bandwidth", "required key 'link_bandwidth' is missing"},
        ErrorCase{"latency missing",
                  document("", R"("system": {"wafers": [1, 2], "link_bandwidth": "1 TB/s"})"),
                  "system.link_latency", "required key 'link_latency' is missing"},
        ErrorCase{"bandwidth zero",
                  document("", R"("system": {"wafers": [1, 2], "link_bandwidth": 0,
                                             "link_latency": "1 us"})"),
                  "system.link_bandwidth", "must be greater than 0, got 0"},
        ErrorCase{"bandwidth absurd",
                  document("", R"("system": {"wafers": [1, 2], "link_bandwidth": "40 PB/s",
                                             "link_latency": "1 us"})"),
                  "system.link_bandwidth", "'40 PB/s' is absurd: more than 1 PB/s"},
        ErrorCase{"bandwidth unit",
                  document("", R"("system": {"wafers": [1, 2], "link_bandwidth": "1 TB",
                                             "link_latency": "1 us"})"),
                  "system.link_bandwidth", "bandwidth"},
        ErrorCase{"latency negative",
                  document("", R"("system": {"wafers": [1, 2], "link_bandwidth": "1 TB/s",
                                             "link_latency": -1e-6})"),
                  "system.link_latency", "is negative"},
        ErrorCase{"latency absurd",
                  document("", R"("system": {"wafers": [1, 2], "link_bandwidth": "1 TB/s",
                                             "link_latency": "2 s"})"),
                  "system.link_latency", "'2 s' is absurd: more than 1 s per hop"},
        ErrorCase{"links per edge zero",
                  document("", systemWith(R"("wafers": [1, 2], "links_per_edge": 0)")),
                  "system.links_per_edge", "must be 1 to 256, got 0"},
        ErrorCase{"links per edge side by side",
                  document("", systemWith(R"("wafers": [1, 2], "links_per_edge": 5)")),
                  "system.links_per_edge",
                  "5 joined pairs do not fit an edge between wafers side by side (wafer.rows), "
                  "which has 4 die pairs"},
        ErrorCase{"links per edge stacked",
                  document("", systemWith(R"("wafers": [2, 1], "links_per_edge": 3)"),
                           R"("wafer": {"rows": 4, "cols": 2})"),
                  "system.links_per_edge",
                  "3 joined pairs do not fit an edge between wafers one above the other "
                  "(wafer.cols), which has 2 die pairs"},
        ErrorCase{"pj per bit negative",
                  document("", systemWith(R"("wafers": [1, 2], "pj_per_bit": -1)")),
                  "system.pj_per_bit", "must be at least 0, got -1"},
        ErrorCase{"pj per bit string",
                  document("", systemWith(R"("wafers": [1, 2], "pj_per_bit": "5 pJ")")),
                  "system.pj_per_bit", "expected a number, got a string"},
        // Die ids over the grid.
        ErrorCase{"fault die beyond the grid", withFaults(R"({"dies": [32]})"),
                  "wafer.faults.dies[0]", "die 32 is out of range (this system has dies 0 to 31)"},
        ErrorCase{"fault link beyond the grid", withFaults(R"({"links": ["31-32"]})"),
                  "wafer.faults.links[0]", "this system has dies 0 to 31"},
        ErrorCase{"slow die beyond the grid", withFaults(R"({"slow_dies": {"40": 0.5}})"),
                  "wafer.faults.slow_dies.40", "this system has dies 0 to 31"},
        ErrorCase{"traffic die beyond the grid",
                  document(R"("traffic": [{"id": "p", "op": "p2p", "src": 0, "dst": 32,
                                           "bytes": 1}])"),
                  "traffic[0].dst", "die 32 is out of range (this system has dies 0 to 31)"},
        ErrorCase{"dead link across an unjoined pair", withFaults(R"({"links": ["3-4"]})"),
                  "wafer.faults.links[0]",
                  "dies 3 and 4 face each other across the edge of two wafers, but no off-wafer "
                  "link joins them: of that edge's 4 die pairs, system.links_per_edge joins "
                  "11-12 and 27-28"},
        ErrorCase{"dead link across an unjoined stacked pair",
                  document("", systemWith(R"("wafers": [2, 1], "links_per_edge": 1)"),
                           R"("wafer": {"rows": 4, "cols": 4, "faults": {"links": ["16->12"]}})"),
                  "wafer.faults.links[0]", "system.links_per_edge joins 14-18"},
        ErrorCase{"pinned path across an unjoined pair",
                  document(R"("routing": {"paths": {"p": [2, 3, 4]}})"), "routing.paths.p[2]",
                  "dies 3 and 4 face each other across the edge of two wafers"},
        ErrorCase{"not neighbours on the grid", withFaults(R"({"links": ["7-8"]})"),
                  "wafer.faults.links[0]", "dies 7 and 8 are not neighbours on this 4x8 mesh"}),
    [](const testing::TestParamInfo<ErrorCase>& param) { return test::errorCaseName(param); });

// Without a system the messages still speak of the wafer.
TEST(SystemReader, AWaferAloneKeepsItsMessages) {
    const ScenarioError error =
        errorFor(R"({"wafer": {"rows": 4, "cols": 4, "faults": {"dies": [16]}}})");
    EXPECT_STREQ(error.what(),
                 "wafer.faults.dies[0]: die 16 is out of range (this wafer has dies 0 to 15)");
}

} // namespace
} // namespace ws
