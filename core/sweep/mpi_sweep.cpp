#include "sweep/mpi_sweep.h"

#include <mpi.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace ws {

namespace {

// Messages between rank 0 and the others. A worker sends kRowsTag (CBOR: its threads and the
// rows of its last chunk, none at first); rank 0 answers kWorkTag: the next chunk as two
// positions [begin, end) in the list of points to run, begin == end meaning "no more".
constexpr int kRowsTag = 1;
constexpr int kWorkTag = 2;

// The largest chunk, so that a message stays small (a row is about 150 bytes of CBOR).
constexpr std::size_t kMaxChunk = 4096;

void check(int status, const char* call) {
    if (status != MPI_SUCCESS)
        throw std::runtime_error(std::string("MPI: ") + call + " failed");
}

nlohmann::json rowToJson(std::size_t position, const SweepRow& row) {
    const auto optional = [](const std::optional<double>& value) {
        return value ? nlohmann::json(*value) : nlohmann::json();
    };
    return {{"at", position},
            {"ok", row.ok},
            {"error", row.error},
            {"step_s", optional(row.stepS)},
            {"tokens_per_s", optional(row.tokensPerSecond)},
            {"mfu", optional(row.mfu)},
            {"makespan_s", row.makespanS},
            {"max_link_bytes", row.maxLinkBytes},
            {"peak_memory_bytes", row.peakMemoryBytes},
            {"oom", row.outOfMemory},
            {"dies_used", row.diesUsed ? nlohmann::json(*row.diesUsed) : nlohmann::json()},
            {"pp_bubble", optional(row.ppBubble)},
            {"note", row.note},
            {"best_strategy", row.bestStrategy},
            {"best_family", row.bestFamily},
            {"best_step_s", optional(row.bestStepS)},
            {"runner_up_family", row.runnerUpFamily},
            {"margin", optional(row.margin)}};
}

// The row as its rank simulated it: CBOR keeps every double exactly.
std::pair<std::size_t, SweepRow> rowFromJson(const nlohmann::json& json,
                                             const std::vector<SweepPoint>& points) {
    const auto optional = [](const nlohmann::json& value) {
        return value.is_null() ? std::nullopt : std::optional<double>(value.get<double>());
    };
    const std::size_t position = json.at("at").get<std::size_t>();
    SweepRow row;
    row.point = points.at(position);
    row.ok = json.at("ok").get<bool>();
    row.error = json.at("error").get<std::string>();
    row.stepS = optional(json.at("step_s"));
    row.tokensPerSecond = optional(json.at("tokens_per_s"));
    row.mfu = optional(json.at("mfu"));
    row.makespanS = json.at("makespan_s").get<double>();
    row.maxLinkBytes = json.at("max_link_bytes").get<double>();
    row.peakMemoryBytes = json.at("peak_memory_bytes").get<double>();
    row.outOfMemory = json.at("oom").get<bool>();
    if (!json.at("dies_used").is_null())
        row.diesUsed = json.at("dies_used").get<int>();
    row.ppBubble = optional(json.at("pp_bubble"));
    row.note = json.at("note").get<std::string>();
    row.bestStrategy = json.at("best_strategy").get<std::string>();
    row.bestFamily = json.at("best_family").get<std::string>();
    row.bestStepS = optional(json.at("best_step_s"));
    row.runnerUpFamily = json.at("runner_up_family").get<std::string>();
    row.margin = optional(json.at("margin"));
    return {position, std::move(row)};
}

void sendBytes(const std::vector<std::uint8_t>& bytes, int destination, int tag) {
    check(MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, destination, tag,
                   MPI_COMM_WORLD),
          "MPI_Send");
}

std::vector<std::uint8_t> receiveBytes(int source, int tag, MPI_Status& status) {
    check(MPI_Probe(source, tag, MPI_COMM_WORLD, &status), "MPI_Probe");
    int count = 0;
    check(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(count));
    check(MPI_Recv(bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, tag, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE),
          "MPI_Recv");
    return bytes;
}

// The points to run, by their index in the sweep: rank 0 decides (it alone reads the output
// being resumed) and tells the others.
std::vector<SweepPoint> sharedPointsToRun(const SweepSpec& spec, const SweepRunOptions& options,
                                          int rank) {
    std::vector<std::uint64_t> indices;
    std::vector<SweepPoint> points;
    if (rank == 0) {
        points = pointsToRun(spec, options.skip);
        for (const SweepPoint& point : points)
            indices.push_back(point.index);
    }
    std::uint64_t count = indices.size();
    check(MPI_Bcast(&count, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
    indices.resize(count);
    // In slices: MPI counts are ints.
    for (std::size_t begin = 0; begin < indices.size(); begin += 1u << 24) {
        const std::size_t size = std::min<std::size_t>(1u << 24, indices.size() - begin);
        check(MPI_Bcast(indices.data() + begin, static_cast<int>(size), MPI_UINT64_T, 0,
                        MPI_COMM_WORLD),
              "MPI_Bcast");
    }
    if (rank != 0)
        for (const std::uint64_t index : indices)
            points.push_back(pointAt(spec, index));
    return points;
}

// Deals out positions [0, total) in chunks, guided self-scheduling: a requester with t of the
// job's T threads gets half its share of what is left, at least one point per thread.
class ChunkDealer {
public:
    ChunkDealer(std::size_t total, int jobThreads) : m_total(total), m_jobThreads(jobThreads) {}

    std::pair<std::size_t, std::size_t> take(int threads) {
        const std::lock_guard lock(m_mutex);
        const std::size_t left = m_total - m_next;
        const std::size_t share =
            left * static_cast<std::size_t>(threads) / (2 * static_cast<std::size_t>(m_jobThreads));
        const std::size_t size = std::min(
            left, std::clamp<std::size_t>(share, static_cast<std::size_t>(threads), kMaxChunk));
        const std::size_t begin = m_next;
        m_next += size;
        return {begin, m_next};
    }

    void stop() {
        const std::lock_guard lock(m_mutex);
        m_next = m_total;
    }

private:
    std::mutex m_mutex;
    std::size_t m_total;
    std::size_t m_next = 0; // guarded by m_mutex
    int m_jobThreads;
};

// A rank other than 0: asks for chunks, simulates each on its threads, sends the rows back.
void serveAsWorker(const SweepSpec& spec, const std::vector<SweepPoint>& points, int threads) {
    nlohmann::json message = {{"threads", threads}, {"rows", nlohmann::json::array()}};
    for (;;) {
        sendBytes(nlohmann::json::to_cbor(message), 0, kRowsTag);
        std::uint64_t chunk[2] = {0, 0};
        check(MPI_Recv(chunk, 2, MPI_UINT64_T, 0, kWorkTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              "MPI_Recv");
        if (chunk[0] >= chunk[1])
            return;
        const std::vector<SweepPoint> slice(points.begin() + static_cast<std::ptrdiff_t>(chunk[0]),
                                            points.begin() + static_cast<std::ptrdiff_t>(chunk[1]));
        message["rows"] = nlohmann::json::array();
        evaluatePointsInOrder(spec, slice, threads, [&](std::size_t i, SweepRow&& row) {
            message["rows"].push_back(rowToJson(chunk[0] + i, row));
        });
    }
}

// Rank 0: its threads simulate chunks too, while this thread answers the other ranks and hands
// the rows over in order.
// Returns how many points each rank ran.
std::vector<std::size_t> coordinate(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                                    const SweepRunOptions& options, int ranks, int jobThreads) {
    ChunkDealer dealer(points.size(), jobThreads);
    std::mutex mutex;
    std::condition_variable ready;
    std::map<std::size_t, SweepRow> finished; // by position in `points`; guarded by mutex
    std::atomic<bool> stopping{false};
    const auto work = [&] {
        while (!stopping) {
            const auto [begin, end] = dealer.take(1);
            if (begin == end)
                return;
            for (std::size_t i = begin; i < end && !stopping; ++i) {
                SweepRow row = evaluatePoint(spec, points[i]);
                const std::lock_guard lock(mutex);
                finished.emplace(i, std::move(row));
                ready.notify_one();
            }
        }
    };
    std::vector<std::jthread> workers;
    for (int t = 0; t < std::max(1, options.threads); ++t)
        workers.emplace_back(work);
    std::map<int, int> threadsOf; // each other rank's threads, from its first message
    std::vector<std::size_t> ranOn(static_cast<std::size_t>(ranks), 0);
    int stoppedRanks = 0;
    std::size_t handed = 0;
    try {
        while (handed < points.size() || stoppedRanks < ranks - 1) {
            int waiting = 0;
            MPI_Status status;
            check(MPI_Iprobe(MPI_ANY_SOURCE, kRowsTag, MPI_COMM_WORLD, &waiting, &status),
                  "MPI_Iprobe");
            if (waiting) {
                const nlohmann::json message =
                    nlohmann::json::from_cbor(receiveBytes(status.MPI_SOURCE, kRowsTag, status));
                const int source = status.MPI_SOURCE;
                if (message.contains("threads"))
                    threadsOf[source] = message.at("threads").get<int>();
                {
                    const std::lock_guard lock(mutex);
                    for (const nlohmann::json& row : message.at("rows"))
                        finished.insert(rowFromJson(row, points));
                    ranOn[static_cast<std::size_t>(source)] += message.at("rows").size();
                }
                const auto [begin, end] = dealer.take(std::max(1, threadsOf[source]));
                const std::uint64_t chunk[2] = {begin, end};
                check(MPI_Send(chunk, 2, MPI_UINT64_T, source, kWorkTag, MPI_COMM_WORLD),
                      "MPI_Send");
                stoppedRanks += begin == end ? 1 : 0;
            }
            std::unique_lock lock(mutex);
            if (!waiting && finished.count(handed) == 0)
                // Woken by a row of our own threads; the other ranks' are polled every ms.
                ready.wait_for(lock, std::chrono::milliseconds(1));
            while (finished.count(handed) > 0) {
                SweepRow row = std::move(finished.at(handed));
                finished.erase(handed);
                lock.unlock();
                if (options.onRow)
                    options.onRow(row);
                ++handed;
                if (options.progress)
                    options.progress(handed, points.size());
                lock.lock();
            }
        }
    } catch (...) {
        stopping = true;
        dealer.stop();
        throw;
    }
    ranOn[0] = points.size();
    for (std::size_t rank = 1; rank < ranOn.size(); ++rank)
        ranOn[0] -= ranOn[rank];
    return ranOn;
}

} // namespace

MpiSweep::MpiSweep() {
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    check(MPI_Comm_rank(MPI_COMM_WORLD, &m_rank), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &m_ranks), "MPI_Comm_size");
}

MpiSweep::~MpiSweep() {
    MPI_Finalize();
}

bool MpiSweep::allRanks(bool ok) const {
    int mine = ok ? 1 : 0;
    int all = 0;
    check(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD), "MPI_Allreduce");
    return all != 0;
}

bool MpiSweep::rootsValue(bool value) const {
    int shared = value ? 1 : 0;
    check(MPI_Bcast(&shared, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
    return shared != 0;
}

std::size_t MpiSweep::run(const SweepSpec& spec, const SweepRunOptions& options) {
    const std::vector<SweepPoint> points = sharedPointsToRun(spec, options, m_rank);
    int threads = std::max(1, options.threads);
    int jobThreads = 0;
    check(MPI_Allreduce(&threads, &jobThreads, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
          "MPI_Allreduce");
    if (m_rank == 0)
        m_pointsPerRank = coordinate(spec, points, options, m_ranks, jobThreads);
    else
        serveAsWorker(spec, points, threads);
    return points.size();
}

void MpiSweep::abort(int status) const {
    MPI_Abort(MPI_COMM_WORLD, status);
    std::terminate(); // MPI_Abort does not return; this keeps [[noreturn]] true if it did
}

} // namespace ws
