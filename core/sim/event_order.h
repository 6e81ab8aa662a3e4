#pragma once

namespace ws {

// Events closer than this fraction of the current time are one batch: floating-point noise must
// not split a symmetric set of finishes (every rank of a ring) into many tiny events, each with its
// own rate solve. Times reported for a batch are its earliest event's time. Both network models
// batch by it (docs/network-model.md sections 2 and 10).
constexpr double kSimultaneousRelTol = 1e-12;

// The order of a min-heap of events under std::push_heap's max-heap: `a` comes after `b` when it
// is later, or at the same time was queued later (`seq`), so equal times pop in queue order.
struct EventAfter {
    template <typename Event> bool operator()(const Event& a, const Event& b) const {
        return a.timeS > b.timeS || (a.timeS == b.timeS && a.seq > b.seq);
    }
};

} // namespace ws
