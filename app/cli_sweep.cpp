#include "cli_sweep.h"

#include "cli_commands.h"
#include "cli_options.h"

#include "io/scenario_io.h"
#include "scenario/scenario_error.h"
#include "sweep/sweep_runner.h"
#include "sweep/sweep_spec.h"
#include "sweep/sweep_table.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <thread>

namespace ws {

namespace {

struct SweepCommandOptions {
    std::string file;
    std::optional<std::filesystem::path> outputPath;
    int threads = 1;
};

SweepCommandOptions parseOptions(const std::vector<std::string>& args) {
    SweepCommandOptions options;
    options.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    options.file = readSubcommandArguments(
        args, "a sweep FILE", [&](const std::string& arg, const auto& value) {
            if (arg == "-o")
                options.outputPath = value();
            else if (arg == "--threads")
                options.threads = parseIntegerOption<int>(arg, value(), 1, 256);
            else
                return false;
            return true;
        });
    return options;
}

} // namespace

int runSweepCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::string file;
    try {
        const SweepCommandOptions options = parseOptions(args);
        file = options.file;
        const SweepSpec spec = loadSweep(options.file);
        const SweepFormat format =
            options.outputPath ? sweepFormatFor(*options.outputPath) : SweepFormat::Csv;

        ExistingRows existing;
        std::ofstream output;
        if (options.outputPath) {
            if (std::filesystem::exists(*options.outputPath)) {
                try {
                    existing = readExistingRows(readWholeFile(*options.outputPath), spec, format);
                } catch (const ScenarioError& error) {
                    err << options.outputPath->string() << ": " << error.problem() << '\n';
                    return kExitBadInput;
                }
                // A line an interrupted run left half written is dropped and its point redone.
                std::filesystem::resize_file(*options.outputPath, existing.completeBytes);
            }
            output.open(*options.outputPath, std::ios::binary | std::ios::app);
            if (!output) {
                err << "waferscope-cli: cannot write " << options.outputPath->string() << '\n';
                return kExitRunFailed;
            }
        }
        std::ostream& rows = options.outputPath ? output : out;
        if (!existing.hasHeader && existing.keys.empty())
            rows << sweepHeader(spec, format);

        const std::size_t total = pointCount(spec);
        const auto started = std::chrono::steady_clock::now();
        std::size_t failed = 0;
        SweepRunOptions run;
        run.threads = options.threads;
        run.skip = [&](const SweepPoint& point) {
            return existing.keys.count(pointKey(point)) > 0;
        };
        run.onRow = [&](const SweepRow& row) {
            failed += row.ok ? 0 : 1;
            rows << sweepLine(spec, row, format) << std::flush; // kept if the run is cut short
            if (!rows)
                throw std::runtime_error("cannot write the rows");
        };
        run.progress = [&](std::size_t done, std::size_t todo) {
            // About twenty lines a sweep, and the last.
            if (done != todo && done % std::max<std::size_t>(1, todo / 20) != 0)
                return;
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            char line[200];
            std::snprintf(line, sizeof line,
                          "sweep: %zu/%zu points (%zu already in the output), %zu failed, "
                          "%.3g points/s\n",
                          done + existing.keys.size(), total, existing.keys.size(), failed,
                          seconds > 0 ? static_cast<double>(done) / seconds : 0.0);
            err << line;
        };
        const std::size_t ran = runSweep(spec, run);
        if (ran == 0)
            err << "sweep: all " << total << " points are already in the output\n";
        return kExitOk;
    } catch (const CliUsageError& error) {
        err << "waferscope-cli: " << error.message << "\n(see waferscope-cli --help)\n";
        return kExitBadInput;
    } catch (const ScenarioError& error) {
        err << file << ": " << error.what() << '\n';
        return kExitBadInput;
    } catch (const std::exception& error) {
        err << "waferscope-cli: sweep " << file << ": " << error.what() << '\n';
        return kExitRunFailed;
    }
}

} // namespace ws
