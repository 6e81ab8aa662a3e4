#pragma once

namespace ws {

// Lets the process keep the memory a run frees for the next run, instead of handing it back to
// the kernel at once. A program that builds and simulates one large step after another (TCME's
// candidates, the app's re-runs, a sweep) otherwise pays a page fault for every 4 KiB it
// touches again: measured at 60% of the time to build the 6x8 GPT-3 step on our CI machine
// (docs/architecture.md, "Memory reuse"). What is kept is reused, not leaked: the peak resident
// size is unchanged, and at most kTrimThresholdBytes above it stay mapped once freed.
// Process-wide (glibc's mallopt; a no-op elsewhere and under the sanitizers' allocators): call
// it once at the start of a program, before any thread starts.
void keepFreedMemoryForReuse();

} // namespace ws
