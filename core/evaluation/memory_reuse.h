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

// Starts the program again (execv of /proc/self/exe with `argv`) with glibc's malloc asked to
// back its memory with transparent huge pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), once: a
// large step touches a gigabyte in random order (tasks, their dependents, the links' flows),
// and with 4 KiB pages a TLB miss and, the first time, a page fault come with nearly every
// touch. Measured on the 32x32 GPT-3 step: 311,000 page faults -> 3,000, user time 7.8 ->
// 6.0 s (docs/architecture.md, "Memory reuse"). Returns without restarting when glibc's
// tunables already name hugetlb (the restarted program, or a user's own choice), when the
// kernel has transparent huge pages off, under the sanitizers, off glibc, or if exec fails.
// Call it first in main, before any thread starts or anything is written.
void restartWithHugePages(char** argv);

} // namespace ws
