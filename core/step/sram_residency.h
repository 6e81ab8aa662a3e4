#pragma once

#include "step/sram_use.h"
#include "step/step_plan.h"

namespace ws {

// The residency pass (docs/compute-model.md section 4): sets every compute task's HBM bytes
// (PlannedGemm::firstHbmBytes and roundHbmBytes, PlannedElementwise::hbmBytes) from the tensors
// it reads and writes, under one set of rules for every strategy.
//
// - Usable SRAM is sram x (1 - sram_reserve). When everything a die holds fits in it
//   (plan.sramResident), no task moves an HBM byte.
// - Otherwise the die's persistent state (weights, gradients, optimizer state) and the stash of
//   saved activations live in HBM: every read and write of them is HBM traffic. A forward
//   activation that backward reads again is written to the stash once.
// - Activations pass from task to task in SRAM while they fit: walking each section in the
//   die's order, a tensor a task writes stays resident until its last reader when it fits beside
//   the resident tensors and the task's working set; otherwise it is written to HBM and every
//   reader reads it from there. A tensor read before any write in its section comes from the
//   layer before (the residual stream into the window's first layer, the head's input): it is
//   resident when it fits. A collective's result lands in SRAM when it fits, in HBM otherwise.
// - A task's working set comes first: to make room for it, resident tensors it does not read
//   are evicted, the one read furthest ahead first, and written to HBM if they are not there.
// - The working set of a GEMM of one block product is the smaller of its inputs not in SRAM (it
//   keeps a part of it and streams the other input past); when that does not fit, the larger
//   input is read again for every SRAM-sized part of the smaller. The working set of a stream
//   (TATP's, or TP's under tp_overlap) is its stationary block (PlannedGemm::stationary, when
//   not already resident) and the stream buffers (two neighbours, doubled by double
//   buffering); when that does not fit, every later round reads the stationary block again,
//   and when the buffers alone do not fit, every later round also reads its streamed block
//   from HBM, where it landed.
// - A GEMM's output is written once in all: per round under TATP, a 1/n part.
//
// `dtypeBytes` sizes the smallest part a GEMM can keep (three tiles of die.gemm_tile). Returns
// what it found; `doubleBuffered` is the buffering the streams run with.
SramUse assignHbmBytes(StepPlan& plan, const DieSpec& die, int dtypeBytes, bool doubleBuffered);

} // namespace ws
