#include "parallel/thread_pool.h"

#include <algorithm>

namespace ws {

ThreadPool::ThreadPool(int threads) {
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    for (int i = 1; i < threads; ++i)
        m_workers.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread& worker : m_workers)
        worker.join();
}

void ThreadPool::parallelFor(int count, const std::function<void(int)>& body) {
    if (count <= 0)
        return;
    {
        std::lock_guard lock(m_mutex);
        m_body = &body;
        m_count = count;
        m_next = 0;
        m_finished = 0;
        m_error = nullptr;
        ++m_generation;
    }
    m_wake.notify_all();
    runIndices();
    std::unique_lock lock(m_mutex);
    m_done.wait(lock, [&] { return m_finished == m_count; });
    m_body = nullptr;
    if (m_error)
        std::rethrow_exception(m_error);
}

void ThreadPool::runIndices() {
    std::unique_lock lock(m_mutex);
    while (m_body && m_next < m_count) {
        const int index = m_next++;
        const std::function<void(int)>* body = m_body;
        lock.unlock();
        std::exception_ptr error;
        try {
            (*body)(index);
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        if (error && !m_error)
            m_error = error;
        if (++m_finished == m_count)
            m_done.notify_all();
    }
}

void ThreadPool::workerLoop() {
    int seen = 0;
    std::unique_lock lock(m_mutex);
    while (true) {
        m_wake.wait(lock, [&] { return m_stop || (m_generation != seen && m_body); });
        if (m_stop)
            return;
        seen = m_generation;
        lock.unlock();
        runIndices();
        lock.lock();
    }
}

} // namespace ws
