#include "collectives/collective_expansion.h"
#include "collectives/expansion_budget.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace ws {
namespace {

using Ids = std::vector<std::string>;
using Deps = std::vector<int>;

WaferTopology mesh(int rows, int cols) {
    return WaferTopology(TopologySpec{rows, cols, TopologyKind::Mesh, {}, {}});
}

TrafficOp collective(std::string id, OpKind kind, std::vector<DieId> group, double bytes,
                     std::optional<Algorithm> algorithm = std::nullopt) {
    TrafficOp op;
    op.id = std::move(id);
    op.kind = kind;
    op.group = std::move(group);
    op.bytes = Quantity{bytes, ""};
    op.algorithm = algorithm;
    return op;
}

Ids idsOf(const std::vector<Flow>& flows) {
    Ids ids;
    for (const Flow& flow : flows)
        ids.push_back(flow.id);
    return ids;
}

int indexOf(const std::vector<Flow>& flows, const std::string& id) {
    const auto it =
        std::find_if(flows.begin(), flows.end(), [&](const Flow& f) { return f.id == id; });
    return it == flows.end() ? -1 : static_cast<int>(it - flows.begin());
}

const Flow& flow(const std::vector<Flow>& flows, const std::string& id) {
    const int i = indexOf(flows, id);
    EXPECT_GE(i, 0) << id;
    return flows.at(static_cast<std::size_t>(std::max(i, 0)));
}

// Expects `call` to throw a ScenarioError at `keyPath`.
template <class F> void expectErrorAt(F call, const std::string& keyPath) {
    try {
        call();
        ADD_FAILURE() << "no error; expected one at " << keyPath;
    } catch (const ScenarioError& error) {
        EXPECT_EQ(error.keyPath(), keyPath) << error.what();
    }
}

TEST(ExpandOp, P2PIsOneFlowNamedAfterTheOp) {
    TrafficOp op;
    op.id = "p";
    op.src = 2;
    op.dst = 10;
    op.bytes = Quantity{32e6, "32 MB"};
    const auto flows = expandOp(op, 3, mesh(4, 4), "traffic[3]");
    ASSERT_EQ(flows.size(), 1u);
    EXPECT_EQ(flows[0].id, "p");
    EXPECT_EQ(flows[0].opIndex, 3);
    EXPECT_EQ(flows[0].src, 2);
    EXPECT_EQ(flows[0].dsts, (std::vector<DieId>{10}));
    EXPECT_EQ(flows[0].bytes, 32e6);
    EXPECT_FALSE(flows[0].multicast);
    EXPECT_TRUE(flows[0].flowDeps.empty());
}

TEST(ExpandOp, RingAllGatherOnFourRanks) {
    const auto flows =
        expandOp(collective("ag", OpKind::AllGather, {3, 2, 6, 7}, 64e6), 0, mesh(4, 4), "t");
    ASSERT_EQ(flows.size(), 12u); // P-1 = 3 steps of P = 4 flows
    EXPECT_EQ(idsOf(flows),
              (Ids{"ag/s0/r0", "ag/s0/r1", "ag/s0/r2", "ag/s0/r3", "ag/s1/r0", "ag/s1/r1",
                   "ag/s1/r2", "ag/s1/r3", "ag/s2/r0", "ag/s2/r1", "ag/s2/r2", "ag/s2/r3"}));
    for (const Flow& f : flows) {
        EXPECT_EQ(f.bytes, 16e6); // N/P
        EXPECT_EQ(f.src, (std::vector<DieId>{3, 2, 6, 7}[static_cast<std::size_t>(f.rank)]));
        EXPECT_EQ(f.dsts, (std::vector<DieId>{(std::vector<DieId>{
                              3, 2, 6, 7}[static_cast<std::size_t>((f.rank + 1) % 4)])}));
        EXPECT_FALSE(f.multicast);
    }
    // Step 0 waits for nothing; rank i's step s+1 waits for rank i-1's step s.
    EXPECT_TRUE(flow(flows, "ag/s0/r2").flowDeps.empty());
    EXPECT_EQ(flow(flows, "ag/s1/r1").flowDeps, (Deps{indexOf(flows, "ag/s0/r0")}));
    EXPECT_EQ(flow(flows, "ag/s1/r0").flowDeps, (Deps{indexOf(flows, "ag/s0/r3")}));
    EXPECT_EQ(flow(flows, "ag/s2/r3").flowDeps, (Deps{indexOf(flows, "ag/s1/r2")}));
}

TEST(ExpandOp, RingReduceScatterAndAllReduce) {
    const auto topology = mesh(4, 4);
    const auto rs =
        expandOp(collective("rs", OpKind::ReduceScatter, {0, 1, 2, 3, 7}, 10.0), 0, topology, "t");
    EXPECT_EQ(rs.size(), 20u);
    EXPECT_EQ(rs.front().bytes, 2.0);
    const auto ar =
        expandOp(collective("ar", OpKind::AllReduce, {0, 1, 5, 4}, 8.0), 0, topology, "t");
    ASSERT_EQ(ar.size(), 24u); // 2(P-1) P
    EXPECT_EQ(ar.back().id, "ar/s5/r3");
    EXPECT_EQ(ar.back().bytes, 2.0); // N/P
    EXPECT_EQ(flow(ar, "ar/s3/r2").flowDeps, (Deps{indexOf(ar, "ar/s2/r1")}));
}

TEST(ExpandOp, RingOfOneDieHasNoFlows) {
    EXPECT_TRUE(expandOp(collective("x", OpKind::AllReduce, {5}, 8.0), 0, mesh(4, 4), "t").empty());
}

TEST(ExpandOp, RingBroadcastIsAChainFromTheRoot) {
    auto op = collective("b", OpKind::Broadcast, {0, 1, 2, 3}, 100.0);
    op.root = 2;
    const auto flows = expandOp(op, 0, mesh(1, 4), "t");
    EXPECT_EQ(idsOf(flows), (Ids{"b/s0/r2", "b/s1/r3", "b/s2/r0"}));
    EXPECT_EQ(flows[1].src, 3);
    EXPECT_EQ(flows[1].dsts, (std::vector<DieId>{0}));
    EXPECT_EQ(flows[2].dsts, (std::vector<DieId>{1}));
    EXPECT_EQ(flows[0].bytes, 100.0); // the whole buffer
    EXPECT_TRUE(flows[0].flowDeps.empty());
    EXPECT_EQ(flows[1].flowDeps, (Deps{0}));
    EXPECT_EQ(flows[2].flowDeps, (Deps{1}));
}

TEST(ExpandOp, RingAllToAllIsPairwiseExchange) {
    const auto flows =
        expandOp(collective("a2a", OpKind::AllToAll, {0, 1, 2, 3}, 40.0), 0, mesh(2, 2), "t");
    ASSERT_EQ(flows.size(), 12u);
    const Flow& f = flow(flows, "a2a/s1/r3");
    EXPECT_EQ(f.dsts, (std::vector<DieId>{1}));                 // (3 + 1 + 1) mod 4
    EXPECT_EQ(f.bytes, 10.0);                                   // N/P to each peer
    EXPECT_EQ(f.flowDeps, (Deps{indexOf(flows, "a2a/s0/r3")})); // its own previous step
}

TEST(ExpandOp, DirectAllGatherReduceScatterAndAllToAllStartAtOnce) {
    const auto topology = mesh(2, 2);
    for (OpKind kind : {OpKind::AllGather, OpKind::ReduceScatter, OpKind::AllToAll}) {
        const auto flows =
            expandOp(collective("d", kind, {0, 1, 2, 3}, 8.0, Algorithm::Direct), 0, topology, "t");
        ASSERT_EQ(flows.size(), 12u);
        for (const Flow& f : flows) {
            EXPECT_TRUE(f.flowDeps.empty());
            EXPECT_EQ(f.bytes, 2.0);
            EXPECT_EQ(f.dsts, (std::vector<DieId>{(f.rank + f.step + 1) % 4}));
        }
    }
}

TEST(ExpandOp, DirectAllReduceAllGatherWaitsForEveryChunkReceived) {
    const auto flows =
        expandOp(collective("ar", OpKind::AllReduce, {0, 1, 2, 3}, 8.0, Algorithm::Direct), 0,
                 mesh(2, 2), "t");
    ASSERT_EQ(flows.size(), 24u);
    const Flow& ag = flow(flows, "ar/s3/r1"); // first all-gather step of rank 1
    EXPECT_EQ(ag.dsts, (std::vector<DieId>{2}));
    EXPECT_EQ(ag.flowDeps, (Deps{indexOf(flows, "ar/s0/r0"), indexOf(flows, "ar/s1/r3"),
                                 indexOf(flows, "ar/s2/r2")}));
}

TEST(ExpandOp, DirectBroadcastSendsTheBufferToEachRank) {
    auto op = collective("b", OpKind::Broadcast, {4, 5, 6}, 9.0, Algorithm::Direct);
    const auto flows = expandOp(op, 0, mesh(3, 3), "t");
    EXPECT_EQ(idsOf(flows), (Ids{"b/s0/r0", "b/s1/r0"}));
    EXPECT_EQ(flows[0].dsts, (std::vector<DieId>{5}));
    EXPECT_EQ(flows[1].dsts, (std::vector<DieId>{6}));
    EXPECT_EQ(flows[1].bytes, 9.0);
}

TEST(ExpandOp, MulticastAllGatherSendsOneTreePerRank) {
    const auto flows =
        expandOp(collective("ag", OpKind::AllGather, {0, 1, 2, 3}, 8.0, Algorithm::Multicast), 0,
                 mesh(2, 2), "t");
    EXPECT_EQ(idsOf(flows), (Ids{"ag/s0/r0", "ag/s0/r1", "ag/s0/r2", "ag/s0/r3"}));
    EXPECT_TRUE(flows[2].multicast);
    EXPECT_EQ(flows[2].dsts, (std::vector<DieId>{3, 0, 1}));
    EXPECT_EQ(flows[2].bytes, 2.0);
    EXPECT_TRUE(flows[2].flowDeps.empty());
}

TEST(ExpandOp, MulticastBroadcastAndAllReduce) {
    const auto topology = mesh(2, 2);
    auto bc = collective("b", OpKind::Broadcast, {0, 1, 2, 3}, 8.0, Algorithm::Multicast);
    bc.root = 3;
    const auto tree = expandOp(bc, 0, topology, "t");
    ASSERT_EQ(tree.size(), 1u);
    EXPECT_EQ(tree[0].id, "b/s0/r3");
    EXPECT_EQ(tree[0].dsts, (std::vector<DieId>{0, 1, 2}));
    EXPECT_EQ(tree[0].bytes, 8.0);

    const auto ar =
        expandOp(collective("ar", OpKind::AllReduce, {0, 1, 2, 3}, 8.0, Algorithm::Multicast), 0,
                 topology, "t");
    ASSERT_EQ(ar.size(), 16u); // 12 direct reduce-scatter flows + 4 trees
    const Flow& ag = flow(ar, "ar/s3/r0");
    EXPECT_TRUE(ag.multicast);
    EXPECT_EQ(ag.flowDeps.size(), 3u);
}

// Reduction trees: rank i's chunk is summed into it from every other rank along one tree; an
// all-reduce then multicasts each sum back along a tree, once that rank's reduction is in.
TEST(ExpandOp, TreeReduceScatterAndAllReduceAreReductionTreesPerRank) {
    const auto topology = mesh(2, 2);
    const auto rs =
        expandOp(collective("rs", OpKind::ReduceScatter, {0, 1, 2, 3}, 8.0, Algorithm::Tree), 0,
                 topology, "t");
    EXPECT_EQ(idsOf(rs), (Ids{"rs/s0/r0", "rs/s0/r1", "rs/s0/r2", "rs/s0/r3"}));
    EXPECT_TRUE(rs[2].reduction);
    EXPECT_TRUE(rs[2].multicast); // routed along a tree
    EXPECT_EQ(rs[2].src, 2);      // the root, where the sum arrives
    EXPECT_EQ(rs[2].dsts, (std::vector<DieId>{3, 0, 1}));
    EXPECT_EQ(rs[2].bytes, 2.0);
    EXPECT_TRUE(rs[2].flowDeps.empty());

    const auto ar = expandOp(
        collective("ar", OpKind::AllReduce, {0, 1, 2, 3}, 8.0, Algorithm::Tree), 0, topology, "t");
    ASSERT_EQ(ar.size(), 8u);
    const Flow& back = flow(ar, "ar/s1/r2");
    EXPECT_FALSE(back.reduction);
    EXPECT_TRUE(back.multicast);
    EXPECT_EQ(back.flowDeps, (std::vector<int>{indexOf(ar, "ar/s0/r2")}));

    // Nothing to reduce: a tree all-gather is the multicast one.
    const auto ag = collective("ag", OpKind::AllGather, {0, 1, 2, 3}, 8.0, Algorithm::Tree);
    const auto multicast =
        expandOp(collective("ag", OpKind::AllGather, {0, 1, 2, 3}, 8.0, Algorithm::Multicast), 0,
                 topology, "t");
    EXPECT_EQ(idsOf(expandOp(ag, 0, topology, "t")), idsOf(multicast));
    expectErrorAt(
        [&] {
            expandOp(collective("a", OpKind::AllToAll, {0, 1}, 8.0, Algorithm::Tree), 0, topology,
                     "traffic[0]");
        },
        "traffic[0].algorithm");
}

TEST(ExpandOp, HierarchicalAllGatherOnATwoByFourRectangle) {
    // Rows 1-2 of a 4x4 wafer, listed out of order: ranks are group indices, rings follow the
    // geometry (rows left to right, columns top to bottom).
    const std::vector<DieId> group{11, 10, 9, 8, 4, 5, 6, 7};
    const auto flows =
        expandOp(collective("h", OpKind::AllGather, group, 64.0, Algorithm::Hierarchical), 0,
                 mesh(4, 4), "t");
    ASSERT_EQ(flows.size(), 32u);             // rows: 3 steps x 8, columns: 1 step x 8
    const Flow& row = flow(flows, "h/s0/r4"); // die 4 -> die 5
    EXPECT_EQ(row.dsts, (std::vector<DieId>{5}));
    EXPECT_EQ(row.bytes, 8.0);                                       // N/P
    EXPECT_EQ(flow(flows, "h/s0/r0").dsts, (std::vector<DieId>{8})); // die 11 wraps to 8
    const Flow& col = flow(flows, "h/s3/r4");                        // die 4 -> die 8
    EXPECT_EQ(col.dsts, (std::vector<DieId>{8}));
    EXPECT_EQ(col.bytes, 32.0); // a row's 4 chunks
    // Die 4's first column flow waits for the last row flow it received (step 2, from die 7).
    EXPECT_EQ(col.flowDeps, (Deps{indexOf(flows, "h/s2/r7")}));
    EXPECT_EQ(flow(flows, "h/s1/r5").flowDeps, (Deps{indexOf(flows, "h/s0/r4")}));
}

TEST(ExpandOp, HierarchicalReduceScatterAndAllReduceChunkSizes) {
    const std::vector<DieId> group{4, 5, 6, 7, 8, 9, 10, 11};
    const auto topology = mesh(4, 4);
    const auto rs =
        expandOp(collective("rs", OpKind::ReduceScatter, group, 64.0, Algorithm::Hierarchical), 0,
                 topology, "t");
    ASSERT_EQ(rs.size(), 32u);
    EXPECT_EQ(flow(rs, "rs/s0/r0").bytes, 16.0); // N / cols
    EXPECT_EQ(flow(rs, "rs/s3/r0").bytes, 8.0);  // N / P
    EXPECT_EQ(flow(rs, "rs/s3/r0").dsts, (std::vector<DieId>{8}));

    const auto ar =
        expandOp(collective("ar", OpKind::AllReduce, group, 64.0, Algorithm::Hierarchical), 0,
                 topology, "t");
    ASSERT_EQ(ar.size(), 64u);                   // (3 + 2 + 3) steps x 8
    EXPECT_EQ(flow(ar, "ar/s4/r4").bytes, 8.0);  // column all-reduce: N/P
    EXPECT_EQ(flow(ar, "ar/s5/r0").bytes, 16.0); // row all-gather: N/cols
    EXPECT_EQ(ar.back().id, "ar/s7/r7");
    // The row all-gather of die 4 waits for the last column flow it received (from die 8).
    EXPECT_EQ(flow(ar, "ar/s5/r0").flowDeps, (Deps{indexOf(ar, "ar/s4/r4")}));
}

TEST(ExpandOp, HierarchicalOnASingleRowIsARing) {
    const auto flows =
        expandOp(collective("h", OpKind::AllReduce, {0, 1, 2}, 6.0, Algorithm::Hierarchical), 0,
                 mesh(3, 3), "t");
    EXPECT_EQ(flows.size(), 12u); // row RS 2 steps + row AG 2 steps, of 3 flows
    EXPECT_EQ(flow(flows, "h/s2/r0").flowDeps, (Deps{indexOf(flows, "h/s1/r2")}));
}

TEST(ExpandOp, Errors) {
    const auto topology = mesh(4, 4);
    expectErrorAt(
        [&] {
            expandOp(collective("h", OpKind::AllGather, {0, 1, 4}, 8.0, Algorithm::Hierarchical), 0,
                     topology, "traffic[2]");
        },
        "traffic[2].group");
    expectErrorAt(
        [&] {
            expandOp(collective("h", OpKind::AllGather, {0, 2}, 8.0, Algorithm::Hierarchical), 0,
                     topology, "traffic[2]");
        },
        "traffic[2].group");
    expectErrorAt(
        [&] {
            expandOp(collective("h", OpKind::Broadcast, {0, 1}, 8.0, Algorithm::Hierarchical), 0,
                     topology, "traffic[2]");
        },
        "traffic[2].algorithm");
    expectErrorAt(
        [&] {
            expandOp(collective("m", OpKind::ReduceScatter, {0, 1}, 8.0, Algorithm::Multicast), 0,
                     topology, "traffic[0]");
        },
        "traffic[0].algorithm");
    expectErrorAt(
        [&] {
            expandOp(collective("m", OpKind::AllToAll, {0, 1}, 8.0, Algorithm::Multicast), 0,
                     topology, "traffic[0]");
        },
        "traffic[0].algorithm");
    expectErrorAt(
        [&] {
            expandOp(collective("g", OpKind::AllGather, {0, 16}, 8.0), 0, topology, "traffic[1]");
        },
        "traffic[1].group[1]");
    expectErrorAt(
        [&] {
            expandOp(collective("g", OpKind::AllGather, {3, 1, 3}, 8.0), 0, topology, "traffic[1]");
        },
        "traffic[1].group[2]");
    expectErrorAt(
        [&] { expandOp(collective("g", OpKind::AllGather, {}, 8.0), 0, topology, "traffic[1]"); },
        "traffic[1].group");
    auto bc = collective("b", OpKind::Broadcast, {0, 1}, 8.0);
    bc.root = 5;
    expectErrorAt([&] { expandOp(bc, 0, topology, "traffic[4]"); }, "traffic[4].root");
    TrafficOp p2p;
    p2p.id = "p";
    p2p.src = 1;
    p2p.dst = 20;
    expectErrorAt([&] { expandOp(p2p, 0, topology, "traffic[0]"); }, "traffic[0].dst");
    p2p.dst = 1;
    expectErrorAt([&] { expandOp(p2p, 0, topology, "traffic[0]"); }, "traffic[0].dst");
}

TEST(ExpandOp, HierarchicalErrorSaysWhatIsWrong) {
    try {
        expandOp(collective("h", OpKind::AllGather, {0, 1, 4}, 8.0, Algorithm::Hierarchical), 0,
                 mesh(4, 4), "traffic[2]");
        FAIL();
    } catch (const ScenarioError& error) {
        EXPECT_EQ(std::string(error.what()),
                  "traffic[2].group: hierarchical needs a group that fills a rectangle of dies "
                  "exactly; these 3 dies span rows 0 to 1 and columns 0 to 1 (4 dies)");
    }
}

// The size guard counts without expanding: its count must be exactly what expandOp builds, for
// every op and algorithm (a 2x3 group on a 4x4 wafer, so hierarchical applies).
// A split op is its whole expansion k times over on bytes/k: part j of "<id>" is "<id>/p<j>" and
// waits for part j of what the whole flow waited for, so the parts run side by side.
TEST(ExpandOp, SplitOpIsItsExpansionOnEachPartOfTheBuffer) {
    const auto topology = mesh(2, 2);
    TrafficOp p2p;
    p2p.id = "p";
    p2p.src = 0;
    p2p.dst = 3;
    p2p.bytes = Quantity{30.0, ""};
    p2p.split = 3;
    const auto parts = expandOp(p2p, 1, topology, "t");
    EXPECT_EQ(idsOf(parts), (Ids{"p/p0", "p/p1", "p/p2"}));
    for (const Flow& part : parts) {
        EXPECT_EQ(part.bytes, 10.0);
        EXPECT_EQ(part.src, 0);
        EXPECT_EQ(part.dsts, (std::vector<DieId>{3}));
        EXPECT_EQ(part.opIndex, 1);
        EXPECT_TRUE(part.flowDeps.empty());
    }

    TrafficOp ar = collective("ar", OpKind::AllReduce, {0, 1, 2, 3}, 8.0, Algorithm::Tree);
    ar.split = 2;
    const auto flows = expandOp(ar, 0, topology, "t");
    ASSERT_EQ(flows.size(), 16u); // 8 flows of the whole op, twice
    EXPECT_EQ(flows[0].id, "ar/s0/r0/p0");
    EXPECT_EQ(flows[1].id, "ar/s0/r0/p1");
    const Flow& back = flow(flows, "ar/s1/r2/p1");
    EXPECT_EQ(back.bytes, 1.0); // 8 bytes / 4 ranks / 2 parts
    EXPECT_TRUE(back.multicast);
    EXPECT_EQ(back.flowDeps, (Deps{indexOf(flows, "ar/s0/r2/p1")}));
    EXPECT_TRUE(flow(flows, "ar/s0/r2/p1").reduction);

    TrafficOp ring = collective("ag", OpKind::AllGather, {0, 1, 3, 2}, 8.0);
    ring.split = 2;
    const auto ringFlows = expandOp(ring, 0, topology, "t");
    EXPECT_EQ(flow(ringFlows, "ag/s1/r1/p0").flowDeps, (Deps{indexOf(ringFlows, "ag/s0/r0/p0")}));
}

TEST(ExpansionBudget, CountsExactlyTheFlowsAnOpExpandsTo) {
    const WaferTopology topology = mesh(4, 4);
    const std::vector<DieId> group = {5, 6, 7, 9, 10, 11};
    int checked = 0;
    for (const OpKind kind : {OpKind::AllGather, OpKind::ReduceScatter, OpKind::AllReduce,
                              OpKind::Broadcast, OpKind::AllToAll}) {
        for (const Algorithm algorithm : {Algorithm::Ring, Algorithm::Direct, Algorithm::Multicast,
                                          Algorithm::Hierarchical, Algorithm::Tree}) {
            TrafficOp op = collective("op", kind, group, 6e6, algorithm);
            op.split = 1 + checked % 3; // split ops too: their parts count
            std::vector<Flow> flows;
            try {
                flows = expandOp(op, 0, topology, "traffic[0]");
            } catch (const ScenarioError&) {
                continue; // a combination that is not defined
            }
            const ExpansionSize size = expansionSizeOf(op, topology, 1e6);
            EXPECT_EQ(size.flows, static_cast<std::int64_t>(flows.size()))
                << toString(algorithm) << ' ' << toString(kind);
            // Chunks: at least one per flow, at most the whole buffer's worth per flow.
            std::int64_t chunks = 0;
            for (const Flow& flow : flows)
                chunks += static_cast<std::int64_t>(std::ceil(flow.bytes / 1e6));
            EXPECT_GE(size.chunks, chunks) << toString(algorithm) << ' ' << toString(kind);
            EXPECT_LE(size.chunks, static_cast<std::int64_t>(flows.size()) * 6)
                << toString(algorithm) << ' ' << toString(kind);
            ++checked;
        }
    }
    EXPECT_EQ(checked, 20); // ring and direct 5 each, multicast 3, hierarchical 3, tree 4
}

TEST(ExpansionBudget, RefusesARunPastItsLimitNamingTheOpAndTheCount) {
    const WaferTopology topology = mesh(4, 4);
    ExpansionBudget budget({100, 1000}, NetworkSettings{});
    const TrafficOp ring = collective("ar", OpKind::AllReduce, {0, 1, 2, 3, 7, 6}, 6e6);
    budget.charge(ring, topology, "traffic[0]"); // 2 x 6 x 5 = 60 flows
    EXPECT_EQ(budget.flows(), 60);
    try {
        budget.charge(ring, topology, "traffic[1]");
        ADD_FAILURE() << "a run of 120 flows passed a limit of 100";
    } catch (const ScenarioError& error) {
        EXPECT_EQ(error.keyPath(), "traffic[1]");
        EXPECT_NE(std::string(error.what())
                      .find("op 'ar' (a ring allreduce over 6 dies) expands to 60 flows; with "
                            "the 60 flows before it the run would build more than the limit of "
                            "100 flows"),
                  std::string::npos)
            << error.what();
    }
    // Chunks count only in the store-and-forward model: 60 flows of 1 MB in 64 KB chunks.
    ExpansionBudget chunked({1000, 500}, {NetworkModel::StoreAndForward, 65536});
    expectErrorAt([&] { chunked.charge(ring, topology, "traffic[0]"); }, "traffic[0]");
}

} // namespace
} // namespace ws
