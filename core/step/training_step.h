#pragma once

#include "scenario/scenario.h"
#include "step/memory_model.h"
#include "step/step_graph.h"
#include "strategy/placement.h"
#include "strategy/strategy_spec.h"
#include "strategy/tensor_partition.h"
#include "workload/workload.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// One training step of a scenario's workload under its strategy, as a task graph for the fluid
// simulator (docs/concepts.md sections 2 and 5).
//
// What is simulated: the forward and backward pass of ONE transformer layer for ONE micro-batch
// (every layer of a preset is identical), then the LM head's forward and backward, then the
// layer's gradient synchronisation. The step time is scaled from the phases' simulated times:
//   step = micro_batches * (layers * t_layer + t_head) + layers * t_sync
// (gradient synchronisation is not overlapped with the backward pass: a conservative choice).
// A `gemm` workload is simulated whole: the forward pass of one linear layer.
//
// Per layer and micro-batch, per die (dies of one DP replica share a micro-batch of
// global_batch / (dp * micro_batches) sequences): FSDP all-gathers the layer's weights over the
// DP group; GEMMs run in order (qkv, attention, output projection, MoE router, MLP up, MLP
// down), each split by SP (tokens), TP (Megatron: column-parallel qkv / up, row-parallel
// projection / down, heads for attention) and streamed over the TATP group (addTatpStream);
// SP all-gathers K and V before attention; TP all-reduces after each row-parallel GEMM;
// MoE tokens go to their experts and back by all-to-all over the DP group. The backward pass
// mirrors it with two GEMMs (input and weight gradients) per forward GEMM, after a recomputed
// forward pass when activation checkpointing is on. DP then all-reduces (FSDP: reduce-scatters)
// the layer's gradients.
struct TrainingStep {
    Workload workload;
    StrategySpec strategy;
    Placement placement;
    StepGraph graph;
    TaskId layerDone = -1;  // forward + backward of one layer (gemm: the whole forward)
    TaskId headDone = -1;   // + the LM head (transformer only)
    TaskId syncDone = -1;   // + gradient synchronisation (transformer only)
    MemoryBreakdown memory; // every die the strategy uses holds the same amount
    std::vector<GemmPartition> partitions; // the unified representation, per GEMM
    double modelFlopsPerStep = 0.0;        // 3 x forward FLOPs (6 N T-style), without recomputation
    std::vector<std::string> notes;        // what was scaled or assumed, for the report
};

// Phase times read off a simulation of the step's graph, and the scaled step time.
struct StepTiming {
    double layerS = 0.0;
    double headS = 0.0;
    double syncS = 0.0;
    double stepS = 0.0;
};

// Whether the step's task infos carry labels (StepGraph::setTaskLabels). Timelines and reports
// need them; a caller that only simulates the problem and reads the flows can skip them.
enum class TaskLabels { Kept, Skipped };

// Throws ScenarioError ("workload.*", "strategy.*") for bad or infeasible input. FSDP
// all-gathers use strategy.fsdp_allgather (the FSDP_ALLGATHER environment variable sets it:
// io/environment_overrides.h). Callers outside core/step go through the evaluation pipeline
// (evaluation/scenario_run.h).
TrainingStep buildTrainingStep(const Scenario& scenario, const WaferTopology& topology,
                               const std::filesystem::path& scenarioDirectory,
                               TaskLabels labels = TaskLabels::Kept);

StepTiming stepTiming(const TrainingStep& step, const SimResult& result);

} // namespace ws
