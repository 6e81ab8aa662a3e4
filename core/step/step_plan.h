#pragma once

#include "scenario/scenario.h"
#include "scenario/strategy_spec.h"
#include "scenario/workload.h"
#include "step/collective_role.h"
#include "step/compute_model.h"
#include "step/memory_model.h"
#include "step/pipeline_schedule.h"
#include "step/sram_use.h"
#include "step/step_phase.h"
#include "strategy/placement.h"
#include "strategy/workload_divisibility.h"
#include "topology/network_model.h"
#include "workload/layer_gemm.h"

#include <algorithm>
#include <array>
#include <string>
#include <variant>
#include <vector>

namespace ws {

// How tensor parallelism splits a GEMM (Megatron-LM, docs/concepts.md section 2).
enum class TpSplit {
    Columns, // N: qkv, MLP up, router, LM head, a gemm workload's linear layer
    Rows,    // K: output projection, MLP down (an all-reduce follows)
    Heads    // the attention matmuls: whole heads per die
};

TpSplit tpSplitOf(GemmRole role);

// The two blocks the residual connections cut a layer into (level 1 of the search,
// search/segment_plan.h); the LM head and gradient synchronisation belong to neither.
enum class LayerSegment { Attention, Mlp, None };

LayerSegment layerSegmentOf(GemmRole role);

// An operand a planned task reads or writes on its die (docs/compute-model.md section 4,
// "Residency"): an activation of the step with an id unique in the plan, or the die's
// persistent state. `bytes` is the die's share (under TATP, its own block).
struct TensorUse {
    enum class Kind : unsigned char {
        Activation, // produced and read inside a section, or carried from one layer to the next
        Stash,      // a saved activation read back in backward from the forward's stash
        Fused,      // flash attention's scores and probabilities: they never leave the array
        Weights,    // the die's weights (under FSDP, the gathered layer)
        Gradients,  // the die's weight gradients
        State       // the optimizer state
    };
    Kind kind = Kind::Activation;
    int tensor = -1;    // Activation and Stash: the tensor's id; -1 for the others
    double bytes = 0.0; // on this die
    bool saved = false; // a forward write that backward reads again: it also goes to the stash

    bool isActivation() const { return kind == Kind::Activation && tensor >= 0; }
};

// One GEMM that every model-parallel group runs at once, with its die-local shape: M, K, N and
// the instance count after SP, TP and (for attention) the head split, before the TATP group
// streams it. Each die of a TATP group of n runs n block products of blockFlops.
struct PlannedGemm {
    GemmRole role = GemmRole::Linear;
    const char* pass = "fwd"; // "fwd", "recompute", "bwd dI", "bwd dW", "head fwd", ...
    TpSplit split = TpSplit::Columns;
    double mLocal = 0.0;
    double kLocal = 0.0;
    double nLocal = 0.0;
    double countLocal = 1.0;
    double dieFlops = 0.0;           // what one die computes: 2 m k n count / tatp
    double blockFlops = 0.0;         // one TATP block product: dieFlops / tatp
    double streamedBlockBytes = 0.0; // the block passed on each TATP round (0 without TATP)
    // The compute and memory model (docs/compute-model.md): the tile efficiency of one block
    // product (of the whole die-local GEMM without TATP), and the HBM bytes of the die's first
    // block product (its whole GEMM without TATP) and of each later TATP round. Zero HBM bytes
    // when the step fits in usable SRAM.
    double tileEfficiency = 1.0;
    double firstHbmBytes = 0.0;
    double roundHbmBytes = 0.0;
    // The pass's operands on one die (docs/compute-model.md section 4): its two inputs and its
    // output, each the die's share (under TATP, its own block), from which the residency pass
    // (step/sram_residency.h) sets the HBM bytes above. Forward reads A and B and writes C; the
    // input gradient reads dC and B and writes dA; the weight gradient reads A and dC and
    // writes dB.
    std::array<TensorUse, 2> inputs;
    TensorUse output;
    // Another activation read beside input 0, in every round (the qkv backward reads the key
    // and value gradients beside the query's); Fused when there is none.
    TensorUse alsoReads{TensorUse::Kind::Fused, -1, 0.0, false};
    // A streamed GEMM (TATP's, or TP's under tp_overlap) runs `rounds` block products on each
    // die of its `streamGroup`, passing a block round the group every round; 1: one product.
    int rounds = 1;
    GroupKind streamGroup = GroupKind::TATP;
    // The inputs a stream holds across its rounds (its stationary block): the ones it does not
    // pass on (TATP), or the weights (TP's chunks of tokens read their rows of the input once).
    std::array<bool, 2> stationary{false, false};
    // Whether the die receives the next block while it computes (strategy.double_buffering,
    // unless the residency pass fell back to single buffering: StepPlan::sram).
    bool doubleBuffered = true;

    // One block product's work (round 0 or a later round); the whole GEMM's without TATP.
    ComputeWork blockWork(bool firstRound) const {
        return {blockFlops, firstRound ? firstHbmBytes : roundHbmBytes, tileEfficiency};
    }

    // The task label: "fwd qkv", "bwd dW mlp_down", "head fwd lm_head". Built on demand: the
    // search plans thousands of steps and reads no label.
    std::string label() const { return std::string(pass) + " " + toString(role); }
};

// One collective run by every group of a kind at once.
struct PlannedCollective {
    CollectiveRole role = CollectiveRole::GradientSync;
    const char* label = ""; // "fsdp fwd weights", "fwd tp all-reduce", ...
    GroupKind group = GroupKind::DP;
    OpKind op = OpKind::AllReduce;
    Algorithm algorithm = Algorithm::Ring;
    double bytes = 0.0; // the whole buffer, as a traffic op's `bytes` (docs/network-model.md)
    // An asynchronous collective is issued after the die's previous task (and the task its
    // PlannedTask::waitsFor names) but the die's next task does not wait for it: only the tasks
    // that name it in waitsFor do, and the end of its section (FSDP's prefetched weight gathers,
    // the gradient reductions overlapped with backward: docs/training-model.md, "Schedule").
    bool async = false;
    // An activation the collective turns into another on each die (an all-gather's input into
    // the gathered tensor, a reduce-scatter's into its shard, an all-to-all's tokens into the
    // dispatched ones): the residency pass places `produces` like a task's output. Unset
    // (tensor -1) for collectives that work in place or on persistent state.
    TensorUse consumes{};
    TensorUse produces{};
};
// Memory-bound work every die runs on its own data (docs/compute-model.md): a norm, softmax,
// activation function, residual add or the optimizer update. No FLOPs are counted; its time is
// its HBM bytes (read plus written) over the HBM bandwidth, plus the task overhead.
struct PlannedElementwise {
    const char* pass = "fwd"; // "fwd", "recompute", "bwd", "optimizer"
    const char* name = "";    // "norm", "softmax", "activation", "residual", "update"
    double hbmBytes = 0.0;    // set by the residency pass from the reads and writes below
    std::vector<TensorUse> reads{};
    std::vector<TensorUse> writes{};

    std::string label() const { return std::string(pass) + " " + name; }
    ComputeWork work() const { return {0.0, hbmBytes, 1.0}; }
};

// All the dies the strategy uses meet: a layer's boundary inside the simulated window. It
// does not wait for asynchronous collectives still running.
struct PlannedBarrier {
    std::string label; // "fwd layer 1 done", "bwd layer 0 done"
};

// A task of the step, in the order each die runs them (groups run side by side).
struct PlannedTask {
    StepPhase phase = StepPhase::Forward;
    LayerSegment segment = LayerSegment::None;
    std::variant<PlannedGemm, PlannedCollective, PlannedElementwise, PlannedBarrier> work;
    // The layer of the simulated window whose work this is (0 .. windowLayers - 1), or -1 (the
    // LM head, the optimizer, a gemm workload). A prefetched gather belongs to the layer that
    // uses its weights, wherever it is issued.
    int layer = -1;
    // The index, in the same section, of an asynchronous collective this task waits for before
    // it starts (an FSDP gather before the layer that uses it), or -1.
    int waitsFor = -1;
};

// A run of tasks that ends with every die the strategy uses meeting at a barrier, after every
// asynchronous collective of the section has finished.
struct StepSection {
    std::string barrierLabel; // "window done", "head done", "forward done"
    std::vector<PlannedTask> tasks;
    // Whether only the last pipeline stage's dies run it (the LM head), not every stage's.
    bool lastStageOnly = false;
};

// The pure description of one training step (docs/concepts.md sections 2 and 5): what each die
// computes and communicates, phase by phase, and what it holds. Built once from a workload and
// a strategy; the simulator's graph builder (step/training_step.h) and the search's closed-form
// estimator (search/analytic_evaluator.h) both interpret it, so a rule of the step model exists
// once.
//
// A transformer step is simulated as a window of `windowLayers` consecutive layers (at least
// two, so the cross-layer overlap of the schedule below is simulated, not assumed; three when the
// model has them, so the middle layer is in the steady state: a gather prefetched before it, the
// next one running beside it), forward then backward, for one micro-batch (`window`), then the LM
// head's forward and backward (`head`); the optimizer update of every parameter a die holds
// (`optimizer`) is costed in closed form. stepSeconds scales the window to the model's layers
// and micro-batches. A `gemm` workload is `window` alone: one linear layer's forward pass,
// simulated whole.
//
// Per layer and micro-batch, per die (dies of one DP replica share a micro-batch of
// global_batch / (dp * micro_batches) sequences): GEMMs run in order (qkv, attention, output
// projection, MoE router, MLP up, MLP down), each split by SP (tokens), TP (tpSplitOf) and
// streamed over the TATP group; SP all-gathers K and V before attention; TP all-reduces after
// each row-parallel GEMM; MoE tokens go to their experts and back by all-to-all over the DP
// group. The backward pass mirrors it with two GEMMs (input and weight gradients) per forward
// GEMM; full activation checkpointing first recomputes the forward pass, which repeats the
// forward's communication, and selective recomputation only the attention score and value
// GEMMs (and standard attention's softmax), without communication. Around the GEMMs run the
// layer's memory-bound tasks (norms, softmax under standard attention, the activation function,
// residual adds: see docs/compute-model.md), repeated by recomputation and mirrored in backward.
//
// Sequence parallelism (StrategySpec::sequenceParallel, Korthikanti et al., MLSys 2023, figures
// 5 and 6) replaces each TP all-reduce by a reduce-scatter plus an all-gather over the TP group,
// each of the same `bytes` (the whole buffer: a ring moves the all-reduce's bytes in the two
// halves). Forward: an all-gather of the norm's output before the column-parallel GEMM that
// opens each residual segment (qkv; the router or mlp_up), a reduce-scatter after each
// row-parallel GEMM (output projection, mlp_down). Backward: an all-gather of the output
// gradient before each row-parallel GEMM, a reduce-scatter of the input gradient after each
// column-parallel one (where the all-reduce was). The norms and residual adds between them
// run on tokens / tp. Worked example (a dense layer, tp 2): forward norm (t/2 tokens),
// all-gather, qkv, attention, output projection, reduce-scatter, residual and norm (t/2),
// all-gather, mlp_up, activation, mlp_down, reduce-scatter, residual (t/2); backward gathers
// before mlp_down and the output projection, scatters after mlp_up and qkv. Not modelled:
// Megatron also re-gathers each column-parallel GEMM's split input for its weight gradient
// (overlapped with the input gradient's GEMM); the paper's count, four all-gathers and four
// reduce-scatters per layer, leaves it out too.
//
// The schedule (docs/training-model.md "Schedule"): FSDP all-gathers layer
// l + 1's weights over the DP group when layer l's forward starts; in backward the gathers run
// in reverse layer order, the first issued when backward starts, each next one when the layer
// before it starts. Gradients are reduced over every replica of the weights (the dp x sp ranks
// of a Replica group), asynchronously, overlapped with the backward of the next layer: under
// FSDP a reduce-scatter over DP per micro-batch (then an all-reduce of the shard over SP), without
// FSDP an all-reduce after the last micro-batch's backward of the layer, which is why that
// micro-batch has a window of its own (`finalWindow`).
//
// Pipeline stages (strategy.pp = p > 1, docs/training-model.md "Pipeline
// stages"): each stage holds layers / p layers and runs the plan above for them, every stage at
// once on its own dies (`layers` is a stage's); the LM head runs on the last stage only. The
// `pipeline` section sends one micro-batch's activations from every stage to the next at once,
// then their gradients back: each die sends its tokens' hidden states, split over its TP group
// (Megatron's scatter-gather; with sequence parallelism they are split already), to the die of
// the same rank in the neighbouring stage. stepSeconds composes the stages' simulated times and
// those sends into a 1F1B schedule (step/pipeline_schedule.h).
struct StepPlan {
    WorkloadKind kind = WorkloadKind::Transformer;
    StepSection window;      // one micro-batch's window (every micro-batch's under FSDP)
    StepSection finalWindow; // the last micro-batch's, when only it reduces gradients; or empty
    StepSection head;        // transformer only
    // Transformer only: the optimizer update, once per step. It has no communication and
    // costs the same on every die, so both interpreters cost it in closed form
    // (sectionSeconds).
    StepSection optimizer;
    // pp > 1 only: a micro-batch's activations sent to the next stage, then their gradients
    // back, each followed by a barrier.
    StepSection pipeline;
    int stages = 1; // strategy.pp

    // The forward GEMMs of one layer on one DP replica for one micro-batch, undivided
    // (layerGemms), over `replicaSequences` sequences: the unified representation's input.
    std::vector<LayerGemm> replicaGemms;
    double replicaSequences = 1.0;

    double layers = 1.0; // a stage's layers: the step formula's multiplicities (1 for a gemm)
    double microBatches = 1.0;
    int windowLayers = 1;                   // layers simulated in a window: min(layers, 3)
    double largestStreamedBlockBytes = 0.0; // the largest block a die receives (0 without TATP)
    MemoryBreakdown memory;                 // every die the strategy uses holds the same
    // Whether every tensor of the step lives in usable SRAM (memory.fitsInSram()); if not, each
    // task reads from SRAM what is resident there and from HBM the rest (docs/compute-model.md
    // section 4, step/sram_residency.h).
    bool sramResident = true;
    SramUse sram;                   // what the residency pass found: working sets, buffering
    double modelFlopsPerStep = 0.0; // 3 x forward FLOPs (6 N T-style), without recomputation

    // The window layer that stands for the layers - windowLayers + 1 middle layers of the model.
    int steadyLayer() const { return std::min(1, windowLayers - 1); }
    // How often the work of a window layer happens per run of its window.
    double layerRepetitions(int layer) const {
        return layer == steadyLayer() ? layers - windowLayers + 1.0 : 1.0;
    }
    // How many micro-batches run `window` (the rest run `finalWindow`).
    double windowRuns() const { return microBatches - (finalWindow.tasks.empty() ? 0.0 : 1.0); }
};

// What an interpreter measured of one window: when each of its barriers ended and when the
// window ended (after its asynchronous collectives), in seconds from the window's start.
struct WindowTiming {
    std::vector<double> barrierEndS; // in the order of the window's PlannedBarrier tasks
    double endS = 0.0;

    // The steady layer's forward plus backward (StepPlan::steadyLayer): the whole window when
    // it has no barriers (a gemm workload).
    double steadyLayerS(const StepPlan& plan) const;
    // The window's gradient synchronisation still running after its last layer's backward.
    double exposedSyncS() const { return barrierEndS.empty() ? 0.0 : endS - barrierEndS.back(); }
    // All the model's layers for this micro-batch: the window with the steady layer repeated.
    double allLayersS(const StepPlan& plan) const {
        return endS + (plan.layers - plan.windowLayers) * steadyLayerS(plan);
    }
};

// step = runs * (window's layers + head) + [final window's layers + head] + optimizer, where
// runs = StepPlan::windowRuns() and a window's layers are WindowTiming::allLayersS.
double stepSeconds(const StepPlan& plan, const WindowTiming& window,
                   const WindowTiming& finalWindow, double headS, double optimizerS);

// With pipeline stages (plan.stages > 1): the stages' passes per micro-batch, from the windows
// (a window's forward up to its last forward barrier, scaled to the stage's layers, and its
// backward the rest; the last micro-batch's from finalWindow when the plan has one; the last
// stage's backward adds the head) and the sends from `sends` (its two barriers), scheduled 1F1B.
// step = the schedule's makespan + optimizer.
PipelineTimes pipelineTimes(const StepPlan& plan, const WindowTiming& window,
                            const WindowTiming& finalWindow, double headS,
                            const WindowTiming& sends);

// The time of a section of memory-bound tasks only (the optimizer update) on one die: the sum of
// their costs. Throws std::logic_error if the section holds a GEMM or a collective.
double sectionSeconds(const StepSection& section, const ComputeModel& compute);

// The strategy must already be checked against the workload (checkStrategyAgainstWorkload).
// `streamLink`: the speed of the links a TATP stream crosses (the wafer's die-to-die links), for
// the choice of buffering when double buffers overflow SRAM (docs/compute-model.md section 4);
// unset, transfers are taken as free.
StepPlan buildStepPlan(const Workload& workload, const StrategySpec& strategy, const DieSpec& die,
                       LinkSpeed streamLink = {});

} // namespace ws
