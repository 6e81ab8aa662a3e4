#pragma once

#include <cstddef>
#include <vector>

namespace ws {

// A binary min-heap of ids 0..capacity-1, each present at most once with a double key, ordered by
// (key, id) so that equal keys pop in id order (determinism). Keys can be changed in place, so
// the heap never holds stale entries: the simulator keeps one entry per active flow keyed by its
// projected last-byte time and updates it whenever the flow's rate changes.
// Each entry keeps its key beside its id, so sifting reads the heap array alone (a few thousand
// entries) rather than a key array as long as the problem's tasks; by id only the position is kept.
// Invariant: m_pos[id] is the index of id's entry in m_heap, or kAbsent.
class IndexedMinHeap {
public:
    explicit IndexedMinHeap(std::size_t capacity = 0) { reset(capacity); }

    // Capacity never written is never mapped: reserving for every id keeps set() from
    // allocating in the event loop at no cost in memory.
    void reset(std::size_t capacity) {
        m_heap.clear();
        m_heap.reserve(capacity);
        m_pos.assign(capacity, kAbsent);
    }

    bool empty() const { return m_heap.empty(); }
    std::size_t size() const { return m_heap.size(); }
    bool contains(int id) const { return m_pos[index(id)] != kAbsent; }
    int topId() const { return m_heap.front().id; }
    double topKey() const { return m_heap.front().key; }

    // Inserts id with `key`, or moves it to `key` if it is already present.
    void set(int id, double key) {
        const std::size_t i = index(id);
        if (m_pos[i] == kAbsent) {
            m_heap.push_back({key, id});
            siftUp(m_heap.size() - 1);
            return;
        }
        const std::size_t at = m_pos[i];
        const double old = m_heap[at].key;
        m_heap[at].key = key;
        if (key < old) {
            siftUp(at);
        } else {
            siftDown(at);
        }
    }

    void erase(int id) {
        const std::size_t i = index(id);
        const std::size_t at = m_pos[i];
        if (at == kAbsent) {
            return;
        }
        const Entry last = m_heap.back();
        m_heap.pop_back();
        m_pos[i] = kAbsent;
        if (last.id == id) {
            return;
        }
        m_heap[at] = last;
        m_pos[index(last.id)] = static_cast<unsigned>(at);
        siftUp(at);
        siftDown(m_pos[index(last.id)]);
    }

    void pop() { erase(m_heap.front().id); }

private:
    struct Entry {
        double key;
        int id;
    };

    static constexpr unsigned kAbsent = static_cast<unsigned>(-1);
    static std::size_t index(int id) { return static_cast<std::size_t>(id); }
    static bool less(const Entry& a, const Entry& b) {
        return a.key < b.key || (a.key == b.key && a.id < b.id);
    }
    void place(std::size_t at, const Entry& entry) {
        m_heap[at] = entry;
        m_pos[index(entry.id)] = static_cast<unsigned>(at);
    }
    void siftUp(std::size_t at) {
        const Entry entry = m_heap[at];
        while (at > 0) {
            const std::size_t parent = (at - 1) / 2;
            if (!less(entry, m_heap[parent])) {
                break;
            }
            place(at, m_heap[parent]);
            at = parent;
        }
        place(at, entry);
    }
    void siftDown(std::size_t at) {
        const Entry entry = m_heap[at];
        const std::size_t n = m_heap.size();
        while (true) {
            std::size_t child = 2 * at + 1;
            if (child >= n) {
                break;
            }
            if (child + 1 < n && less(m_heap[child + 1], m_heap[child])) {
                ++child;
            }
            if (!less(m_heap[child], entry)) {
                break;
            }
            place(at, m_heap[child]);
            at = child;
        }
        place(at, entry);
    }

    std::vector<Entry> m_heap;   // heap-ordered by (key, id)
    std::vector<unsigned> m_pos; // by id: index in m_heap or kAbsent
};

} // namespace ws
