// The one strict-JSON field reader (io/json_values.h): every reader of the file format accepts,
// refuses and words a value the same way.

#include "io/json_text.h"
#include "io/json_values.h"
#include "io/scenario_io.h"
#include "scenario/scenario_error.h"

#include <gtest/gtest.h>

#include <string>

namespace ws {
namespace {

using nlohmann::json;

std::string problemOf(const std::string& scenarioText) {
    try {
        parseScenario(scenarioText);
    } catch (const ScenarioError& error) {
        return error.what();
    }
    return "no error";
}

TEST(JsonValues, IntegersMayBeWrittenAsIntegralDoubles) {
    EXPECT_EQ(readInteger(json(5), "k"), 5);
    EXPECT_EQ(readInteger(json(5.0), "k"), 5);
    EXPECT_EQ(readInteger(json(-3), "k"), -3);
    EXPECT_EQ(readIntegerInRange(json(9007199254740992.0), "k", 0, INT64_MAX), 9007199254740992);
}

TEST(JsonValues, RefusalsNameThePathAndSayWhatWasExpected) {
    const auto problem = [](auto read) -> std::string {
        try {
            read();
        } catch (const ScenarioError& error) {
            return error.what();
        }
        return "no error";
    };
    EXPECT_EQ(problem([] { readInteger(json(2.5), "a.b"); }), "a.b: expected an integer, got 2.5");
    EXPECT_EQ(problem([] { readInteger(json("2"), "a.b"); }),
              "a.b: expected an integer, got a string");
    EXPECT_EQ(problem([] { readInteger(json(1e300), "a.b"); }),
              "a.b: the integer 1e+300 is too large");
    EXPECT_EQ(problem([] { readIntegerInRange(json(0), "a.b", 1, 256); }),
              "a.b: must be 1 to 256, got 0");
    EXPECT_EQ(problem([] { readIntegerInRange(json(1e300), "a.b", 1, 256); }),
              "a.b: must be 1 to 256, got 1e+300");
    EXPECT_EQ(problem([] { readIntegerInRange(json(18446744073709551615ULL), "a.b", 1, 256); }),
              "a.b: must be 1 to 256, got 18446744073709551615");
    EXPECT_EQ(problem([] { readBoolean(json(1), "a.b"); }),
              "a.b: expected true or false, got an integer");
    EXPECT_EQ(problem([] { readString(json::array(), "a.b"); }),
              "a.b: expected a string, got an array");
    EXPECT_EQ(problem([] {
                  checkKeys(json{{"tatq", 1}}, "strategy", {"tatp", "dp"});
              }),
              "strategy.tatq: unknown key 'tatq'; did you mean 'tatp'?");
}

// The typo of the app's first-run report ("strategy.tapt"): a swap of two letters is one edit,
// so the hint names tatp, not tp.
TEST(JsonValues, ASwapOfTwoLettersIsOneEdit) {
    EXPECT_EQ(editDistance("tapt", "tatp"), 1u);
    EXPECT_EQ(editDistance("tapt", "tp"), 2u);
    EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
    EXPECT_EQ(editDistance("", "abc"), 3u);
    EXPECT_EQ(editDistance("ca", "abc"), 3u); // optimal string alignment: no edit of a swap
}

TEST(JsonValues, ExtensionKeysAreKeptNeverRefused) {
    const json extensions = checkKeys(json{{"dp", 2}, {"x-note", "kept"}}, "strategy", {"dp"});
    EXPECT_EQ(extensions, (json{{"x-note", "kept"}}));
}

// The same mistake in the wafer, the workload and the strategy: the same words.
TEST(JsonValues, EveryReaderWordsTheSameMistakeAlike) {
    const std::string wafer = R"("wafer": {"rows": 2, "cols": 4})";
    const std::string model = R"("workload": {"kind": "transformer", "model": "gpt3-6.7b")";
    EXPECT_EQ(problemOf(R"({"wafer": {"rows": 2.5, "cols": 4}})"),
              "wafer.rows: expected an integer, got 2.5");
    EXPECT_EQ(problemOf("{" + wafer + ", " + model + R"(, "seq_len": 2.5}})"),
              "workload.seq_len: expected an integer, got 2.5");
    EXPECT_EQ(problemOf("{" + wafer + R"(, "strategy": {"micro_batches": 2.5}})"),
              "strategy.micro_batches: expected an integer, got 2.5");

    EXPECT_EQ(problemOf("{" + wafer + R"(, "tcme": {"patience": "3"}})"),
              "tcme.patience: expected an integer, got a string");
    EXPECT_EQ(problemOf("{" + wafer + ", " + model + R"(, "global_batch": "3"}})"),
              "workload.global_batch: expected an integer, got a string");
    EXPECT_EQ(problemOf("{" + wafer + R"(, "strategy": {"dp": "3"}})"),
              "strategy.dp: expected an integer, got a string");

    // Unknown keys: the nearest known one suggested, everywhere.
    EXPECT_EQ(problemOf("{" + wafer + R"(, "stratgy": {}})"),
              "stratgy: unknown key 'stratgy'; did you mean 'strategy'?");
    EXPECT_EQ(problemOf("{" + wafer + ", " + model + R"(, "seq_lne": 2}})"),
              "workload.seq_lne: unknown key 'seq_lne'; did you mean 'seq_len'?");
    EXPECT_EQ(problemOf("{" + wafer + R"(, "strategy": {"tapt": 2}})"),
              "strategy.tapt: unknown key 'tapt'; did you mean 'tatp'?");
}

} // namespace
} // namespace ws
