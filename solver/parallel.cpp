// The fork-join pool (see parallel.hpp).
#include "solver/parallel.hpp"

namespace carom::detail {

WorkerPool::~WorkerPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        quit_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
}

void WorkerPool::ensureThreads(int count) {
    while (int(threads_.size()) < count) {
        const int slot = int(threads_.size()) + 1;  // range 0 belongs to the caller
        threads_.emplace_back([this, slot] { threadMain(slot); });
    }
}

// range r of n items over k ranges: [r·n/k, (r+1)·n/k)
static int rangeStart(int r, int count, int ranges) {
    return int((long long)r * count / ranges);
}

void WorkerPool::threadMain(int slot) {
    unsigned long long seen = 0;
    for (;;) {
        Task task;
        void* ctx;
        int count, ranges;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return quit_ || generation_ != seen; });
            if (quit_) return;
            seen = generation_;
            task = task_, ctx = ctx_, count = count_, ranges = ranges_;
        }
        if (slot < ranges) task(ctx, rangeStart(slot, count, ranges), rangeStart(slot + 1, count, ranges));
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (--pending_ == 0) done_.notify_one();
        }
    }
}

void WorkerPool::run(int workers, int count, Task task, void* ctx) {
    if (workers <= 1 || count < 2 * workers) {
        task(ctx, 0, count);
        return;
    }
    ensureThreads(workers - 1);
    {
        std::lock_guard<std::mutex> lock(mutex_);
        task_ = task, ctx_ = ctx, count_ = count, ranges_ = workers;
        pending_ = int(threads_.size());
        ++generation_;
    }
    wake_.notify_all();
    task(ctx, 0, rangeStart(1, count, workers));
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
}

}  // namespace carom::detail
