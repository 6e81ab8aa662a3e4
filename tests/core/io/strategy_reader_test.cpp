#include "io/strategy_reader.h"
#include "scenario/strategy_spec.h"
#include "strategy/strategy_test_support.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

using nlohmann::json;
using test::expectScenarioError;

TEST(StrategySpec, DefaultsAreOneDieSequentialBidirectional) {
    const StrategySpec spec = parseStrategy(json::object());
    EXPECT_EQ(spec, StrategySpec{});
    EXPECT_EQ(spec.dieCount(), 1);
    EXPECT_EQ(spec.tatpSchedule, TatpSchedule::Bidirectional);
    EXPECT_TRUE(spec.doubleBuffering);
    EXPECT_EQ(spec.mapping, StrategySpec::Sequential);
}

TEST(StrategySpec, ParsesEveryKey) {
    const StrategySpec spec = parseStrategy(json::parse(R"({
        "dp": 2, "sp": 3, "tp": 4.0, "tatp": 8, "fsdp": true, "tatp_schedule": "ring",
        "double_buffering": false, "mapping": "snake", "activation_checkpointing": true,
        "micro_batches": 4, "x-note": {"by": "gui"}})"));
    EXPECT_EQ(spec.dp, 2);
    EXPECT_EQ(spec.sp, 3);
    EXPECT_EQ(spec.tp, 4);
    EXPECT_EQ(spec.tatp, 8);
    EXPECT_EQ(spec.dieCount(), 192);
    EXPECT_TRUE(spec.fsdp);
    EXPECT_EQ(spec.tatpSchedule, TatpSchedule::Ring);
    EXPECT_FALSE(spec.doubleBuffering);
    EXPECT_EQ(spec.mapping, StrategySpec::MappingKind::Snake);
    EXPECT_EQ(spec.activationCheckpointing, Checkpointing::Full);
    EXPECT_FALSE(spec.sequenceParallel);
    EXPECT_EQ(spec.microBatches, 4);
    EXPECT_EQ(spec.extensions, json::parse(R"({"x-note": {"by": "gui"}})"));
}

// docs/training-model.md `strategy`: true / false as before, and the names of Korthikanti et al.
TEST(StrategySpec, ReadsEveryCheckpointingSpelling) {
    const auto read = [](const json& value) {
        return parseStrategy(json{{"activation_checkpointing", value}}).activationCheckpointing;
    };
    EXPECT_EQ(read(true), Checkpointing::Full);
    EXPECT_EQ(read(false), Checkpointing::None);
    EXPECT_EQ(read("full"), Checkpointing::Full);
    EXPECT_EQ(read("selective"), Checkpointing::Selective);
    EXPECT_EQ(read("none"), Checkpointing::None);
    EXPECT_EQ(parseStrategy(json::object()).activationCheckpointing, Checkpointing::None);
    for (Checkpointing value : {Checkpointing::None, Checkpointing::Selective, Checkpointing::Full})
        EXPECT_EQ(checkpointingFromString(toString(value)), value);
    EXPECT_FALSE(checkpointingFromString("Full"));
}

TEST(StrategySpec, RejectsAnUnknownCheckpointingNamingTheKeyAndTheValues) {
    const auto parse = [](const char* text) { return [=] { parseStrategy(json::parse(text)); }; };
    const std::string message = expectScenarioError(
        parse(R"({"activation_checkpointing": "partial"})"), "strategy.activation_checkpointing",
        "unknown checkpointing 'partial'; expected one of none, selective, full");
    EXPECT_NE(message.find("true for full, false for none"), std::string::npos) << message;
    expectScenarioError(parse(R"({"activation_checkpointing": "selectve"})"),
                        "strategy.activation_checkpointing", "did you mean 'selective'?");
    expectScenarioError(parse(R"({"activation_checkpointing": 1})"),
                        "strategy.activation_checkpointing",
                        "expected true, false, \"none\", \"selective\" or \"full\", got an "
                        "integer");
}

// Megatron's sequence parallelism splits what a TP group would replicate: refused with tp 1.
TEST(StrategySpec, SequenceParallelNeedsTensorParallelism) {
    const auto parse = [](const char* text) { return [=] { parseStrategy(json::parse(text)); }; };
    expectScenarioError(parse(R"({"sequence_parallel": true})"), "strategy.sequence_parallel",
                        "needs tp > 1");
    expectScenarioError(parse(R"({"dp": 8, "tp": 1, "sequence_parallel": true})"),
                        "strategy.sequence_parallel", "tp is 1");
    expectScenarioError(parse(R"({"tp": 2, "sequence_parallel": "yes"})"),
                        "strategy.sequence_parallel", "expected true or false, got a string");
    EXPECT_TRUE(
        parseStrategy(json::parse(R"({"tp": 2, "sequence_parallel": true})")).sequenceParallel);
    EXPECT_FALSE(parseStrategy(json::parse(R"({"sequence_parallel": false})")).sequenceParallel);
}

// The writer writes false / true for none / full, as files did before "selective" existed, and
// sequence_parallel only when it is on, so a file without either round-trips byte for byte.
TEST(StrategySpec, WritesEachCheckpointingAndSequenceParallelAsRead) {
    StrategySpec spec;
    spec.tp = 4;
    EXPECT_EQ(toJson(spec)["activation_checkpointing"], json(false));
    EXPECT_FALSE(toJson(spec).contains("sequence_parallel"));
    spec.activationCheckpointing = Checkpointing::Full;
    EXPECT_EQ(toJson(spec)["activation_checkpointing"], json(true));
    EXPECT_EQ(parseStrategy(toJson(spec)), spec);
    spec.activationCheckpointing = Checkpointing::Selective;
    spec.sequenceParallel = true;
    const json written = toJson(spec);
    EXPECT_EQ(written["activation_checkpointing"], "selective");
    EXPECT_EQ(written["sequence_parallel"], json(true));
    EXPECT_EQ(parseStrategy(written), spec);
    // In the documented order: sequence_parallel after activation_checkpointing, x- keys last.
    spec.extensions["x-note"] = "megatron-3";
    const std::string text = toOrderedJson(spec).dump();
    EXPECT_LT(text.find("\"activation_checkpointing\""), text.find("\"sequence_parallel\""));
    EXPECT_LT(text.find("\"sequence_parallel\""), text.find("\"x-note\""));
    spec.activationCheckpointing = Checkpointing::None;
    EXPECT_EQ(parseStrategy(toJson(spec)), spec);
}

TEST(StrategySpec, GroupsImplyTheExplicitMapping) {
    const StrategySpec spec = parseStrategy(json::parse(
        R"({"dp": 2, "tatp": 2, "groups": {"dp": [[0, 2], [1, 3]], "tatp": [[0, 1], [2, 3]]}})"));
    EXPECT_EQ(spec.mapping, StrategySpec::Explicit);
    EXPECT_EQ(spec.dpGroups, (std::vector<std::vector<DieId>>{{0, 2}, {1, 3}}));
    EXPECT_EQ(spec.tatpGroups, (std::vector<std::vector<DieId>>{{0, 1}, {2, 3}}));
    const StrategySpec written = parseStrategy(
        json::parse(R"({"dp": 2, "mapping": "explicit", "groups": {"dp": [[0, 2]]}})"));
    EXPECT_EQ(written.mapping, StrategySpec::Explicit);
    EXPECT_TRUE(written.tatpGroups.empty());
}

TEST(StrategySpec, RoundTripsThroughJson) {
    StrategySpec snake;
    snake.dp = 6;
    snake.tatp = 8;
    snake.fsdp = true;
    snake.mapping = StrategySpec::Snake;
    snake.microBatches = 2;
    snake.extensions["x-colour"] = "blue";
    EXPECT_EQ(parseStrategy(toJson(snake)), snake);
    EXPECT_EQ(toJson(snake)["mapping"], "snake");

    StrategySpec drawn;
    drawn.dp = 2;
    drawn.tatp = 2;
    drawn.tatpSchedule = TatpSchedule::Ring;
    drawn.mapping = StrategySpec::Explicit;
    drawn.dpGroups = {{0, 2}, {1, 3}};
    drawn.tatpGroups = {{0, 1}, {2, 3}};
    const json written = toJson(drawn);
    EXPECT_FALSE(written.contains("mapping"));
    EXPECT_EQ(written["groups"],
              json::parse(R"({"dp": [[0, 2], [1, 3]], "tatp": [[0, 1], [2, 3]]})"));
    EXPECT_EQ(written["tatp_schedule"], "ring");
    EXPECT_EQ(parseStrategy(written), drawn);
}

TEST(StrategySpec, RejectsBadInputAtItsKey) {
    const auto parse = [](const char* text) { return [=] { parseStrategy(json::parse(text)); }; };
    expectScenarioError(parse("[]"), "strategy", "expected an object, got an array");
    expectScenarioError(parse(R"({"tpp": 2})"), "strategy.tpp", "unknown key 'tpp'");
    expectScenarioError(parse(R"({"tp": 0})"), "strategy.tp", "must be a positive integer, got 0");
    expectScenarioError(parse(R"({"dp": -2})"), "strategy.dp", "must be a positive integer");
    expectScenarioError(parse(R"({"tatp": 2.5})"), "strategy.tatp", "expected an integer, got 2.5");
    expectScenarioError(parse(R"({"sp": "2"})"), "strategy.sp",
                        "expected an integer, got a string");
    expectScenarioError(parse(R"({"micro_batches": 0})"), "strategy.micro_batches",
                        "must be a positive integer");
    expectScenarioError(parse(R"({"fsdp": 1})"), "strategy.fsdp", "expected true or false");
    expectScenarioError(parse(R"({"tatp_schedule": "relay"})"), "strategy.tatp_schedule",
                        "unknown schedule 'relay'");
    expectScenarioError(parse(R"({"mapping": "gemini"})"), "strategy.mapping",
                        "unknown mapping 'gemini'");
    expectScenarioError(parse(R"({"dp": 256, "tatp": 512})"), "strategy",
                        "dp*sp*tp*tatp = 131072 dies, more than the largest wafer");
    expectScenarioError(parse(R"({"mapping": "snake", "groups": {"dp": [[0]]}})"),
                        "strategy.mapping", "conflicts with `groups`");
    expectScenarioError(parse(R"({"mapping": "explicit"})"), "strategy.groups", "needs `groups`");
    expectScenarioError(parse(R"({"groups": [[0, 1]]})"), "strategy.groups", "expected an object");
    expectScenarioError(parse(R"({"groups": {"tp": [[0, 1]]}})"), "strategy.groups.tp",
                        "unknown key 'tp'");
    expectScenarioError(parse(R"({"groups": {}})"), "strategy.groups",
                        "needs \"dp\" or \"tatp\" groups");
    expectScenarioError(parse(R"({"groups": {"tatp": [[0, 1], 2]}})"), "strategy.groups.tatp[1]",
                        "expected an array of die ids");
    expectScenarioError(parse(R"({"groups": {"tatp": [[0, -1]]}})"), "strategy.groups.tatp[0][1]",
                        "die -1 is not a die id");
    expectScenarioError(parse(R"({"groups": {"dp": [[]]}})"), "strategy.groups.dp[0]",
                        "at least one die");
    expectScenarioError(parse(R"({"pp": 0})"), "strategy.pp", "must be a positive integer, got 0");
    expectScenarioError(parse(R"({"pp": 4, "dp": 256, "tatp": 128})"), "strategy",
                        "pp*dp*sp*tp*tatp = 131072 dies");
    expectScenarioError(parse(R"({"pp": 2, "groups": {"tatp": [[0, 1]]}})"), "strategy.pp",
                        "placed by the \"sequential\" or \"snake\" mapping");
}

// Pipeline stages: written only above 1, so files without them keep their text.
TEST(StrategySpec, PipelineStagesRoundTripAndAreWrittenOnlyAboveOne) {
    StrategySpec spec;
    EXPECT_FALSE(toJson(spec).contains("pp"));
    spec.pp = 4;
    spec.dp = 6;
    EXPECT_EQ(toJson(spec)["pp"], 4);
    EXPECT_EQ(parseStrategy(toJson(spec)), spec);
    EXPECT_EQ(spec.dieCount(), 24);
    EXPECT_EQ(spec.stageDieCount(), 6);
}

} // namespace
} // namespace ws
