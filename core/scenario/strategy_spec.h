#pragma once

#include "scenario/checkpointing.h"
#include "scenario/tatp_schedule.h"
#include "topology/wafer_topology.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ws {

// A hybrid parallel strategy (docs/concepts.md section 2, docs/training-model.md `strategy`): one
// degree per kind of parallelism, training options, and how ranks are mapped to dies. A rank is (d,
// s, t, a) with d < dp, s < sp, t < tp and a < tatp, a being the position along the TATP path; see
// strategy/placement.h for where ranks land. Read once, with the scenario (io/strategy_reader.h).
//
// Example: {"dp": 2, "tatp": 8, "fsdp": true, "mapping": "snake"} uses 16 dies: two replicas,
// each one TATP group of 8 dies on a snake path.
struct StrategySpec {
    // Unscoped on purpose, so that both StrategySpec::Snake and StrategySpec::MappingKind::Snake
    // name a value.
    enum MappingKind {
        Sequential, // the paper's SMap: ranks in row-major order over live dies
        Snake,      // each TATP group on a boustrophedon path through a rectangle of live dies
        Explicit    // dpGroups / tatpGroups as the user (or the GUI's drag and drop) drew them
    };

    int dp = 1;   // data-parallel degree: splits the batch B
    int sp = 1;   // sequence-parallel degree: splits the tokens M
    int tp = 1;   // tensor-parallel degree (Megatron): splits N (column) or K (row)
    int tatp = 1; // TATP degree: dies on one stream path; splits I's M and W's N
    // Pipeline stages (docs/training-model.md "Pipeline stages"): each holds layers / pp
    // consecutive layers on its own dp * sp * tp * tatp dies, placed on wafers (or bands of one
    // wafer: strategy/pipeline_stages.h) and run under a 1F1B schedule (step/pipeline_schedule.h).
    int pp = 1;
    bool fsdp = false;
    TatpSchedule tatpSchedule = TatpSchedule::Bidirectional;
    // How FSDP all-gathers weights: ring (default) or one multicast tree per sender (TCME's
    // merge; the FSDP_ALLGATHER environment variable overrides it).
    bool fsdpAllGatherMulticast = false;
    // How FSDP reduce-scatters gradients: ring (default) or one reduction tree per rank (TCME's
    // reduction trees, docs/tcme.md; "fsdp_reducescatter": "ring" | "tree").
    bool fsdpReduceScatterTree = false;
    // Whether the step's ring collectives (TP, SP, the gradient reductions, FSDP's rings) run
    // as two rings in opposite directions, each on half of the buffer ("ring_algorithm":
    // "ring" | "bidirectional_ring"; docs/network-model.md section 4.7).
    bool bidirectionalRings = false;
    bool doubleBuffering = true;
    MappingKind mapping = Sequential;
    int microBatches = 1; // gradient accumulation steps per global batch
    Checkpointing activationCheckpointing = Checkpointing::None;
    // Megatron's sequence parallelism (Korthikanti et al., MLSys 2023) inside each TP group: the
    // norms, dropouts and residual adds run on tokens / tp, and each TP all-reduce becomes a
    // reduce-scatter plus an all-gather (step/step_plan.h). Needs tp > 1
    // (sequenceParallelProblem). Unlike `sp`, it splits no GEMM's tokens.
    bool sequenceParallel = false;
    // Megatron/TransformerEngine's overlap of TP communication with compute (docs/training-model.md
    // `tp_overlap`): each all-gather before a column-parallel GEMM and each reduce-scatter after a
    // row-parallel one (forward; the reduce-scatters of backward too) is cut into tp chunks that
    // stream round the TP group beside the GEMM, as TATP's rounds do. Needs sequence_parallel
    // and tatp = 1 (tpOverlapProblem).
    bool tpOverlap = false;
    // How a TATP group splits its sub-tensors (docs/compute-model.md "Degraded
    // dies"): equal shares, or each die's share in proportion to its speed
    // (WaferSpec::dieSpeed), the design note's dynamic balancer.
    enum class Balance { Even, Speed };
    Balance balance = Balance::Even;
    // Explicit mapping only (sp = tp = 1): dpGroups[j] are the dp dies of one DP group,
    // tatpGroups[d] the tatp dies of replica d's TATP group in path order. Either may be empty
    // when its degree is 1 (it then follows from the other).
    std::vector<std::vector<DieId>> dpGroups;
    std::vector<std::vector<DieId>> tatpGroups;
    nlohmann::json extensions = nlohmann::json::object(); // "x-..." keys, kept for round trips

    // pp * dp * sp * tp * tatp. parseStrategy() (io/strategy_reader.h) guarantees it fits in an
    // int (at most 65536).
    int dieCount() const { return pp * stageDieCount(); }
    // The dies of one pipeline stage: dp * sp * tp * tatp.
    int stageDieCount() const { return dp * sp * tp * tatp; }

    friend bool operator==(const StrategySpec&, const StrategySpec&) = default;
};

// Names as written in files: "sequential", "snake", "explicit"; "bidirectional", "ring";
// "none", "selective", "full" (the file also reads `false` and `true` for none and full, and
// writes them so: io/strategy_reader.h).
const char* toString(StrategySpec::MappingKind mapping);
const char* toString(TatpSchedule schedule);
const char* toString(Checkpointing checkpointing);
const char* toString(StrategySpec::Balance balance); // "even", "speed"
std::optional<Checkpointing> checkpointingFromString(const std::string& text);

// Why the strategy's sequence_parallel cannot be, or "" when it can: it needs tp > 1, since it
// splits the activations a TP group would otherwise replicate. The file reader and
// checkStrategyAgainstWorkload (strategy/workload_divisibility.h) both refuse with this problem
// at `strategy.sequence_parallel`, so a strategy built in code (an edit, the search) obeys the
// file's rule.
std::string sequenceParallelProblem(const StrategySpec& strategy);

// Why the strategy's tp_overlap cannot be, or "": it streams the all-gathers and
// reduce-scatters of Megatron's sequence parallelism, so it needs sequence_parallel, and a TATP
// group streams its own blocks, so it needs tatp = 1. The reader and checkStrategyAgainstWorkload
// refuse with it at `strategy.tp_overlap`.
std::string tpOverlapProblem(const StrategySpec& strategy);

} // namespace ws
