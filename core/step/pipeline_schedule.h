#pragma once

#include <vector>

namespace ws {

// One stage's forward or backward pass of one micro-batch in a pipeline schedule.
struct PipelinePass {
    int stage = 0;
    int microBatch = 0;
    bool forward = true;
    double startS = 0.0;
    double endS = 0.0;
};

// What each stage takes per micro-batch (seconds), and what crossing a stage boundary takes:
// activations forward, their gradients backward.
struct PipelineTimes {
    int stages = 1;
    int microBatches = 1;
    // By stage, then micro-batch: stage s's forward (backward) of micro-batch i is
    // forwardS[s][i] (backwardS[s][i]).
    std::vector<std::vector<double>> forwardS;
    std::vector<std::vector<double>> backwardS;
    double forwardSendS = 0.0;
    double backwardSendS = 0.0;
};

// The 1F1B schedule (PipeDream-Flush, Narayanan et al., SC'21; Megatron-LM's default): stage s
// runs min(stages - s - 1, micro-batches) forwards to warm up, then alternates one forward and
// one backward, then drains the backwards left. A forward of micro-batch i on stage s starts
// once stage s - 1's forward of i has ended and been sent (forwardSendS later), a backward once
// stage s + 1's backward of i has ended and been sent back (the last stage's, once its own
// forward of i has ended); a stage runs one pass at a time, in that order.
//
// With equal stages (F and B per micro-batch) and free communication the last backward ends at
// (m + p - 1)(F + B), of which each stage is busy m (F + B): the bubble is (p - 1) / (m + p - 1)
// of the schedule. Sends add (p - 1)(forwardSendS + backwardSendS) to one micro-batch's trip
// down and back, and at least that to m of them: in the steady state a stage also waits for
// its round trips (docs/training-model.md "Pipeline stages",
// tests/core/step/pipeline_schedule_test.cpp).
struct PipelineSchedule {
    std::vector<PipelinePass> passes; // in the order they were scheduled
    double makespanS = 0.0;           // the last pass's end
    // The mean over stages of the share of the makespan a stage spends idle (warm-up, drain and
    // waiting on its neighbours).
    double bubbleFraction = 0.0;
};

// Throws std::invalid_argument if the times do not match stages x micro-batches.
PipelineSchedule schedule1F1B(const PipelineTimes& times);

} // namespace ws
