#pragma once

#include "search/analytic_evaluator.h"
#include "search/search_space.h"

#include <string>
#include <vector>

namespace ws {

class ThreadPool;

// How one segment's tensors are split over the model-parallel dies of a replica.
struct SegmentStyle {
    int sp = 1;
    int tp = 1;
    int tatp = 1;
    friend bool operator==(const SegmentStyle&, const SegmentStyle&) = default;
};

// Level 1 of the search for one data-parallel degree: the style of every segment of the
// 2 x layers chain (attention, MLP, attention, ...), chosen by dynamic programming.
struct SegmentPlan {
    int dp = 1;
    Genome base;      // dp, FSDP, micro-batches, checkpointing, snake placement
    double planS = 0; // modelled time of the chain, re-sharding included (head not counted)
    std::vector<SegmentStyle> styles; // per segment, in layer order
    double reshardS = 0;              // of planS: re-sharding the residual stream between segments
    // Uniform strategies nearest to the plan (the styles it uses, the most used first).
    std::vector<Genome> seeds;
    std::vector<std::string> lines; // the plan in words, for the report
};

// Segment costs come from the AnalyticEvaluator run with each style as a uniform strategy
// (its LayerSegments); styles that are infeasible or out of memory are left out. Moving from
// style A to B re-shards the residual stream (T x hidden per replica and micro-batch, T tokens):
// nothing when B splits tokens at least as finely as A and A's split divides B's (a local
// slice); an all-gather of the missing share when A's split is a multiple of B's; an
// all-to-all of B's whole share otherwise; each once in the forward and once in the backward
// pass, over one link's bandwidth. FSDP gathers and gradient synchronisation are shared
// between the two segments of a layer in proportion to their parameters.
// Returns one plan per data-parallel degree that has a feasible style, best first.
std::vector<SegmentPlan> planSegments(const AnalyticEvaluator& evaluator, const SearchSpace& space,
                                      ThreadPool& pool, int& evaluations);

// Seconds to re-shard the residual stream from style `from` to style `to` (forward + backward).
double reshardSeconds(const SegmentStyle& from, const SegmentStyle& to, double residualBytes,
                      double linkBandwidth, double linkLatencyS);

} // namespace ws
