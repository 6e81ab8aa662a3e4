#include "sim/max_min_solver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace ws {
namespace {

std::size_t idx(int i) {
    return static_cast<std::size_t>(i);
}

// Textbook progressive filling over every active flow at once (docs/network-model.md): raise the
// common level to the lowest fair share of any link, freeze that link's flows, repeat. The
// incremental solver must give the same rates.
std::vector<double> maxMinFromScratch(const std::vector<double>& bandwidth,
                                      const std::vector<std::vector<LinkId>>& links,
                                      const std::vector<bool>& active) {
    std::vector<double> rate(links.size(), 0.0);
    std::vector<double> left = bandwidth;
    std::vector<bool> frozen(links.size(), false);
    for (std::size_t f = 0; f < links.size(); ++f) {
        frozen[f] = !active[f];
    }
    while (true) {
        double lowest = std::numeric_limits<double>::infinity();
        LinkId bottleneck = -1;
        for (std::size_t link = 0; link < bandwidth.size(); ++link) {
            int count = 0;
            for (std::size_t f = 0; f < links.size(); ++f) {
                const auto& path = links[f];
                if (!frozen[f] &&
                    std::find(path.begin(), path.end(), static_cast<LinkId>(link)) != path.end()) {
                    ++count;
                }
            }
            if (count > 0 && left[link] / count < lowest) {
                lowest = left[link] / count;
                bottleneck = static_cast<LinkId>(link);
            }
        }
        if (bottleneck < 0) {
            return rate;
        }
        for (std::size_t f = 0; f < links.size(); ++f) {
            const auto& path = links[f];
            if (frozen[f] || std::find(path.begin(), path.end(), bottleneck) == path.end()) {
                continue;
            }
            frozen[f] = true;
            rate[f] = lowest;
            for (const LinkId link : path) {
                left[idx(link)] -= lowest;
            }
        }
    }
}

struct RandomFlows {
    std::vector<double> bandwidth;
    std::vector<std::vector<LinkId>> links;
    std::vector<int> offsets{0};
    std::vector<LinkId> flat;
};

RandomFlows randomFlows(std::mt19937& rng, int linkCount, int flowCount) {
    RandomFlows flows;
    std::uniform_int_distribution<int> bandwidthPick(1, 4);
    for (int link = 0; link < linkCount; ++link) {
        flows.bandwidth.push_back(1e9 * bandwidthPick(rng)); // a few equal bandwidths: ties
    }
    std::uniform_int_distribution<int> lengthPick(1, 4);
    std::uniform_int_distribution<LinkId> linkPick(0, linkCount - 1);
    for (int f = 0; f < flowCount; ++f) {
        std::vector<LinkId> path;
        const int length = std::min(lengthPick(rng), linkCount);
        while (static_cast<int>(path.size()) < length) {
            const LinkId link = linkPick(rng);
            if (std::find(path.begin(), path.end(), link) == path.end()) {
                path.push_back(link);
            }
        }
        flows.flat.insert(flows.flat.end(), path.begin(), path.end());
        flows.offsets.push_back(static_cast<int>(flows.flat.size()));
        flows.links.push_back(std::move(path));
    }
    return flows;
}

// Random batches of flows starting and ending, as the event loop issues them; after every solve
// each active flow's rate equals the one progressive filling gives from scratch, whether or not
// the solve re-solved it.
TEST(MaxMinSolver, EveryRateAfterAnIncrementalSolveIsTheRateFromScratch) {
    std::mt19937 rng(20261205);
    for (int trial = 0; trial < 200; ++trial) {
        const int linkCount = 3 + trial % 30;
        const int flowCount = 4 + trial % 47;
        RandomFlows flows = randomFlows(rng, linkCount, flowCount);
        MaxMinSolver solver(flows.bandwidth, flows.offsets, flows.flat);
        std::vector<bool> active(idx(flowCount), false);
        std::uniform_int_distribution<int> flowPick(0, flowCount - 1);
        std::uniform_int_distribution<int> changesPick(1, 3);
        for (int batch = 0; batch < 80; ++batch) {
            const int changes = changesPick(rng);
            for (int change = 0; change < changes; ++change) {
                const int flow = flowPick(rng);
                if (active[idx(flow)]) {
                    solver.deactivate(flow);
                } else {
                    solver.activate(flow);
                }
                active[idx(flow)] = !active[idx(flow)];
            }
            solver.solveTouched();
            const std::vector<double> expected =
                maxMinFromScratch(flows.bandwidth, flows.links, active);
            for (int flow = 0; flow < flowCount; ++flow) {
                if (active[idx(flow)]) {
                    ASSERT_NEAR(solver.rate(flow), expected[idx(flow)], 1e-9 * expected[idx(flow)])
                        << "trial " << trial << ", batch " << batch << ", flow " << flow;
                }
            }
        }
    }
}

// The header's worked example: a flow ending above the others' rates re-solves nothing; one
// ending at the bottom re-solves the flows at or above its rate.
TEST(MaxMinSolver, AFlowEndingReSolvesOnlyTheFlowsAtOrAboveItsRate) {
    // L0, L1 of 1 GB/s; A = 0 on both, B = 1 on L0, C = 2 and D = 3 on L1.
    const std::vector<double> bandwidth{1e9, 1e9};
    const std::vector<int> offsets{0, 2, 3, 4, 5};
    const std::vector<LinkId> links{0, 1, 0, 1, 1};
    MaxMinSolver solver(bandwidth, offsets, links);
    for (int flow = 0; flow < 4; ++flow) {
        solver.activate(flow);
    }
    EXPECT_EQ(solver.solveTouched().size(), 4U);
    EXPECT_NEAR(solver.rate(0), 1e9 / 3, 1e-3);
    EXPECT_NEAR(solver.rate(1), 2e9 / 3, 1e-3);

    solver.deactivate(1); // B, at 2/3: everyone left is below
    EXPECT_TRUE(solver.solveTouched().empty());
    EXPECT_NEAR(solver.rate(0), 1e9 / 3, 1e-3);

    solver.activate(1);
    solver.solveTouched();
    solver.deactivate(2); // C, at 1/3: A, B and D are at or above it
    std::vector<int> resolved = solver.solveTouched();
    std::sort(resolved.begin(), resolved.end());
    EXPECT_EQ(resolved, (std::vector<int>{0, 1, 3}));
    EXPECT_NEAR(solver.rate(0), 0.5e9, 1e-3);
    EXPECT_NEAR(solver.rate(1), 0.5e9, 1e-3);
    EXPECT_NEAR(solver.rate(3), 0.5e9, 1e-3);
}

// A flow at or above the floor that a change reaches only through a link it is not bottlenecked
// on keeps its rate, and so do the flows behind it (docs/network-model.md, "When rates change").
TEST(MaxMinSolver, AFlowEndingReSolvesOnlyTheFlowsItReachesThroughTheirBottlenecks) {
    // L0 of 1 GB/s carries A and B; L1 of 3 GB/s carries A, C and D; L2 of 1 GB/s carries D and
    // E. A and B share L0 at 1/2, D and E share L2 at 1/2, C gets the 2 GB/s L1 has left.
    const std::vector<double> bandwidth{1e9, 3e9, 1e9};
    const std::vector<int> offsets{0, 2, 3, 4, 6, 7};
    const std::vector<LinkId> links{0, 1, 0, 1, 1, 2, 2};
    MaxMinSolver solver(bandwidth, offsets, links);
    for (int flow = 0; flow < 5; ++flow) {
        solver.activate(flow);
    }
    solver.solveTouched();
    EXPECT_NEAR(solver.rate(0), 0.5e9, 1e-3);
    EXPECT_NEAR(solver.rate(2), 2e9, 1e-3);
    EXPECT_NEAR(solver.rate(3), 0.5e9, 1e-3);

    // B ends: A speeds up to 1 GB/s and takes it from C. D, at the floor but bottlenecked on L2,
    // keeps its 1/2, and E behind it is not reached at all.
    solver.deactivate(1);
    std::vector<int> resolved = solver.solveTouched();
    std::sort(resolved.begin(), resolved.end());
    EXPECT_EQ(resolved, (std::vector<int>{0, 2}));
    EXPECT_NEAR(solver.rate(0), 1e9, 1e-3);
    EXPECT_NEAR(solver.rate(2), 1.5e9, 1e-3);
    EXPECT_NEAR(solver.rate(3), 0.5e9, 1e-3);
    EXPECT_NEAR(solver.rate(4), 0.5e9, 1e-3);
}

// A flow left out because its bottleneck is elsewhere is re-solved after all when the change
// leaves it faster than the flows that fill the link they share.
TEST(MaxMinSolver, AFlowLeftOutAboveTheLevelOfALinkItCrossesIsReSolved) {
    // G crosses L0 (1 GB/s) and L1 (0.6 GB/s): alone it gets 0.6 GB/s, bottlenecked on L1. Then
    // F1 and F2 join it on L0; with G at 0.6 they would get 0.2 each, below G, so G is
    // re-solved and all three share L0 at 1/3 GB/s.
    const std::vector<double> bandwidth{1e9, 0.6e9};
    const std::vector<int> offsets{0, 2, 3, 4};
    const std::vector<LinkId> links{0, 1, 0, 0};
    MaxMinSolver solver(bandwidth, offsets, links);
    solver.activate(0);
    solver.solveTouched();
    EXPECT_NEAR(solver.rate(0), 0.6e9, 1e-3);

    solver.activate(1);
    solver.activate(2);
    std::vector<int> resolved = solver.solveTouched();
    std::sort(resolved.begin(), resolved.end());
    EXPECT_EQ(resolved, (std::vector<int>{0, 1, 2}));
    for (int flow = 0; flow < 3; ++flow) {
        EXPECT_NEAR(solver.rate(flow), 1e9 / 3, 1e-3) << "flow " << flow;
    }
}

} // namespace
} // namespace ws
