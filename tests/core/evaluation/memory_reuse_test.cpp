// restartWithHugePages (core/evaluation/memory_reuse.h): the program starts again once, with
// glibc's hugetlb tunable added to what the user set, and never loops. The restart replaces the
// process, so the test forks a child that restarts this test binary into a probe test (disabled,
// so it only runs when asked for by name); the probe writes down the environment it got.
#include "evaluation/memory_reuse.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace ws {
namespace {

constexpr const char* kProbeFileVariable = "WAFERSCOPE_HUGE_PAGES_PROBE";

bool restartExpected() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    return false;
#endif
#endif
    std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string modes;
    std::getline(file, modes);
    return file && modes.find("[never]") == std::string::npos;
}

std::string readFile(const std::filesystem::path& path) {
    std::ifstream stream(path);
    std::ostringstream text;
    text << stream.rdbuf();
    return text.str();
}

// Runs restartWithHugePages in a child with GLIBC_TUNABLES = `tunables` (unset if null). Returns
// what the restarted probe wrote ("" if it never ran) and sets `status` to the child's exit
// status: 0 when the probe ran, 3 when restartWithHugePages returned instead.
std::string restartInChild(const char* tunables, int& status) {
    const std::filesystem::path probe = std::filesystem::temp_directory_path() /
                                        ("waferscope_huge_pages_" + std::to_string(::getpid()));
    std::filesystem::remove(probe);
    const pid_t child = ::fork();
    if (child == 0) {
        if (tunables != nullptr)
            ::setenv("GLIBC_TUNABLES", tunables, 1);
        else
            ::unsetenv("GLIBC_TUNABLES");
        ::setenv(kProbeFileVariable, probe.c_str(), 1);
        char self[] = "memory_reuse_test";
        char filter[] = "--gtest_filter=MemoryReuseProbe.DISABLED_WritesItsEnvironment";
        char disabled[] = "--gtest_also_run_disabled_tests";
        char* argv[] = {self, filter, disabled, nullptr};
        restartWithHugePages(argv);
        ::_exit(3);
    }
    int raw = 0;
    ::waitpid(child, &raw, 0);
    status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    const std::string written = std::filesystem::exists(probe) ? readFile(probe) : "";
    std::filesystem::remove(probe);
    return written;
}

TEST(MemoryReuse, TheProgramRestartsOnceWithHugePages) {
    int status = -1;
    const std::string environment = restartInChild(nullptr, status);
    if (!restartExpected()) {
        EXPECT_EQ(status, 3); // sanitizers or a kernel without huge pages: no restart
        return;
    }
    EXPECT_EQ(status, 0);
    EXPECT_EQ(environment, "glibc.malloc.hugetlb=1");
}

TEST(MemoryReuse, TheUsersTunablesAreKept) {
    int status = -1;
    const std::string environment = restartInChild("glibc.malloc.tcache_count=0", status);
    if (!restartExpected())
        return;
    EXPECT_EQ(status, 0);
    EXPECT_EQ(environment, "glibc.malloc.tcache_count=0:glibc.malloc.hugetlb=1");
}

TEST(MemoryReuse, AUsersOwnHugePagesSettingIsLeftAlone) {
    int status = -1;
    const std::string environment = restartInChild("glibc.malloc.hugetlb=0", status);
    EXPECT_EQ(status, 3);
    EXPECT_EQ(environment, "");
}

// Runs only in the restarted child: it asks for a restart again (which must not happen: the
// tunable is set now) and writes down the tunables it was started with.
TEST(MemoryReuseProbe, DISABLED_WritesItsEnvironment) {
    char self[] = "memory_reuse_test";
    char* argv[] = {self, nullptr};
    restartWithHugePages(argv);
    const char* probe = std::getenv(kProbeFileVariable);
    ASSERT_NE(probe, nullptr);
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    std::ofstream(probe) << (tunables != nullptr ? tunables : "(unset)");
}

} // namespace
} // namespace ws
