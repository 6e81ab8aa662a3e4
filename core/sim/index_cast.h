#pragma once

#include <cstddef>

namespace ws {

// A non-negative id (DieId, LinkId, TaskId: ints) as an index into the vectors it names.
// Included by the simulator's .cpp files only, never by a header: other libraries keep their own.
inline std::size_t idx(int id) {
    return static_cast<std::size_t>(id);
}

} // namespace ws
