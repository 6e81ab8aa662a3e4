// `waferscope-cli sweep` end to end (docs/cli.md section 10): the rows, resume after an
// interrupted run, and bad sweep files.
#include "cli_runner.h"
#include "test_data_paths.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

using ws::test::kScenarios;

using ws::test::CliRun;
using ws::test::quote;
using ws::test::readFile;
using ws::test::runCli;
using ws::test::scratchDir;

// The sweep over a shipped scenario by its path, relative to the sweep file.
fs::path writeSweep(const std::string& name, const std::string& axes) {
    const fs::path file = scratchDir() / name;
    std::ofstream(file) << R"({"format": "waferscope.sweep", "version": 1, "base": )"
                        << nlohmann::json((kScenarios / "contention_fsdp_tatp_4x4.json").string())
                        << R"(, "axes": )" << axes << "}";
    return file;
}

std::size_t lines(const std::string& text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(CliSweep, WritesARowPerPointEqualToSimulate) {
    const fs::path sweep =
        writeSweep("bandwidth.json", R"({"wafer.link_bandwidth": ["2 TB/s", "4 TB/s"]})");
    const CliRun run = runCli("sweep " + quote(sweep.string()) + " --threads 2");
    ASSERT_EQ(run.status, 0) << run.err;
    ASSERT_EQ(lines(run.out), 3u) << run.out;
    EXPECT_NE(run.err.find("sweep: 2/2 points"), std::string::npos) << run.err;
    // The 4 TB/s row's makespan is simulate's for the same scenario.
    const CliRun simulate = runCli("simulate --json=summary " +
                                   quote((kScenarios / "contention_fsdp_tatp_4x4.json").string()));
    ASSERT_EQ(simulate.status, 0) << simulate.err;
    const double makespan = nlohmann::json::parse(simulate.out).at("makespan_s").get<double>();
    std::istringstream rows(run.out);
    std::string header, first, second;
    std::getline(rows, header);
    std::getline(rows, first);
    std::getline(rows, second);
    EXPECT_EQ(second.rfind("4 TB/s,0,true,,,,,", 0), 0u) << second;
    EXPECT_NE(second.find("," + nlohmann::json(makespan).dump() + ","), std::string::npos)
        << second << " vs " << makespan;
}

TEST(CliSweep, ResumesAfterAnInterruptedRun) {
    const fs::path sweep =
        writeSweep("latency.json", R"({"wafer.link_latency": ["100 ns", "200 ns", "400 ns"]})");
    const fs::path out = scratchDir() / "latency.csv";
    fs::remove(out);
    ASSERT_EQ(runCli("sweep " + quote(sweep.string()) + " -o " + quote(out.string())).status, 0);
    const std::string full = readFile(out);
    ASSERT_EQ(lines(full), 4u);
    // Cut short in the middle of the third row, as a killed run would leave it.
    const std::size_t cut = full.rfind('\n', full.size() - 2) + 4;
    std::ofstream(out, std::ios::binary | std::ios::trunc) << full.substr(0, cut);
    const CliRun resumed = runCli("sweep " + quote(sweep.string()) + " -o " + quote(out.string()));
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_NE(resumed.err.find("2 already in the output"), std::string::npos) << resumed.err;
    EXPECT_EQ(readFile(out), full);
    const CliRun again = runCli("sweep " + quote(sweep.string()) + " -o " + quote(out.string()));
    EXPECT_NE(again.err.find("all 3 points are already in the output"), std::string::npos);
    EXPECT_EQ(readFile(out), full);
}

TEST(CliSweep, ABadSweepFileExits2NamingTheKey) {
    const fs::path sweep = writeSweep("typo.json", R"({"wafer.link_bandwith": ["2 TB/s"]})");
    const CliRun run = runCli("sweep " + quote(sweep.string()));
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find("axes.wafer.link_bandwith[0]"), std::string::npos) << run.err;
    EXPECT_EQ(runCli("sweep").status, 2);
    EXPECT_EQ(runCli("sweep " + quote(sweep.string()) + " --threads 0").status, 2);
}

} // namespace
