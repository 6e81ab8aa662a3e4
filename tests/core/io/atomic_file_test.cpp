// writeFileAtomically: the target holds the old content or the new, whole; a failure is a
// FileWriteError naming the target and leaves no temporary file behind.
#include "io/atomic_file.h"
#include "scenario/scenario_error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace ws {
namespace {

namespace fs = std::filesystem;

// A scenario's I/O failure must not be mistaken for bad input (the CLI's exit 2).
static_assert(!std::is_base_of_v<ScenarioError, FileWriteError>);
static_assert(std::is_base_of_v<std::runtime_error, FileWriteError>);

// A fresh, empty directory of this test's own; removed by the destructor.
struct ScratchDirectory {
    fs::path path;
    ScratchDirectory() {
        std::random_device random;
        path = fs::temp_directory_path() / ("waferscope-atomic-file-test-" +
                                            std::to_string(random()) + std::to_string(random()));
        fs::create_directories(path);
    }
    ~ScratchDirectory() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

std::string readText(const fs::path& file) {
    std::ifstream stream(file, std::ios::binary);
    std::ostringstream text;
    text << stream.rdbuf();
    return text.str();
}

std::vector<std::string> entries(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
        names.push_back(entry.path().filename().string());
    return names;
}

TEST(AtomicFile, WritesANewFile) {
    const ScratchDirectory dir;
    const fs::path file = dir.path / "new.json";
    writeFileAtomically(file, "{}\n");
    EXPECT_EQ(readText(file), "{}\n");
    EXPECT_EQ(entries(dir.path), std::vector<std::string>{"new.json"});
}

TEST(AtomicFile, ReplacesTheContentAndLeavesNoTemporaryFile) {
    const ScratchDirectory dir;
    const fs::path file = dir.path / "scenario.json";
    std::ofstream(file) << "old content that is longer than the new one";
    writeFileAtomically(file, "new");
    EXPECT_EQ(readText(file), "new");
    writeFileAtomically(file, "");
    EXPECT_EQ(readText(file), "");
    EXPECT_EQ(entries(dir.path), std::vector<std::string>{"scenario.json"});
}

TEST(AtomicFile, AReplacedFileKeepsItsPermissions) {
    const ScratchDirectory dir;
    const fs::path file = dir.path / "private.json";
    std::ofstream(file) << "old";
    const fs::perms ownerOnly = fs::perms::owner_read | fs::perms::owner_write;
    fs::permissions(file, ownerOnly);
    writeFileAtomically(file, "new");
    EXPECT_EQ(readText(file), "new");
    EXPECT_EQ(fs::status(file).permissions() & fs::perms::all, ownerOnly);
}

TEST(AtomicFile, AMissingDirectoryIsAFileWriteErrorNamingTheTarget) {
    const ScratchDirectory dir;
    const fs::path file = dir.path / "missing" / "out.json";
    try {
        writeFileAtomically(file, "text");
        FAIL() << "no FileWriteError";
    } catch (const FileWriteError& error) {
        EXPECT_EQ(error.path(), file);
        EXPECT_EQ(error.reason(), "No such file or directory");
        EXPECT_EQ(std::string(error.what()),
                  "cannot write " + file.string() + ": No such file or directory");
    }
    EXPECT_TRUE(entries(dir.path).empty()); // no temporary file, no "missing" directory
}

TEST(AtomicFile, AFailedRenameRemovesTheTemporaryFile) {
    const ScratchDirectory dir;
    // A non-empty directory where the file should go: the temporary file is written, the
    // rename over the directory fails.
    const fs::path file = dir.path / "taken";
    fs::create_directories(file / "inside");
    try {
        writeFileAtomically(file, "text");
        FAIL() << "no FileWriteError";
    } catch (const FileWriteError& error) {
        EXPECT_EQ(error.path(), file);
        EXPECT_EQ(std::string(error.what()).rfind("cannot write " + file.string() + ": ", 0), 0u)
            << error.what();
    }
    EXPECT_EQ(entries(dir.path), std::vector<std::string>{"taken"});
    EXPECT_TRUE(fs::is_directory(file / "inside"));
}

} // namespace
} // namespace ws
