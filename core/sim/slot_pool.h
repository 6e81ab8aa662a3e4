#pragma once

#include <cstddef>
#include <vector>

namespace ws {

// Places for the members of a changing set, reused once freed, so that the set is stored as
// densely as its largest size: the simulator keeps the state of the flows sending now (a few
// thousand, even in a problem of millions of flows) in one, where every access hits the cache.
// A member keeps its slot until it is released; slots are handed out last freed first, so the
// same sequence of calls gives the same slots (determinism).
template <class T> class SlotPool {
public:
    // A slot holding `value`.
    int acquire(const T& value) {
        if (m_free.empty()) {
            m_items.push_back(value);
            return static_cast<int>(m_items.size() - 1);
        }
        const int slot = m_free.back();
        m_free.pop_back();
        m_items[index(slot)] = value;
        return slot;
    }
    void release(int slot) { m_free.push_back(slot); }

    T& operator[](int slot) { return m_items[index(slot)]; }
    const T& operator[](int slot) const { return m_items[index(slot)]; }

private:
    static std::size_t index(int slot) { return static_cast<std::size_t>(slot); }

    std::vector<T> m_items; // by slot; a released slot's item is stale until acquired again
    std::vector<int> m_free;
};

} // namespace ws
