#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace ws {

// The points no other point beats in both coordinates, both to be minimised (per-die memory
// and step time): indices into `points`, by ascending first coordinate (so descending second).
// Of equal points the first is kept. O(n log n).
std::vector<std::size_t> paretoFront(const std::vector<std::pair<double, double>>& points);

} // namespace ws
