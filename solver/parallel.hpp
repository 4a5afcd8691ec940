// A tiny fork-join pool for the step's independent loops.
//
// Determinism by construction: work is split into contiguous index ranges
// and each index writes only its own slot (one contact's manifold, one body's
// state), so the result is the same bit for bit whatever the number of
// workers or the order in which they finish; anything order-dependent
// (events, island links) runs afterwards on the calling thread in index
// order. Threads start on first use and then sleep on a condition variable
// between steps, so a warm step allocates nothing.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace carom::detail {

class WorkerPool {
public:
    WorkerPool() = default;
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;
    ~WorkerPool();

    /// Runs fn(begin, end) over `count` indices split into `workers` ranges;
    /// the calling thread takes the first range. Returns when all are done.
    template <class Fn>
    void run(int workers, int count, Fn& fn) {
        run(workers, count, &invoke<Fn>, &fn);
    }

private:
    using Task = void (*)(void* ctx, int begin, int end);
    template <class Fn>
    static void invoke(void* ctx, int begin, int end) {
        (*static_cast<Fn*>(ctx))(begin, end);
    }
    void run(int workers, int count, Task task, void* ctx);
    void ensureThreads(int count);
    void threadMain(int slot);

    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable done_;
    Task task_ = nullptr;
    void* ctx_ = nullptr;
    int count_ = 0;
    int ranges_ = 0;
    int pending_ = 0;
    unsigned long long generation_ = 0;
    bool quit_ = false;
};

/// Below this many items a loop runs on the calling thread: waking workers
/// costs more than it saves.
inline constexpr int kParallelMinItems = 64;

}  // namespace carom::detail
