#include "cli_sweep.h"

#include "cli_commands.h"
#include "cli_options.h"

#include "io/scenario_io.h"
#include "scenario/scenario_error.h"
#include "sweep/sweep_runner.h"
#include "sweep/sweep_spec.h"
#include "sweep/sweep_table.h"

#ifdef WAFERSCOPE_WITH_MPI
#include "sweep/mpi_sweep.h"
#endif

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace ws {

namespace {

struct SweepCommandOptions {
    std::string file;
    std::optional<std::filesystem::path> outputPath;
    int threads = 1;
};

// The cores this process may run on: mpirun binds each rank to its own, and the machine's count
// would put every rank's threads on the same core.
int usableCores() {
    cpu_set_t cores;
    if (sched_getaffinity(0, sizeof cores, &cores) == 0)
        return std::max(1, CPU_COUNT(&cores));
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

SweepCommandOptions parseSweepOptions(const std::vector<std::string>& args) {
    SweepCommandOptions options;
    options.threads = usableCores();
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

// How many processes a launcher started this one among: Open MPI's mpirun, a PMI launcher
// (MPICH's, Slurm's srun --mpi=pmi2) or a Slurm step; 1 when none did.
[[maybe_unused]] int launchedProcesses() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"})
        if (const char* value = std::getenv(name))
            return std::max(1, std::atoi(value));
    return 1;
}

// Whether an MPI launcher started this process (PMIX_RANK: srun --mpi=pmix). Without one, MPI
// is not initialised at all and the sweep runs as before.
[[maybe_unused]] bool startedByMpiLauncher() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
        if (std::getenv(name))
            return true;
    return false;
}

// A sweep ready to run: the file read, and on the rank that writes, the output opened with
// what an earlier run left in it.
struct SweepJob {
    SweepCommandOptions options;
    SweepSpec spec;
    SweepFormat format = SweepFormat::Csv;
    ExistingRows existing;
    std::ofstream output;
};

// Reads the arguments and the sweep file; `writer` (rank 0) also opens the output. Problems go
// to `err` in the CLI's words; returns an ExitStatus.
int prepareSweep(const std::vector<std::string>& args, bool writer, SweepJob& job,
                 std::ostream& err) {
    try {
        job.options = parseSweepOptions(args);
        job.spec = loadSweep(job.options.file);
    } catch (const CliUsageError& error) {
        err << "waferscope-cli: " << error.message << "\n(see waferscope-cli --help)\n";
        return kExitBadInput;
    } catch (const ScenarioError& error) {
        err << job.options.file << ": " << error.what() << '\n';
        return kExitBadInput;
    }
    const std::optional<std::filesystem::path>& path = job.options.outputPath;
    if (!path || !writer)
        return kExitOk;
    job.format = sweepFormatFor(*path);
    try {
        if (std::filesystem::exists(*path)) {
            try {
                job.existing = readExistingRows(readWholeFile(*path), job.spec, job.format);
            } catch (const ScenarioError& error) {
                err << path->string() << ": " << error.problem() << '\n';
                return kExitBadInput;
            }
            // A line an interrupted run left half written is dropped and its point redone.
            std::filesystem::resize_file(*path, job.existing.completeBytes);
        }
    } catch (const std::exception& error) {
        err << "waferscope-cli: cannot read " << path->string() << ": " << error.what() << '\n';
        return kExitRunFailed;
    }
    job.output.open(*path, std::ios::binary | std::ios::app);
    if (!job.output) {
        err << "waferscope-cli: cannot write " << path->string() << '\n';
        return kExitRunFailed;
    }
    return kExitOk;
}

// What the writing rank does with the rows: the header, each row as it comes (flushed, so that a
// run cut short keeps them) and about twenty progress lines on `err`.
SweepRunOptions writingOptions(SweepJob& job, std::ostream& rows, std::ostream& err) {
    const std::size_t total = pointCount(job.spec);
    const std::size_t already = job.existing.keys.size();
    if (!job.existing.hasHeader && job.existing.keys.empty())
        rows << sweepHeader(job.spec, job.format);
    SweepRunOptions run;
    run.threads = job.options.threads;
    run.skip = [&job](const SweepPoint& point) {
        return job.existing.keys.count(pointKey(point)) > 0;
    };
    auto failed = std::make_shared<std::size_t>(0);
    run.onRow = [&job, &rows, failed](const SweepRow& row) {
        *failed += row.ok ? 0 : 1;
        rows << sweepLine(job.spec, row, job.format) << std::flush;
        if (!rows)
            throw std::runtime_error("cannot write the rows");
    };
    const auto started = std::chrono::steady_clock::now();
    run.progress = [&err, total, already, failed, started](std::size_t done, std::size_t todo) {
        if (done != todo && done % std::max<std::size_t>(1, todo / 20) != 0)
            return;
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        char line[200];
        std::snprintf(line, sizeof line,
                      "sweep: %zu/%zu points (%zu already in the output), %zu failed, "
                      "%.3g points/s\n",
                      done + already, total, already, *failed,
                      seconds > 0 ? static_cast<double>(done) / seconds : 0.0);
        err << line;
    };
    return run;
}

} // namespace

int runSweepCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
#ifdef WAFERSCOPE_WITH_MPI
    std::optional<MpiSweep> mpi;
    if (startedByMpiLauncher())
        mpi.emplace();
    const int rank = mpi ? mpi->rank() : 0;
    const bool shared = mpi && mpi->ranks() > 1;
#else
    if (const int processes = launchedProcesses(); processes > 1) {
        err << "waferscope-cli: sweep was started as one of " << processes
            << " processes (mpirun or srun), but this build has no MPI: each process would run "
               "the whole sweep. Run it as one process, or build with Open MPI (libopenmpi-dev; "
               "docs/scale.md)\n";
        return kExitBadInput;
    }
    constexpr int rank = 0;
    constexpr bool shared = false;
#endif
    SweepJob job;
    std::ostringstream problems;
    const int status = prepareSweep(args, rank == 0, job, problems);
#ifdef WAFERSCOPE_WITH_MPI
    if (shared) {
        // Every rank reads the sweep; rank 0 speaks for all when it failed too (the same file),
        // another rank only for what went wrong there alone (a file its node cannot see).
        const bool rootReady = mpi->rootsValue(status == kExitOk);
        if (status != kExitOk && (rank == 0 || rootReady))
            err << (rank == 0 ? "" : "rank " + std::to_string(rank) + ": ") << problems.str();
        if (!mpi->allRanks(status == kExitOk)) {
            if (status == kExitOk && rank == 0)
                err << "waferscope-cli: sweep: another rank could not start (above)\n";
            return status == kExitOk ? kExitBadInput : status;
        }
    }
#endif
    if (!shared) {
        err << problems.str();
        if (status != kExitOk)
            return status;
    }

    try {
        std::ostream& rows = job.options.outputPath ? job.output : out;
        SweepRunOptions run;
        if (rank == 0)
            run = writingOptions(job, rows, err);
        run.threads = job.options.threads;
        std::size_t ran = 0;
#ifdef WAFERSCOPE_WITH_MPI
        if (shared) {
            try {
                ran = mpi->run(job.spec, run);
                if (rank == 0) {
                    err << "sweep: shared among " << mpi->ranks() << " ranks, points run:";
                    for (std::size_t r = 0; r < mpi->pointsPerRank().size(); ++r)
                        err << (r == 0 ? " " : ", ") << "rank " << r << ' '
                            << mpi->pointsPerRank()[r];
                    err << '\n';
                }
            } catch (const std::exception& error) {
                err << "waferscope-cli: sweep " << job.options.file << " (rank " << rank
                    << "): " << error.what() << '\n';
                mpi->abort(kExitRunFailed); // the other ranks wait for rows or work
            }
        }
#endif
        if (!shared)
            ran = runSweep(job.spec, run);
        if (ran == 0 && rank == 0)
            err << "sweep: all " << pointCount(job.spec) << " points are already in the output\n";
        return kExitOk;
    } catch (const std::exception& error) {
        err << "waferscope-cli: sweep " << job.options.file << ": " << error.what() << '\n';
        return kExitRunFailed;
    }
}

} // namespace ws
