#include "io/strategy_reader.h"
#include "strategy/mapping_policy.h"
#include "strategy/placement.h"
#include "strategy_test_support.h"

#include <gtest/gtest.h>

#include <set>

namespace ws {
namespace {

using nlohmann::json;
using test::expectScenarioError;
using test::mesh;
using Dies = std::vector<DieId>;
using Groups = std::vector<std::vector<DieId>>;

StrategySpec degrees(int dp, int sp, int tp, int tatp,
                     StrategySpec::MappingKind mapping = StrategySpec::Sequential) {
    StrategySpec spec;
    spec.dp = dp;
    spec.sp = sp;
    spec.tp = tp;
    spec.tatp = tatp;
    spec.mapping = mapping;
    return spec;
}

// The invariants of every snake placement: live, distinct dies; each TATP step one live link
// (both ways); and DP groups joining the same path position of translated rectangles.
void expectSnakeInvariants(const WaferTopology& topology, const Placement& placement) {
    const std::set<DieId> distinct(placement.usedDies().begin(), placement.usedDies().end());
    EXPECT_EQ(distinct.size(), placement.usedDies().size());
    for (const DieId die : placement.usedDies())
        EXPECT_TRUE(topology.isAlive(die)) << "die " << die;
    for (const auto& group : placement.groups(GroupKind::TATP)) {
        ASSERT_EQ(static_cast<int>(group.size()), placement.tatp());
        for (std::size_t i = 1; i < group.size(); ++i) {
            EXPECT_EQ(topology.manhattanDistance(group[i - 1], group[i]), 1)
                << group[i - 1] << " -> " << group[i];
            const auto forward = topology.linkBetween(group[i - 1], group[i]);
            const auto backward = topology.linkBetween(group[i], group[i - 1]);
            ASSERT_TRUE(forward && backward);
            EXPECT_TRUE(topology.link(*forward).alive && topology.link(*backward).alive);
        }
    }
    for (int s = 0; s < placement.sp(); ++s)
        for (int t = 0; t < placement.tp(); ++t)
            for (int a = 0; a < placement.tatp(); ++a) {
                const Dies dpGroup = placement.dpGroup(s, t, a);
                for (int d = 0; d < placement.dp(); ++d)
                    EXPECT_EQ(dpGroup[static_cast<std::size_t>(d)],
                              placement.tatpGroup(d, s, t)[static_cast<std::size_t>(a)]);
            }
}

// Replica d's die at every rank is replica 0's shifted by one (row, col) offset.
void expectReplicasAreTranslations(const WaferTopology& topology, const Placement& placement) {
    for (int d = 1; d < placement.dp(); ++d) {
        const DieCoord origin0 = topology.coord(placement.die(0, 0, 0, 0));
        const DieCoord origin = topology.coord(placement.die(d, 0, 0, 0));
        for (int index = 0; index < placement.rankCount(); ++index) {
            Rank rank = placement.rank(index);
            if (rank.d != 0)
                continue;
            const DieCoord c0 = topology.coord(placement.die(rank));
            rank.d = d;
            const DieCoord c = topology.coord(placement.die(rank));
            EXPECT_EQ(c.row - c0.row, origin.row - origin0.row);
            EXPECT_EQ(c.col - c0.col, origin.col - origin0.col);
        }
    }
}

TEST(SequentialMapping, RanksTakeLiveDiesInRowMajorOrder) {
    const auto topology = mesh(4, 4);
    const Placement placement = placeStrategy(degrees(2, 1, 2, 2), topology);
    EXPECT_EQ(placement.usedDies(), (Dies{0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(placement.rankIndex(1, 0, 1, 0), 6); // ((1*1 + 0)*2 + 1)*2 + 0
    EXPECT_EQ(placement.die(1, 0, 1, 0), 6);
    EXPECT_EQ(placement.rank(5), (Rank{1, 0, 0, 1}));
    EXPECT_EQ(placement.rankOf(5), (Rank{1, 0, 0, 1}));
    EXPECT_EQ(placement.rankOf(8), std::nullopt);
    EXPECT_EQ(placement.tatpGroup(1, 0, 1), (Dies{6, 7}));
    EXPECT_EQ(placement.dpGroup(0, 1, 1), (Dies{3, 7}));
    EXPECT_EQ(placement.tpGroup(0, 0, 1), (Dies{1, 3}));
    EXPECT_EQ(placement.spGroup(1, 0, 0), (Dies{4}));
    EXPECT_EQ(placement.groups(GroupKind::TATP), (Groups{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
    EXPECT_EQ(placement.groups(GroupKind::DP), (Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
    EXPECT_EQ(placement.groups(GroupKind::TP), (Groups{{0, 2}, {1, 3}, {4, 6}, {5, 7}}));
    EXPECT_EQ(placement.groups(GroupKind::SP).size(), 8u);
    EXPECT_TRUE(placement.notes().empty());
    EXPECT_THROW(placement.die(2, 0, 0, 0), std::out_of_range);
}

TEST(SequentialMapping, SkipsDeadDies) {
    const auto topology = mesh(4, 4, {1});
    const Placement placement = placeStrategy(degrees(1, 1, 1, 4), topology);
    EXPECT_EQ(placement.tatpGroup(0, 0, 0), (Dies{0, 2, 3, 4}));
}

TEST(MappingPolicy, IsChosenByName) {
    EXPECT_STREQ(makeMappingPolicy("sequential")->name(), "sequential");
    EXPECT_STREQ(makeMappingPolicy("snake")->name(), "snake");
    EXPECT_STREQ(makeMappingPolicy("explicit")->name(), "explicit");
    EXPECT_EQ(makeMappingPolicy("gemini"), nullptr);
    EXPECT_STREQ(makeMappingPolicy(StrategySpec::Snake)->name(), "snake");
}

TEST(SnakeMapping, FourByFourUsesTwoByTwoSquares) {
    const auto topology = mesh(4, 4);
    const Placement placement = placeStrategy(degrees(4, 1, 1, 4, StrategySpec::Snake), topology);
    EXPECT_EQ(placement.groups(GroupKind::TATP),
              (Groups{{0, 1, 5, 4}, {2, 3, 7, 6}, {8, 9, 13, 12}, {10, 11, 15, 14}}));
    EXPECT_EQ(placement.dpGroup(0, 0, 2), (Dies{5, 7, 13, 15}));
    expectSnakeInvariants(topology, placement);
    expectReplicasAreTranslations(topology, placement);

    for (const auto& [dp, tatp] : {std::pair{8, 2}, std::pair{2, 8}, std::pair{1, 16}}) {
        SCOPED_TRACE("dp " + std::to_string(dp) + " tatp " + std::to_string(tatp));
        const Placement other =
            placeStrategy(degrees(dp, 1, 1, tatp, StrategySpec::Snake), topology);
        expectSnakeInvariants(topology, other);
        expectReplicasAreTranslations(topology, other);
    }
    EXPECT_EQ(placeStrategy(degrees(1, 1, 1, 16, StrategySpec::Snake), topology).usedDies(),
              (Dies{0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11, 15, 14, 13, 12}));
}

TEST(SnakeMapping, SixByEightTatp8FillsTheWaferWithTwoByFourRectangles) {
    const auto topology = mesh(6, 8);
    const Placement placement = placeStrategy(degrees(6, 1, 1, 8, StrategySpec::Snake), topology);
    EXPECT_EQ(placement.tatpGroup(0, 0, 0), (Dies{0, 1, 2, 3, 11, 10, 9, 8}));
    EXPECT_EQ(placement.tatpGroup(1, 0, 0), (Dies{4, 5, 6, 7, 15, 14, 13, 12}));
    EXPECT_EQ(placement.tatpGroup(2, 0, 0), (Dies{16, 17, 18, 19, 27, 26, 25, 24}));
    EXPECT_EQ(placement.tatpGroup(5, 0, 0), (Dies{36, 37, 38, 39, 47, 46, 45, 44}));
    EXPECT_EQ(placement.dpGroup(0, 0, 0), (Dies{0, 4, 16, 20, 32, 36}));
    EXPECT_EQ(placement.usedDies().size(), 48u);
    expectSnakeInvariants(topology, placement);
    expectReplicasAreTranslations(topology, placement);
    ASSERT_EQ(placement.notes().size(), 1u);
    EXPECT_EQ(placement.notes()[0], "snake: TATP groups on 2x4 rectangles; each replica's 1 "
                                    "group(s) form a 1x1 block of rectangles");
}

TEST(SnakeMapping, SixByEightTatp16UsesTwoByEightRows) {
    const auto topology = mesh(6, 8);
    const Placement placement = placeStrategy(degrees(3, 1, 1, 16, StrategySpec::Snake), topology);
    EXPECT_EQ(placement.tatpGroup(0, 0, 0),
              (Dies{0, 1, 2, 3, 4, 5, 6, 7, 15, 14, 13, 12, 11, 10, 9, 8}));
    EXPECT_EQ(placement.tatpGroup(2, 0, 0),
              (Dies{32, 33, 34, 35, 36, 37, 38, 39, 47, 46, 45, 44, 43, 42, 41, 40}));
    EXPECT_EQ(placement.dpGroup(0, 0, 15), (Dies{8, 24, 40}));
    expectSnakeInvariants(topology, placement);
    expectReplicasAreTranslations(topology, placement);
}

TEST(SnakeMapping, EightByEight) {
    const auto topology = mesh(8, 8);
    const Placement sixteen = placeStrategy(degrees(4, 1, 1, 16, StrategySpec::Snake), topology);
    EXPECT_EQ(sixteen.tatpGroup(0, 0, 0),
              (Dies{0, 1, 2, 3, 11, 10, 9, 8, 16, 17, 18, 19, 27, 26, 25, 24}));
    EXPECT_EQ(sixteen.dpGroup(0, 0, 0), (Dies{0, 4, 32, 36}));
    expectSnakeInvariants(topology, sixteen);
    expectReplicasAreTranslations(topology, sixteen);

    const Placement eight = placeStrategy(degrees(8, 1, 1, 8, StrategySpec::Snake), topology);
    expectSnakeInvariants(topology, eight);
    expectReplicasAreTranslations(topology, eight);
    EXPECT_EQ(eight.usedDies().size(), 64u);
}

TEST(SnakeMapping, ModelParallelGroupsOfAReplicaFormOneRectangle) {
    // 8x8, dp 2, sp 2, tp 2, tatp 8: 2x4 rectangles; each replica's four groups form a 2x2
    // block of rectangles (rows 0-3 and rows 4-7), in snake order within the block.
    const auto topology = mesh(8, 8);
    const Placement placement = placeStrategy(degrees(2, 2, 2, 8, StrategySpec::Snake), topology);
    EXPECT_EQ(placement.tatpGroup(0, 0, 0), (Dies{0, 1, 2, 3, 11, 10, 9, 8}));
    EXPECT_EQ(placement.tatpGroup(0, 0, 1), (Dies{4, 5, 6, 7, 15, 14, 13, 12}));
    EXPECT_EQ(placement.tatpGroup(0, 1, 0), (Dies{20, 21, 22, 23, 31, 30, 29, 28}));
    EXPECT_EQ(placement.tatpGroup(0, 1, 1), (Dies{16, 17, 18, 19, 27, 26, 25, 24}));
    EXPECT_EQ(placement.tatpGroup(1, 0, 0), (Dies{32, 33, 34, 35, 43, 42, 41, 40}));
    EXPECT_EQ(placement.tpGroup(0, 0, 0), (Dies{0, 4}));
    EXPECT_EQ(placement.spGroup(0, 0, 0), (Dies{0, 20}));
    EXPECT_EQ(placement.dpGroup(1, 1, 7), (Dies{24, 56}));
    for (int index = 0; index < 32; ++index)
        EXPECT_LT(placement.usedDies()[static_cast<std::size_t>(index)], 32) << index;
    expectSnakeInvariants(topology, placement);
    expectReplicasAreTranslations(topology, placement);
}

TEST(SnakeMapping, PlacesOnTheLargestWafer) {
    // 256x256 with faults: 4095 groups of 16 on 4x4 squares, one square lost to die 0.
    const auto topology = mesh(256, 256, {0, 65535});
    const Placement placement =
        placeStrategy(degrees(4094, 1, 1, 16, StrategySpec::Snake), topology);
    EXPECT_EQ(placement.tatpGroup(0, 0, 0)[0], 4);
    expectSnakeInvariants(topology, placement);
}

TEST(SnakeMapping, AvoidsRectanglesWithDeadDiesOrLinks) {
    const auto deadDie = mesh(6, 8, {0});
    const Placement placement = placeStrategy(degrees(5, 1, 1, 8, StrategySpec::Snake), deadDie);
    EXPECT_EQ(placement.tatpGroup(0, 0, 0), (Dies{4, 5, 6, 7, 15, 14, 13, 12}));
    EXPECT_EQ(placement.tatpGroup(1, 0, 0), (Dies{16, 17, 18, 19, 27, 26, 25, 24}));
    expectSnakeInvariants(deadDie, placement);

    const auto deadLink = mesh(4, 4, {}, {{0, 1}});
    const Placement avoiding = placeStrategy(degrees(1, 1, 1, 4, StrategySpec::Snake), deadLink);
    EXPECT_EQ(avoiding.tatpGroup(0, 0, 0), (Dies{2, 3, 7, 6}));
    expectSnakeInvariants(deadLink, avoiding);
}

TEST(SnakeMapping, FallsBackToOneSnakeThroughUsableRectanglesWhenFaultsBreakBlocks) {
    // 4x4, die 5 dead, tp 3 x tatp 4: no 3-rectangle block is free of die 5, so the three
    // groups follow the snake (0,0) (0,1) (1,1) (1,0) of 2x2 slots, skipping the dead one.
    const auto topology = mesh(4, 4, {5});
    const Placement placement = placeStrategy(degrees(1, 1, 3, 4, StrategySpec::Snake), topology);
    EXPECT_EQ(placement.groups(GroupKind::TATP),
              (Groups{{2, 3, 7, 6}, {10, 11, 15, 14}, {8, 9, 13, 12}}));
    expectSnakeInvariants(topology, placement);
    ASSERT_EQ(placement.notes().size(), 1u);
    EXPECT_NE(placement.notes()[0].find("faults leave no rectangular replica blocks"),
              std::string::npos);
}

TEST(SnakeMapping, ExplainsWhyItCannotPlace) {
    const auto twoDead = mesh(4, 4, {5, 10});
    expectScenarioError(
        [&] { placeStrategy(degrees(3, 1, 1, 4, StrategySpec::Snake), twoDead); },
        "strategy.mapping",
        "snake mapping needs 3 TATP groups (dp*sp*tp) of 4 dies, each on a rectangle (1x4, 2x2, "
        "4x1) of live dies with live links, but the 4x4 wafer has room for at most 2 (as 1x4)");
    expectScenarioError(
        [&] { placeStrategy(degrees(1, 1, 1, 5, StrategySpec::Snake), mesh(4, 4)); },
        "strategy.mapping", "h*w = tatp = 5, but none fits the 4x4 wafer");
}

TEST(PlaceStrategy, RejectsMoreRanksThanLiveDies) {
    const auto topology = mesh(6, 8, {0, 47});
    const std::string message =
        expectScenarioError([&] { placeStrategy(degrees(8, 1, 1, 8), topology); }, "strategy",
                            "dp*sp*tp*tatp = 64 dies, but the wafer has 46 live dies");
    EXPECT_EQ(message,
              "strategy: dp*sp*tp*tatp = 64 dies, but the wafer has 46 live dies (2 of 48 are "
              "dead)");
    expectScenarioError([&] { placeStrategy(degrees(1, 1, 0, 1), topology); }, "strategy.tp",
                        "must be a positive integer, got 0");
}

// docs/concepts.md section 3: a 4x4 wafer, dp 2 x tatp 2, dp_groups [{0,2},{1,3}] and tatp_groups
// [{0,1},{2,3}].
const char* const kDomainExample =
    R"({"dp": 2, "tatp": 2, "groups": {"dp": [[0, 2], [1, 3]], "tatp": [[0, 1], [2, 3]]}})";

TEST(ExplicitMapping, FollowsTheListsOfTheDomainExample) {
    const auto topology = mesh(4, 4);
    const Placement placement = placeStrategy(parseStrategy(json::parse(kDomainExample)), topology);
    EXPECT_EQ(placement.usedDies(), (Dies{0, 1, 2, 3}));
    EXPECT_EQ(placement.die(0, 0, 0, 1), 1);
    EXPECT_EQ(placement.die(1, 0, 0, 0), 2);
    EXPECT_EQ(placement.tatpGroup(1, 0, 0), (Dies{2, 3}));
    EXPECT_EQ(placement.dpGroup(0, 0, 0), (Dies{0, 2}));
    EXPECT_EQ(placement.dpGroup(0, 0, 1), (Dies{1, 3}));
    EXPECT_TRUE(placement.notes().empty());
}

TEST(ExplicitMapping, NotesTatpStepsLongerThanOneHop) {
    const auto topology = mesh(4, 4);
    const Placement placement = placeStrategy(
        parseStrategy(json::parse(
            R"({"dp": 2, "tatp": 2, "groups": {"dp": [[0, 2], [15, 5]], "tatp": [[0, 15], [2, 5]]}})")),
        topology);
    EXPECT_EQ(placement.usedDies(), (Dies{0, 15, 2, 5}));
    EXPECT_EQ(placement.dpGroup(0, 0, 1), (Dies{15, 5}));
    ASSERT_EQ(placement.notes().size(), 2u);
    EXPECT_EQ(placement.notes()[0],
              "strategy.groups.tatp[0]: dies 0 and 15 are 6 hops apart; the TATP stream relays "
              "over a multi-hop route there (a snake path keeps every step one hop)");
}

TEST(ExplicitMapping, NotesDeadLinksOnTheTatpPath) {
    const auto topology = mesh(4, 4, {}, {{1, 0}});
    const Placement placement = placeStrategy(parseStrategy(json::parse(kDomainExample)), topology);
    ASSERT_EQ(placement.notes().size(), 1u);
    EXPECT_EQ(placement.notes()[0],
              "strategy.groups.tatp[0]: the link between dies 0 and 1 is dead (in at least one "
              "direction); the TATP stream detours around it");
}

TEST(ExplicitMapping, OmittedGroupsOfDegreeOneFollowTheOtherKind) {
    const auto topology = mesh(4, 4);
    const Placement dpOnly = placeStrategy(
        parseStrategy(json::parse(R"({"dp": 3, "groups": {"dp": [[9, 4, 0]]}})")), topology);
    EXPECT_EQ(dpOnly.dpGroup(0, 0, 0), (Dies{9, 4, 0}));
    const Placement tatpOnly = placeStrategy(
        parseStrategy(json::parse(R"({"tatp": 3, "groups": {"tatp": [[3, 7, 11]]}})")), topology);
    EXPECT_EQ(tatpOnly.tatpGroup(0, 0, 0), (Dies{3, 7, 11}));
}

TEST(ExplicitMapping, RejectsInvalidGroupsAtTheirKey) {
    const auto topology = mesh(4, 4, {1});
    const auto place = [&](const char* text) {
        return [&topology, text] { placeStrategy(parseStrategy(json::parse(text)), topology); };
    };
    expectScenarioError(place(kDomainExample), "strategy.groups.tatp[0][1]", "die 1 is dead");
    const auto live = mesh(4, 4);
    const auto placeLive = [&](const char* text) {
        return [&live, text] { placeStrategy(parseStrategy(json::parse(text)), live); };
    };
    expectScenarioError(
        placeLive(
            R"({"dp": 2, "sp": 2, "tatp": 2, "groups": {"dp": [[0, 2], [1, 3]], "tatp": [[0, 1], [2, 3]]}})"),
        "strategy.groups", "need sp = 1 and tp = 1 (got sp = 2, tp = 1)");
    expectScenarioError(
        placeLive(
            R"({"dp": 2, "tatp": 2, "groups": {"dp": [[0, 2], [1, 3]], "tatp": [[0, 1], [1, 3]]}})"),
        "strategy.groups.tatp[1][0]", "die 1 is already in strategy.groups.tatp[0]");
    expectScenarioError(
        placeLive(
            R"({"dp": 2, "tatp": 2, "groups": {"dp": [[0, 2], [1, 7]], "tatp": [[0, 1], [2, 3]]}})"),
        "strategy.groups.tatp[1][1]", "die 3 is in a TATP group but in no DP group");
    expectScenarioError(
        placeLive(
            R"({"dp": 2, "tatp": 2, "groups": {"dp": [[0, 2], [1, 3]], "tatp": [[0, 1], [2, 16]]}})"),
        "strategy.groups.tatp[1][1]", "die 16 is not on the 4x4 wafer (dies 0 to 15)");
    expectScenarioError(
        placeLive(
            R"({"dp": 2, "tatp": 2, "groups": {"dp": [[0, 2], [1, 3]], "tatp": [[0, 1], [2, 3], [4, 5]]}})"),
        "strategy.groups.tatp", "expected 2 TATP groups (one per DP replica), got 3");
    expectScenarioError(
        placeLive(
            R"({"dp": 2, "tatp": 2, "groups": {"dp": [[0, 2, 4], [1, 3]], "tatp": [[0, 1], [2, 3]]}})"),
        "strategy.groups.dp[0]", "expected 2 dies (dp = 2), got 3");
    expectScenarioError(
        placeLive(
            R"({"dp": 2, "tatp": 2, "groups": {"dp": [[0, 1], [2, 3]], "tatp": [[0, 1], [2, 3]]}})"),
        "strategy.groups.dp[0]", "meets strategy.groups.tatp[0] in 2 dies");
    expectScenarioError(
        placeLive(
            R"({"dp": 2, "tatp": 2, "groups": {"dp": [[0, 3], [1, 2]], "tatp": [[0, 1], [2, 3]]}})"),
        "strategy.groups.dp[0][1]",
        "die 3 is at path position 1 of strategy.groups.tatp[1], but die 0 is at position 0");
    expectScenarioError(placeLive(R"({"dp": 2, "tatp": 2, "groups": {"dp": [[0, 2], [1, 3]]}})"),
                        "strategy.groups.tatp", "missing: with tatp = 2");
}

} // namespace
} // namespace ws
