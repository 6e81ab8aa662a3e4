#pragma once

#include "strategy/tatp_schedule.h"
#include "topology/wafer_topology.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace ws {

struct Workload; // workload/workload.h

// A hybrid parallel strategy (docs/concepts.md section 2, docs/training-model.md `strategy`): one
// degree per kind of parallelism, training options, and how ranks are mapped to dies. A rank is (d,
// s, t, a) with d < dp, s < sp, t < tp and a < tatp, a being the position along the TATP path; see
// strategy/placement.h for where ranks land.
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
    bool fsdp = false;
    TatpSchedule tatpSchedule = TatpSchedule::Bidirectional;
    // How FSDP all-gathers weights: ring (default) or one multicast tree per sender (TCME's
    // merge; the FSDP_ALLGATHER environment variable overrides it).
    bool fsdpAllGatherMulticast = false;
    bool doubleBuffering = true;
    MappingKind mapping = Sequential;
    int microBatches = 1; // gradient accumulation steps per global batch
    bool activationCheckpointing = false;
    // Explicit mapping only (sp = tp = 1): dpGroups[j] are the dp dies of one DP group,
    // tatpGroups[d] the tatp dies of replica d's TATP group in path order. Either may be empty
    // when its degree is 1 (it then follows from the other).
    std::vector<std::vector<DieId>> dpGroups;
    std::vector<std::vector<DieId>> tatpGroups;
    nlohmann::json extensions = nlohmann::json::object(); // "x-..." keys, kept for round trips

    // dp * sp * tp * tatp. parseStrategy() guarantees it fits in an int (at most 65536).
    int dieCount() const { return dp * sp * tp * tatp; }

    friend bool operator==(const StrategySpec&, const StrategySpec&) = default;
};

// Names as written in files: "sequential", "snake", "explicit"; "bidirectional", "ring".
const char* toString(StrategySpec::MappingKind mapping);
const char* toString(TatpSchedule schedule);

// Parses the `strategy` object of a scenario. Strict: unknown keys (other than "x-...") and
// wrong types are ScenarioErrors at "strategy.<key>"; degrees and micro_batches are positive
// integers; dp*sp*tp*tatp must not exceed the largest wafer (65536 dies). `mapping` is
// "sequential" (default) or "snake"; `groups` implies "explicit" (writing "explicit" is also
// accepted, and then `groups` is required). Checks that need the wafer (live dies, group
// shapes) are made by placeStrategy(), those that need the model by
// checkStrategyAgainstWorkload().
StrategySpec parseStrategy(const nlohmann::json& strategy);

// The strategy as a user would write it: every key, `groups` instead of `mapping` for an
// explicit mapping. parseStrategy(toJson(s)) == s.
nlohmann::json toJson(const StrategySpec& strategy);

// Checks that the strategy cuts the workload into equal whole blocks; the first failure is a
// ScenarioError at the degree to blame ("strategy.tp: 5 does not divide the model's 96
// attention heads"). Degrees are assumed positive (parseStrategy). Defined in
// workload_divisibility.cpp.
//
// Transformer, in this order:
//   micro_batches | global_batch;   dp | global_batch / micro_batches (sequences per replica);
//   sp | seq_len;   tp | heads;   tp | ffn_hidden;
//   tatp | seq_len * global_batch / (dp * micro_batches) / sp (token rows of one SP chunk of a
//   micro-batch, which TATP splits);   tatp | hidden (the W columns TATP splits).
// Gemm O[m, n] = I[m, k] W[k, n]: sp | m and dp | m / sp (the rows DP and SP split), then
// tatp | m / (dp * sp) (each replica's rows, split again by TATP); tp | n and tatp | n / tp.
void checkStrategyAgainstWorkload(const StrategySpec& strategy, const Workload& workload);

} // namespace ws
