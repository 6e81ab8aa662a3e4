// Every file in bad_inputs/ has exactly one problem; EXPECTED.tsv says, per file, a substring
// the error message must contain (its key path and the start of the problem). The CLI test
// runs the same corpus through `waferscope-cli validate` (exit status 2).

#include "io/scenario_io.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace ws {
namespace {

const std::filesystem::path kCorpus =
    std::filesystem::path(WAFERSCOPE_TEST_DATA_DIR) / "bad_inputs";

// Files whose problem only the traffic planner (routes) or the training-step model can see (a
// strategy that does not divide the model, or does not fit the wafer's live dies): the reader
// accepts them. A bad `workload` or `strategy` on its own is the reader's to reject.
bool isPlannerCase(const std::string& file) {
    return file.rfind("planner_", 0) == 0 || file.rfind("step_", 0) == 0;
}

std::vector<std::string> corpusFiles() {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(kCorpus))
        if (entry.path().extension() == ".json")
            files.push_back(entry.path().filename().string());
    std::sort(files.begin(), files.end());
    return files;
}

std::map<std::string, std::string> expectations() {
    std::map<std::string, std::string> expected;
    std::ifstream in(kCorpus / "EXPECTED.tsv");
    std::string line;
    while (std::getline(in, line)) {
        const std::size_t tab = line.find('\t');
        if (line.empty() || tab == std::string::npos)
            continue;
        expected[line.substr(0, tab)] = line.substr(tab + 1);
    }
    return expected;
}

class BadInputTest : public testing::TestWithParam<std::string> {};

TEST_P(BadInputTest, IsRejectedWithItsKeyPath) {
    const std::string file = GetParam();
    const auto expected = expectations();
    const auto it = expected.find(file);
    ASSERT_NE(it, expected.end()) << file << " has no line in EXPECTED.tsv";
    if (isPlannerCase(file)) {
        EXPECT_NO_THROW(loadScenario(kCorpus / file))
            << file << " should pass the reader: only the traffic planner can reject it";
        return;
    }
    try {
        loadScenario(kCorpus / file);
        FAIL() << file << " was accepted";
    } catch (const ScenarioError& error) {
        EXPECT_NE(std::string(error.what()).find(it->second), std::string::npos)
            << file << ": got \"" << error.what() << "\", expected it to contain \"" << it->second
            << "\"";
    }
}

std::string testName(const testing::TestParamInfo<std::string>& info) {
    std::string name = info.param.substr(0, info.param.rfind('.'));
    std::replace_if(
        name.begin(), name.end(),
        [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
    return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadInputTest, testing::ValuesIn(corpusFiles()), testName);

TEST(BadInputCorpus, IsLargeAndEveryExpectationNamesAFile) {
    const std::vector<std::string> files = corpusFiles();
    EXPECT_GE(files.size(), 36u);
    for (const auto& [file, substring] : expectations()) {
        EXPECT_TRUE(std::find(files.begin(), files.end(), file) != files.end())
            << "EXPECTED.tsv names a missing file: " << file;
        EXPECT_FALSE(substring.empty()) << file;
    }
}

} // namespace
} // namespace ws
