#pragma once

#include "edit/edit_refused.h"
#include "scenario/scenario.h"
#include "scenario/strategy_spec.h"
#include "topology/wafer_topology.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace ws {

// Every edit a user can make, named by its intention (in the manner of
// strategy/die_role_swap.h): each takes a scenario and returns the edited one, or throws
// EditRefused with a typed reason and a sentence; none changes its input. The app's
// ScenarioDocument offers one method per function here, each pushing one undo command, so the
// views only collect gestures.
//
// "Would it simulate?" is the core's own check, without simulating: the strategy parses, cuts
// the workload into whole blocks and can be placed on the wafer's live dies.

enum class StrategyDegree { Dp, Sp, Tp, Tatp, Pp, MicroBatches };
enum class StrategyFlag { Fsdp, DoubleBuffering, SequenceParallel };

// Sets one degree. Changing dp, sp, tp, tatp or pp (pipeline stages) drops dragged (explicit)
// groups, which no longer fit, and falls back to the sequential mapping; micro-batches keep them.
// Setting tp to 1 turns sequence_parallel off, which needs tp > 1.
Scenario setStrategyDegree(const Scenario& scenario, StrategyDegree degree, int value);
// Turning sequence_parallel on with tp = 1 is refused (Infeasible) with the file's own message.
Scenario setStrategyFlag(const Scenario& scenario, StrategyFlag flag, bool on);
// strategy.activation_checkpointing: none, selective or full recomputation.
Scenario setActivationCheckpointing(const Scenario& scenario, Checkpointing checkpointing);
// Sequential or snake (an explicit mapping comes from dragging dies: moveDies).
Scenario setStrategyMapping(const Scenario& scenario, StrategySpec::MappingKind mapping);
// A transformer preset by name (workload/transformer_presets.h). A scenario of explicit traffic
// (or a gemm) becomes a training step of the model on one die, its traffic and pins dropped;
// sequence length and batch keep their values when the workload already had them.
Scenario setModelPreset(const Scenario& scenario, const std::string& preset);
// Tokens per sequence or sequences per training step of a transformer workload
// (docs/training-model.md `seq_len`, `global_batch`). Refused without one, outside the file's
// range (io/scenario_limits.h), or when the strategy no longer cuts the batch into whole blocks.
enum class WorkloadSize { SeqLen, GlobalBatch };
Scenario setWorkloadSize(const Scenario& scenario, WorkloadSize size, long long value);
// One key of `wafer.die` (docs/file-format.md), set to `value` as the file would write it: a
// number, or a quantity's text ("1200 TFLOP/s", "500 ns"). Refused with the file reader's own
// message (naming the key) for an unknown key or a value the file would reject.
Scenario setDieKey(const Scenario& scenario, const std::string& key, const nlohmann::json& value);
// `wafer.link_bandwidth` or `wafer.link_latency` (key without "wafer."), set to a quantity's
// text as the file would write it ("4 TB/s", "200 ns"); refused with the file reader's message
// ("wafer.link_bandwidth: '-3 TB/s' is negative") for a value the file would reject, or for
// another key.
Scenario setLinkKey(const Scenario& scenario, const std::string& key, const nlohmann::json& value);
// One key of `wafer.energy` (d2d_pj_per_bit, hbm_pj_per_bit, flops_per_joule: numbers, as the
// file writes them), the others kept; refused with the file reader's message for a value the
// file would reject ("wafer.energy.d2d_pj_per_bit: ... negative") or an unknown key.
Scenario setEnergyKey(const Scenario& scenario, const std::string& key, double value);
// `wafer.faults.slow_dies` (docs/compute-model.md section 8): die `die` reaches `speed` of its
// peak FLOP/s, its HBM and links at full speed. A speed of 1 removes the entry (the die is as
// fast as the others). Refused (OffWafer) for a die the wafer does not have, (DieUnavailable)
// for a dead die (the file refuses a die both dead and slow), and (Infeasible) for a speed
// outside (0, 1]. Example: setDieSpeed(s, 5, 0.5) writes {"5": 0.5}; setDieSpeed(s, 5, 1)
// removes it again.
Scenario setDieSpeed(const Scenario& scenario, DieId die, double speed);
// `wafer.faults.dies` (docs/compute-model.md section 8): die `die` dead or alive again. A die
// made dead leaves `slow_dies` (the file refuses a die both dead and slow); the list stays in
// ascending order. Refused (OffWafer) for a die the grid has not, (NoChange) when the die is
// already as asked. Example: setDieDead(s, 5, true) adds 5 to wafer.faults.dies.
Scenario setDieDead(const Scenario& scenario, DieId die, bool dead);
// `wafer.faults.links`: the link from -> to dead or alive again, one direction. Reviving one
// direction of a link written dead both ways ("a-b") keeps the other direction dead ("b->a").
// Refused (OffWafer) when no link joins the two dies (on a GPU cluster none does: its faults are
// its GPUs'), (NoChange) when the link is already as asked.
Scenario setLinkDead(const Scenario& scenario, const WaferTopology& topology, DieId from, DieId to,
                     bool dead);
// `strategy.balance`: a TATP group's sub-tensors in equal shares, or in proportion to each
// die's speed (WaferSpec::dieSpeed). Refused (NoStrategy) without a strategy.
Scenario setStrategyBalance(const Scenario& scenario, StrategySpec::Balance balance);
// Refused when an op of the explicit traffic or a strategy would not fit the new wafer.
Scenario resizeWafer(const Scenario& scenario, int rows, int cols);
// A hardware preset by name (scenario/wafer_presets.h, the file's `wafer.preset`) applied to the
// wafer as it is: rows and cols, dead dies and links and the wafer's "x-..." keys stay; the
// preset replaces the topology, the links' bandwidth and latency, every die key and the energy
// (with their "x-..." keys), and the wafer names the preset. A file saved afterwards writes
// the preset and the rows and cols that differ from it. Refused for an unknown name (naming
// wafer.preset and the presets), or when the faults or the strategy no longer fit.
Scenario setWaferPreset(const Scenario& scenario, const std::string& preset);
// The network model (the file's `network`, docs/network-model.md) and the store-and-forward
// chunk in bytes, written in KiB. Refused when the chunk is outside the file's range (64 bytes
// to 1 PB), naming network.chunk.
Scenario setNetworkModel(const Scenario& scenario, NetworkModel model, double chunkBytes);

// A selection of dies dragged so that die `anchor` lands on die `target`: each selected die
// trades places with the die at the same offset (swapDieRoles), in an order that makes the
// swaps a translation even when the selection overlaps where it lands (die i takes i+1's
// place, i+1 takes i+2's, ...).
struct DieMove {
    int rows = 0; // the offset
    int cols = 0;
    std::vector<std::pair<DieId, DieId>> swaps; // in the order they are made
};
// The swaps of a move, without applying them. Refused (NoChange) for a drop on the anchor
// itself, (OffWafer) when a die would leave the wafer.
DieMove planDieMove(const WaferTopology& topology, const std::vector<DieId>& selection,
                    DieId anchor, DieId target);
// planDieMove, then every swap. Refused (DieUnavailable) with swapDieRoles's sentence.
Scenario moveDies(const Scenario& scenario, const WaferTopology& topology,
                  const std::vector<DieId>& selection, DieId anchor, DieId target);
// Swaps in the given order (a die dropped on a group slot of the app's group panel).
Scenario swapDies(const Scenario& scenario, const WaferTopology& topology,
                  const std::vector<std::pair<DieId, DieId>>& swaps);

// A strategy the search scored (`strategy`, one of its candidates' or the best's) applied to
// `scenario`. `searched` is the scenario the search ran on and `best` its best scenario: when
// `strategy` is the best's and nothing but the strategy and the routes changed since, the best
// scenario comes whole, with the routes TCME tuned for it; otherwise the strategy replaces the
// scenario's (search/strategy_scoring.h: withStrategy). Refused (Mismatch) when the wafer or the
// workload differ from the searched one's.
Scenario applySearchedStrategy(const Scenario& scenario, const Scenario& searched,
                               const Scenario& best, const StrategySpec& strategy);
// TCME's tuning (`tuned`: pinned routes, op algorithms, strategy.fsdp_allgather) applied to
// `scenario`. Refused (Mismatch) when anything else differs: the tuning was made for another
// scenario.
Scenario applyTunedRoutes(const Scenario& scenario, const Scenario& tuned);

} // namespace ws
