#include "step/sram_residency.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <variant>
#include <vector>

namespace ws {

namespace {

constexpr int kNever = std::numeric_limits<int>::max();

using Kind = TensorUse::Kind;

// The activations every task of a section reads (GEMM inputs, element-wise reads, what a
// collective consumes), by task index: when each tensor is next read.
class ReadSchedule {
public:
    explicit ReadSchedule(const StepSection& section) {
        for (std::size_t i = 0; i < section.tasks.size(); ++i)
            for (const TensorUse* use : readsOf(section.tasks[i]))
                if (use->isActivation())
                    m_reads[use->tensor].push_back(static_cast<int>(i));
    }
    // The first task after `task` that reads `tensor`, or kNever.
    int nextRead(int tensor, int task) const {
        const auto it = m_reads.find(tensor);
        if (it == m_reads.end())
            return kNever;
        const auto next = std::upper_bound(it->second.begin(), it->second.end(), task);
        return next == it->second.end() ? kNever : *next;
    }

    static std::vector<const TensorUse*> readsOf(const PlannedTask& task) {
        if (const auto* gemm = std::get_if<PlannedGemm>(&task.work))
            return {&gemm->inputs[0], &gemm->inputs[1], &gemm->alsoReads};
        if (const auto* work = std::get_if<PlannedElementwise>(&task.work)) {
            std::vector<const TensorUse*> reads;
            for (const TensorUse& use : work->reads)
                reads.push_back(&use);
            return reads;
        }
        if (const auto* collective = std::get_if<PlannedCollective>(&task.work))
            return {&collective->consumes};
        return {};
    }

private:
    std::unordered_map<int, std::vector<int>> m_reads;
};

// The ids of every activation some task reads back from the stash: their forward writes also go
// to the stash in HBM.
std::set<int> stashedTensors(const StepPlan& plan) {
    std::set<int> stashed;
    for (const StepSection* section : {&plan.window, &plan.finalWindow, &plan.head})
        for (const PlannedTask& task : section->tasks)
            for (const TensorUse* use : ReadSchedule::readsOf(task))
                if (use->kind == Kind::Stash)
                    stashed.insert(use->tensor);
    return stashed;
}

// One walk of a section in a die's task order, placing activations in SRAM (see the header).
class SectionScan {
public:
    SectionScan(StepSection& section, const std::set<int>& stashed, double usableBytes,
                double smallestPartBytes, bool doubleBuffered, SramUse& use)
        : m_section(section), m_reads(section), m_stashed(stashed), m_usable(usableBytes),
          m_smallestPart(smallestPartBytes), m_doubleBuffered(doubleBuffered), m_use(use) {}

    void run() {
        for (std::size_t i = 0; i < m_section.tasks.size(); ++i) {
            m_task = static_cast<int>(i);
            PlannedTask& task = m_section.tasks[i];
            if (auto* gemm = std::get_if<PlannedGemm>(&task.work))
                placeGemm(*gemm);
            else if (auto* work = std::get_if<PlannedElementwise>(&task.work))
                placeElementwise(*work);
            else if (auto* collective = std::get_if<PlannedCollective>(&task.work))
                placeCollective(*collective);
            releaseDead();
        }
    }

private:
    struct Resident {
        double bytes = 0.0;
        bool inHbm = false; // a copy is in HBM already (the stash): evicting it costs nothing
    };

    // HBM bytes to read `use` for the current task (0 when it is in SRAM). A tensor read for
    // the first time in the section comes from the layer before: resident if it fits.
    double readBytes(const TensorUse& use, std::vector<int>& pinned) {
        switch (use.kind) {
        case Kind::Fused:
            return 0.0;
        case Kind::Stash:
        case Kind::Weights:
        case Kind::Gradients:
        case Kind::State:
            return use.bytes;
        case Kind::Activation:
            break;
        }
        if (use.tensor < 0)
            return use.bytes;
        if (m_resident.count(use.tensor) != 0) {
            pinned.push_back(use.tensor);
            return 0.0;
        }
        if (m_seen.insert(use.tensor).second && fits(use.bytes)) {
            // The layer before wrote it, and to the stash too when backward reads it back.
            admit(use.tensor, use.bytes, m_stashed.count(use.tensor) != 0);
            pinned.push_back(use.tensor);
            return 0.0;
        }
        return use.bytes;
    }

    // Places a tensor the current task writes; returns its HBM write bytes. `needBytes` is the
    // task's working set, which it must leave room for.
    double writeBytes(const TensorUse& use, double needBytes) {
        switch (use.kind) {
        case Kind::Fused:
        case Kind::Stash:
            return 0.0;
        case Kind::Weights:
        case Kind::Gradients:
        case Kind::State:
            return use.bytes;
        case Kind::Activation:
            break;
        }
        if (use.tensor < 0)
            return use.bytes;
        if (!m_seen.insert(use.tensor).second) // accumulating into a tensor already placed
            return m_resident.count(use.tensor) != 0 ? 0.0 : use.bytes;
        const bool stashed = m_stashed.count(use.tensor) != 0;
        if (fits(use.bytes + needBytes)) {
            admit(use.tensor, use.bytes, stashed);
            return stashed ? use.bytes : 0.0; // the stash's copy
        }
        return use.bytes;
    }

    bool fits(double bytes) const { return m_residentBytes + bytes <= m_usable; }
    void admit(int tensor, double bytes, bool inHbm) {
        m_resident[tensor] = {bytes, inHbm};
        m_residentBytes += bytes;
    }
    void drop(int tensor) {
        const auto it = m_resident.find(tensor);
        m_residentBytes -= it->second.bytes;
        m_resident.erase(it);
    }

    // Makes room for `needBytes` of working set by evicting resident tensors the task does not
    // read, the one read furthest ahead first; returns the HBM bytes written to save them.
    double evictFor(double needBytes, const std::vector<int>& pinned) {
        double written = 0.0;
        while (!fits(needBytes)) {
            int victim = -1;
            int victimNext = -1;
            for (const auto& [tensor, resident] : m_resident) {
                if (std::find(pinned.begin(), pinned.end(), tensor) != pinned.end())
                    continue;
                const int next = m_reads.nextRead(tensor, m_task);
                if (next > victimNext || (next == victimNext && tensor < victim)) {
                    victim = tensor;
                    victimNext = next;
                }
            }
            if (victim < 0)
                break;
            if (!m_resident[victim].inHbm && victimNext != kNever)
                written += m_resident[victim].bytes;
            drop(victim);
        }
        return written;
    }

    // Frees every resident tensor no later task of the section reads.
    void releaseDead() {
        std::vector<int> dead;
        for (const auto& [tensor, resident] : m_resident)
            if (m_reads.nextRead(tensor, m_task) == kNever)
                dead.push_back(tensor);
        for (int tensor : dead)
            drop(tensor);
    }

    void placeGemm(PlannedGemm& gemm) {
        std::vector<int> pinned;
        const std::array<double, 2> fromHbm = {readBytes(gemm.inputs[0], pinned),
                                               readBytes(gemm.inputs[1], pinned)};
        const double alsoRead = readBytes(gemm.alsoReads, pinned);
        const int n = gemm.rounds;
        double needBytes = 0.0;
        double stationaryBytes = 0.0; // a stream's stationary inputs not already in SRAM
        double buffers = 0.0;
        if (n > 1) {
            buffers = 2.0 * (m_doubleBuffered ? 2.0 : 1.0) * gemm.streamedBlockBytes;
            for (std::size_t i = 0; i < 2; ++i)
                if (gemm.stationary[i])
                    stationaryBytes += fromHbm[i];
            needBytes = buffers + stationaryBytes;
        } else if (fromHbm[0] > 0.0 && fromHbm[1] > 0.0) {
            needBytes = std::min(fromHbm[0], fromHbm[1]);
        }
        const double spilled = evictFor(needBytes, pinned);
        const double room = m_usable - m_residentBytes; // after the evictions
        m_use.largestWorkingSetBytes = std::max(m_use.largestWorkingSetBytes, needBytes);
        double reread = 0.0; // per later round under TATP; in all without
        if (needBytes > room) {
            m_use.fits = false;
            if (n > 1) {
                reread = stationaryBytes;
                if (buffers > room)
                    reread += gemm.streamedBlockBytes;
            } else {
                const double smaller = std::min(fromHbm[0], fromHbm[1]);
                const double larger = std::max(fromHbm[0], fromHbm[1]);
                const double parts = std::ceil(smaller / std::max(room, m_smallestPart));
                reread = larger * (parts - 1.0);
            }
        }
        const double written = writeBytes(gemm.output, needBytes);
        const double reads = fromHbm[0] + fromHbm[1] + alsoRead + spilled;
        if (n > 1) {
            gemm.firstHbmBytes = reads + written / n;
            gemm.roundHbmBytes = reread + written / n;
        } else {
            gemm.firstHbmBytes = reads + reread + written;
            gemm.roundHbmBytes = 0.0;
        }
        gemm.doubleBuffered = m_doubleBuffered;
    }

    void placeElementwise(PlannedElementwise& work) {
        std::vector<int> pinned;
        double bytes = 0.0;
        for (const TensorUse& use : work.reads)
            bytes += readBytes(use, pinned);
        for (const TensorUse& use : work.writes)
            bytes += writeBytes(use, 0.0);
        work.hbmBytes = bytes;
    }

    // A collective moves what it consumes over links (no HBM bytes are charged to a task); its
    // result lands in SRAM when it fits, in HBM otherwise, where its reader reads it.
    void placeCollective(const PlannedCollective& collective) {
        const TensorUse& out = collective.produces;
        if (!out.isActivation() || !m_seen.insert(out.tensor).second)
            return;
        if (fits(out.bytes))
            admit(out.tensor, out.bytes, false);
    }

    StepSection& m_section;
    ReadSchedule m_reads;
    const std::set<int>& m_stashed;
    double m_usable;
    double m_smallestPart;
    bool m_doubleBuffered;
    SramUse& m_use;
    int m_task = 0;
    std::unordered_map<int, Resident> m_resident;
    double m_residentBytes = 0.0;
    std::set<int> m_seen; // activations written or read so far in the section
};

void zeroHbmBytes(StepSection& section, bool doubleBuffered) {
    for (PlannedTask& task : section.tasks) {
        if (auto* gemm = std::get_if<PlannedGemm>(&task.work)) {
            gemm->firstHbmBytes = gemm->roundHbmBytes = 0.0;
            gemm->doubleBuffered = doubleBuffered;
        } else if (auto* work = std::get_if<PlannedElementwise>(&task.work)) {
            work->hbmBytes = 0.0;
        }
    }
}

} // namespace

SramUse assignHbmBytes(StepPlan& plan, const DieSpec& die, int dtypeBytes, bool doubleBuffered) {
    SramUse use;
    use.usableBytes = die.sram.value * (1.0 - die.sramReserve);
    StepSection* sections[] = {&plan.window, &plan.finalWindow, &plan.head, &plan.optimizer};
    if (plan.sramResident) {
        for (StepSection* section : sections)
            zeroHbmBytes(*section, doubleBuffered);
        if (plan.largestStreamedBlockBytes > 0.0)
            use.largestWorkingSetBytes =
                2.0 * (doubleBuffered ? 2.0 : 1.0) * plan.largestStreamedBlockBytes;
        return use;
    }
    const std::set<int> stashed = stashedTensors(plan);
    const double tile = die.gemmTile;
    const double smallestPart = 3.0 * tile * tile * dtypeBytes;
    for (StepSection* section : sections)
        SectionScan(*section, stashed, use.usableBytes, smallestPart, doubleBuffered, use).run();
    return use;
}

} // namespace ws
