#pragma once

#include "sweep/sweep_runner.h"
#include "sweep/sweep_spec.h"

#include <cstddef>
#include <vector>

namespace ws {

// A sweep shared among the processes of an MPI job (docs/scale.md): started
// under `mpirun -n R` (or Slurm's `srun`), the R ranks simulate the points and rank 0 writes
// every row, in point order, so the output is the one a single process writes.
//
// Balancing points of unequal cost: rank 0 deals the points out in chunks on request (guided
// self-scheduling: a chunk is half the requester's share of what is left, so chunks shrink
// towards the end and no rank is left with a long tail), to its own threads and to the other
// ranks; each rank simulates its chunk on its own threads. A slow point delays only the rank
// that has it.
//
// One per process: the constructor initialises MPI (MPI_THREAD_FUNNELED: only the thread that
// made this object calls MPI; the worker threads only simulate) and the destructor finalises it.
class MpiSweep {
public:
    MpiSweep();
    ~MpiSweep();
    MpiSweep(const MpiSweep&) = delete;
    MpiSweep& operator=(const MpiSweep&) = delete;

    int rank() const { return m_rank; }
    int ranks() const { return m_ranks; }

    // True on every rank when `ok` is true on every rank (a collective: every rank calls it).
    bool allRanks(bool ok) const;
    // Rank 0's `value`, on every rank (a collective).
    bool rootsValue(bool value) const;

    // Every rank calls this with the same spec. On rank 0, `options.skip` picks the points (the
    // others' is not called) and `onRow` and `progress` see every row in point order; on the
    // others they are not called. Each rank simulates on `options.threads` threads. Returns how
    // many points ran, on every rank. If rank 0's onRow throws, the exception propagates there:
    // the caller must then abort() the job, since the other ranks wait for work.
    std::size_t run(const SweepSpec& spec, const SweepRunOptions& options);
    // On rank 0 after run: how many points each rank simulated (how the work was shared).
    const std::vector<std::size_t>& pointsPerRank() const { return m_pointsPerRank; }

    // Ends every rank of the job with `status` (MPI_Abort).
    [[noreturn]] void abort(int status) const;

private:
    int m_rank = 0;
    int m_ranks = 1;
    std::vector<std::size_t> m_pointsPerRank;
};

} // namespace ws
