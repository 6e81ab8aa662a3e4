// Linked into every benchmark: they run as the app and the CLI do (app/*_main.cpp), with the
// memory a run frees kept for the next (evaluation/memory_reuse.h). Before main, so before
// Google Benchmark starts any thread.
#include "evaluation/memory_reuse.h"

namespace {

[[maybe_unused]] const bool kMemoryKeptForReuse = (ws::keepFreedMemoryForReuse(), true);

} // namespace
