#include "evaluation/memory_reuse.h"

#include <cstdlib> // defines __GLIBC__ with glibc
#include <fstream>
#include <string>

#if defined(__GLIBC__)
#include <malloc.h>
#include <unistd.h>
#endif

namespace ws {

namespace {

// glibc's largest: blocks above it are still mapped for themselves (and returned when freed).
// Setting it turns off glibc's own adjustment of the threshold, which alone would map and
// unmap every block of a few megabytes (a step's task and flow vectors) on each run.
constexpr int kMmapThresholdBytes = 32 * 1024 * 1024;
// Free memory at the top of a heap beyond this goes back to the kernel (glibc's default:
// 128 KiB, raised to twice the adjusted mmap threshold).
constexpr int kTrimThresholdBytes = 512 * 1024 * 1024;

constexpr const char* kHugePagesTunable = "glibc.malloc.hugetlb=1";

bool sanitized() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    return true;
#else
    return false;
#endif
#else
    return false;
#endif
}

// "always [madvise] never": madvise is what glibc's hugetlb=1 uses, so "never" alone rules it out.
bool kernelOffersHugePages() {
    std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string modes;
    std::getline(file, modes);
    return file && modes.find("[never]") == std::string::npos;
}

} // namespace

void restartWithHugePages(char** argv) {
#if defined(__GLIBC__)
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    const std::string current = tunables != nullptr ? tunables : "";
    if (argv == nullptr || argv[0] == nullptr || sanitized() ||
        current.find("glibc.malloc.hugetlb") != std::string::npos || !kernelOffersHugePages())
        return;
    const std::string wanted =
        current.empty() ? kHugePagesTunable : current + ":" + kHugePagesTunable;
    if (setenv("GLIBC_TUNABLES", wanted.c_str(), 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    // Only reached if exec failed: carry on as we are, without the setting we did not get.
    if (tunables != nullptr)
        setenv("GLIBC_TUNABLES", tunables, 1);
    else
        unsetenv("GLIBC_TUNABLES");
#else
    (void)argv;
#endif
}

void keepFreedMemoryForReuse() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
    mallopt(M_TRIM_THRESHOLD, kTrimThresholdBytes);
#endif
}

} // namespace ws
