#pragma once

#include "scenario/scenario.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ws {

// The two sweep axes that are not scenario keys (docs/cli.md section 10): the
// fraction of live dies, and of live directed links, that a point kills at random.
inline constexpr std::string_view kDieRateAxis = "faults.die_rate";
inline constexpr std::string_view kLinkRateAxis = "faults.link_rate";
bool isFaultAxis(std::string_view key);

// A scenario with random faults added, and what they did to it.
struct FaultedScenario {
    Scenario scenario;
    int diesKilled = 0;  // new entries of scenario.wafer.deadDies
    int linksKilled = 0; // new directed entries of scenario.wafer.deadLinks
    // Live dies the dead links cut off from the rest (outside the largest strongly connected
    // part), added to wafer.deadDies too: no collective could reach them.
    int diesCutOff = 0;
    // What re-placing the strategy changed, for the user ("dp 6 -> 4: 43 of 48 dies live"), and
    // how many pinned routes crossed a fault and were dropped; "" when nothing did.
    std::string note;
};

// The seed of one point's fault draw: splitmix64's finaliser chained over (seed, sample, point),
// so that every point and sample draws its own faults, the same ones on any thread and in any
// process (a sweep shared among MPI ranks or resumed draws what a single run would).
std::uint64_t faultSeed(std::uint64_t seed, int sample, std::size_t point);

// Kills exact fractions of `base`'s live parts, chosen uniformly at random with a
// std::mt19937_64 seeded by faultSeed(seed, sample, point):
//   1. llround(dieRate * L) of the L live dies;
//   2. then llround(linkRate * K) of the K directed links still alive after step 1 (both ends
//      live, the link not already dead): a link rate is a fraction of the links that can still
//      fail. A dead die's own links need no entry: the topology drops them.
// The new faults are appended, sorted, to wafer.deadDies and wafer.deadLinks (one LinkRef per
// direction, bothDirections false); the base's faults are kept, and a killed die leaves
// wafer.slowDies. The draw uses the engine's raw 64-bit outputs (no std::shuffle or
// std::uniform_int_distribution, whose algorithms differ between standard libraries), so the
// faults are the same with every compiler.
//
// When dies were killed and the scenario has a strategy, it is placed again on the live dies:
//   - dp, when dp*sp*tp*tatp no longer fits the live dies, becomes the largest smaller dp that
//     fits and that the workload accepts (checkStrategyAgainstWorkload: for a transformer, dp
//     must divide the global batch's sequences per micro-batch); when none does, the strategy
//     is left as it was, and placing it fails with the placement's own error;
//   - an explicit mapping whose groups hold a dead die (or whose dp changed) becomes a snake
//     mapping, its groups cleared;
//   - when that changed the strategy and its step no longer fits a die's SRAM and HBM (a smaller
//     dp puts more of FSDP's shards and more sequences on each die), it is planned again with
//     more micro-batches, then with full recomputation too, the first that fits; when none
//     does it is left as it was, and the point fails out of memory (the caller's check).
// Then the live dies outside the largest strongly connected part of the live links (cut off by
// dead links) are counted dead too, and the strategy re-placed as below.
// When faults were drawn and a snake mapping no longer places (a TATP group needs a rectangle
// of live dies joined by live links), the strategy falls back to the sequential mapping, whose
// groups take the live dies in order and whose routes go around the faults.
// A pinned route (routing.paths) that crosses a dead die or link is dropped, so its flow
// follows the routing mode around the faults (docs/network-model.md section 5); explicit traffic is
// left as written (an op whose own die died is the point's error).
//
// Example: a 6x8 wafer, dp 6 x tatp 8, die rate 0.1 kills llround(4.8) = 5 dies; 43 live dies
// hold dp 5, but 5 does not divide a global batch of 12, so dp becomes 4; the snake mapping
// then finds no room for four 2x4 rectangles among the live dies and falls back, and the note
// reads "dp 6 -> 4: 43 of 48 dies live; mapping snake -> sequential: ...".
//
// Throws std::invalid_argument when a rate is not in [0, 1).
FaultedScenario sampleFaults(const Scenario& base, double dieRate, double linkRate,
                             std::uint64_t seed, int sample, std::size_t point);

} // namespace ws
