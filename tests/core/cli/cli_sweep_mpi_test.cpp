// `mpirun -n R waferscope-cli sweep` (docs/scale.md): the ranks share the points
// and rank 0 writes the same output as one process, byte for byte, for any R.
#include "cli_runner.h"
#include "test_data_paths.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

using ws::test::CliRun;
using ws::test::quote;
using ws::test::readFile;
using ws::test::runCli;
using ws::test::scratchDir;

using ws::test::kScenarios;

// CI and the development machines run as root on 2 cores: mpirun needs leave for both. Under
// the asan preset, LeakSanitizer is off for the ranks alone: Open MPI keeps allocations of the
// components it loads with dlopen until exit and unloads them first, so their frames cannot be
// named, nor suppressed. AddressSanitizer still checks every access; the sweep's own code path
// is leak-checked by the CliSweep and Sweep tests, which run it without MPI.
std::string mpirun(int ranks) {
    return "ASAN_OPTIONS=detect_leaks=0 OMPI_MCA_btl_vader_single_copy_mechanism=none " +
           quote(WAFERSCOPE_MPIEXEC) + " --allow-run-as-root --oversubscribe -n " +
           std::to_string(ranks);
}

// 24 points of unequal cost: four link speeds and latencies, and random dead links at two rates
// (some points fail to route: rows with ok false), three samples each.
fs::path writeFaultSweep(const std::string& name) {
    const fs::path file = scratchDir() / name;
    std::ofstream(file) << R"({"format": "waferscope.sweep", "version": 1, "base": )"
                        << nlohmann::json((kScenarios / "contention_fsdp_tatp_4x4.json").string())
                        << R"(, "axes": {"wafer.link_bandwidth": ["2 TB/s", "4 TB/s"],
                                         "wafer.link_latency": ["100 ns", "400 ns"],
                                         "faults.link_rate": [0, 0.3]},
                              "samples": 3, "seed": 5})";
    return file;
}

CliRun sweep(const fs::path& file, const fs::path& out, const std::string& launcher) {
    return runCli("sweep " + quote(file.string()) + " --threads 1 -o " + quote(out.string()),
                  launcher);
}

TEST(CliSweepMpi, TwoAndThreeRanksWriteWhatOneProcessWrites) {
    const fs::path file = writeFaultSweep("faults.json");
    for (const std::string extension : {".csv", ".jsonl"}) {
        const fs::path single = scratchDir() / ("single" + extension);
        fs::remove(single);
        const CliRun one = sweep(file, single, "");
        ASSERT_EQ(one.status, 0) << one.err;
        for (const int ranks : {2, 3}) {
            const fs::path shared = scratchDir() / ("ranks" + std::to_string(ranks) + extension);
            fs::remove(shared);
            const CliRun run = sweep(file, shared, mpirun(ranks));
            ASSERT_EQ(run.status, 0) << run.err;
            EXPECT_EQ(readFile(shared), readFile(single)) << ranks << " ranks, " << extension;
            // Only rank 0 speaks: one last progress line, not one per rank.
            const std::string last = "sweep: 24/24 points";
            EXPECT_EQ(run.err.find(last), run.err.rfind(last)) << run.err;
            EXPECT_NE(run.err.find("shared among " + std::to_string(ranks) + " ranks"),
                      std::string::npos)
                << run.err;
        }
    }
}

TEST(CliSweepMpi, ResumesUnderMpirun) {
    const fs::path file = writeFaultSweep("resume.json");
    const fs::path out = scratchDir() / "resume.csv";
    fs::remove(out);
    ASSERT_EQ(sweep(file, out, "").status, 0);
    const std::string full = readFile(out);
    // Ten whole rows and half of the eleventh, as a killed job leaves the file.
    std::size_t cut = 0;
    for (int line = 0; line < 11; ++line)
        cut = full.find('\n', cut) + 1;
    std::ofstream(out, std::ios::binary | std::ios::trunc) << full.substr(0, cut + 5);
    const CliRun resumed = sweep(file, out, mpirun(2));
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_NE(resumed.err.find("(10 already in the output)"), std::string::npos) << resumed.err;
    EXPECT_EQ(readFile(out), full);
}

TEST(CliSweepMpi, ABadSweepFileIsReportedOnceAndExits2) {
    const fs::path file = scratchDir() / "typo.json";
    std::ofstream(file) << R"({"format": "waferscope.sweep", "version": 1, "base": )"
                        << nlohmann::json((kScenarios / "contention_fsdp_tatp_4x4.json").string())
                        << R"(, "axes": {"strategy.tapt": [2]}})";
    const CliRun run = runCli("sweep " + quote(file.string()), mpirun(2));
    EXPECT_EQ(run.status, 2);
    const std::string message = "axes.strategy.tapt[0]";
    ASSERT_NE(run.err.find(message), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find(message), run.err.rfind(message)) << run.err;
}

} // namespace
