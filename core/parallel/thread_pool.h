#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ws {

// A small fixed pool of std::threads for data-parallel loops. parallelFor(n, body) runs body(i)
// for every i in [0, n) on the pool's workers and the calling thread, and returns when all are
// done; the first exception thrown by a body is rethrown in the caller. Which thread runs which
// index is unspecified, so bodies must only write to their own slot i: results are then the
// same whatever the thread count.
class ThreadPool {
public:
    // threads <= 0: std::thread::hardware_concurrency(). The caller counts as one thread, so a
    // pool of 1 starts no worker.
    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int threadCount() const { return static_cast<int>(m_workers.size()) + 1; }

    void parallelFor(int count, const std::function<void(int)>& body);

private:
    void workerLoop();
    void runIndices();

    std::vector<std::thread> m_workers;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    const std::function<void(int)>* m_body = nullptr; // the job; guarded by m_mutex
    int m_count = 0;
    int m_next = 0;       // next index to hand out
    int m_finished = 0;   // indices finished
    int m_generation = 0; // bumped per job so that workers see each job once
    bool m_stop = false;
    std::exception_ptr m_error;
};

} // namespace ws
