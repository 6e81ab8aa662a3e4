#pragma once

#include <cstddef>
#include <limits>
#include <vector>

namespace ws {

// A binary min-heap of ids 0..capacity-1, each present at most once with a double key, ordered by
// (key, id) so that equal keys pop in id order (determinism). Keys can be changed in place, so
// the heap never holds stale entries: the simulator keeps one entry per active flow keyed by its
// projected last-byte time and updates it whenever the flow's rate changes.
// Invariant: m_pos[id] is the index of id in m_heap, or kAbsent.
class IndexedMinHeap {
public:
    explicit IndexedMinHeap(std::size_t capacity = 0) { reset(capacity); }

    void reset(std::size_t capacity) {
        m_heap.clear();
        m_heap.reserve(capacity);
        m_key.assign(capacity, std::numeric_limits<double>::infinity());
        m_pos.assign(capacity, kAbsent);
    }

    bool empty() const { return m_heap.empty(); }
    std::size_t size() const { return m_heap.size(); }
    bool contains(int id) const { return m_pos[index(id)] != kAbsent; }
    int topId() const { return m_heap.front(); }
    double topKey() const { return m_key[index(m_heap.front())]; }

    // Inserts id with `key`, or moves it to `key` if it is already present.
    void set(int id, double key) {
        const std::size_t i = index(id);
        if (m_pos[i] == kAbsent) {
            m_key[i] = key;
            m_pos[i] = m_heap.size();
            m_heap.push_back(id);
            siftUp(m_pos[i]);
            return;
        }
        const double old = m_key[i];
        m_key[i] = key;
        if (key < old) {
            siftUp(m_pos[i]);
        } else {
            siftDown(m_pos[i]);
        }
    }

    void erase(int id) {
        const std::size_t i = index(id);
        const std::size_t at = m_pos[i];
        if (at == kAbsent) {
            return;
        }
        const int last = m_heap.back();
        m_heap.pop_back();
        m_pos[i] = kAbsent;
        if (last == id) {
            return;
        }
        m_heap[at] = last;
        m_pos[index(last)] = at;
        siftUp(at);
        siftDown(m_pos[index(last)]);
    }

    void pop() { erase(m_heap.front()); }

private:
    static constexpr std::size_t kAbsent = static_cast<std::size_t>(-1);
    static std::size_t index(int id) { return static_cast<std::size_t>(id); }

    bool less(int a, int b) const {
        const double ka = m_key[index(a)];
        const double kb = m_key[index(b)];
        return ka < kb || (ka == kb && a < b);
    }

    void place(std::size_t at, int id) {
        m_heap[at] = id;
        m_pos[index(id)] = at;
    }

    void siftUp(std::size_t at) {
        const int id = m_heap[at];
        while (at > 0) {
            const std::size_t parent = (at - 1) / 2;
            if (!less(id, m_heap[parent])) {
                break;
            }
            place(at, m_heap[parent]);
            at = parent;
        }
        place(at, id);
    }

    void siftDown(std::size_t at) {
        const int id = m_heap[at];
        const std::size_t n = m_heap.size();
        while (true) {
            std::size_t child = 2 * at + 1;
            if (child >= n) {
                break;
            }
            if (child + 1 < n && less(m_heap[child + 1], m_heap[child])) {
                ++child;
            }
            if (!less(m_heap[child], id)) {
                break;
            }
            place(at, m_heap[child]);
            at = child;
        }
        place(at, id);
    }

    std::vector<int> m_heap;        // ids, heap-ordered by (key, id)
    std::vector<double> m_key;      // by id
    std::vector<std::size_t> m_pos; // by id: index in m_heap or kAbsent
};

} // namespace ws
