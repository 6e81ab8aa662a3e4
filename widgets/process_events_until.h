#pragma once

#include <functional>

namespace ws {

// Runs the event loop until `done` returns true (true) or `timeoutMs` milliseconds pass (false).
// For the blocking entry points (--screenshot, tests) that wait on background work whose answer
// arrives through the event loop.
bool processEventsUntil(const std::function<bool()>& done, int timeoutMs);

} // namespace ws
