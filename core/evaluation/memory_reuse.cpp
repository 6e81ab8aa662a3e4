#include "evaluation/memory_reuse.h"

#include <cstdlib> // defines __GLIBC__ with glibc

#if defined(__GLIBC__)
#include <malloc.h>
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

} // namespace

void keepFreedMemoryForReuse() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
    mallopt(M_TRIM_THRESHOLD, kTrimThresholdBytes);
#endif
}

} // namespace ws
