// The worker pool, task dispatch and staged runs (see parallel.hpp).
#include "solver/parallel.hpp"

#include <algorithm>

#include "engine/core/platform.hpp"

namespace carom::detail {

namespace {

// A stage of the solver lasts a few microseconds: spinning that long is
// cheaper than any sleep; past it, yielding lets the thread we wait for run.
// 1 024 rounds (tens of microseconds on a desktop core) rather than 64: each
// yield is a system call and a pass through the scheduler, and with fewer
// rounds the yields became a visible share of a step at 2 workers (compare
// with scripts/ab_bench.sh).
constexpr int kSpinRounds = 1024;
// A wait longer than the spin and this many yields (a serial stage such as a
// long joint pass, or a machine with more threads than cores, where yielding
// threads only steal time from the one we wait for) sleeps (Sleepers).
constexpr int kWaitYields = 16;
// Between tasks a pool thread spins, then yields this many times (the next
// task of a step usually comes within microseconds), then sleeps.
constexpr int kIdleYields = 200;

}  // namespace

void spinWait(int& round) {
    if (round < kSpinRounds) {
        cpuRelax();
        cpuRelax();
    } else {
        std::this_thread::yield();
    }
    ++round;
}

namespace {

// Waits until counter >= target: spin, yield, then sleep; whoever brings the
// counter to target wakes the sleepers (finishBlock).
void waitFor(const std::atomic<int>& counter, int target, Sleepers& sleepers) {
    const auto reached = [&] { return counter.load(std::memory_order_acquire) >= target; };
    for (int round = 0; !reached();) {
        if (round < kSpinRounds + kWaitYields)
            spinWait(round);
        else
            sleepers.sleepUntil(reached);
    }
}

// Counts one finished block; the last one wakes the sleepers of waitFor.
void finishBlock(std::atomic<int>& counter, int target, Sleepers& sleepers) {
    if (counter.fetch_add(1, std::memory_order_acq_rel) + 1 == target) sleepers.wakeAll();
}

}  // namespace

WorkerPool::~WorkerPool() {
    quit_.store(true, std::memory_order_seq_cst);
    gen_.fetch_add(2, std::memory_order_seq_cst);
    sleepers_.wakeAll();
    for (std::thread& t : threads_) t.join();
}

void WorkerPool::ensureThreads(int count) {
    while (int(threads_.size()) < count) {
        const int index = int(threads_.size()) + 1;  // worker 0 is the caller
        threads_.emplace_back([this, index] { threadMain(index); });
    }
}

// ---- BlockClaims -----------------------------------------------------------------

void BlockClaims::begin(int blocks) {
    if (capacity_ < size_t(blocks)) {
        capacity_ = std::max(size_t(blocks), 2 * capacity_);
        slots_ = std::make_unique<std::atomic<uint32_t>[]>(capacity_);
        for (size_t b = 0; b < capacity_; ++b) slots_[b].store(0, std::memory_order_relaxed);
        epoch_ = 0;
    }
    if (++epoch_ == 0) {  // wrapped: no block may look claimed by this run
        for (size_t b = 0; b < capacity_; ++b) slots_[b].store(0, std::memory_order_relaxed);
        epoch_ = 1;
    }
}

// ---- WorkerPool ---------------------------------------------------------------

void WorkerPool::work(int workerIndex) {
    claims_.take(0, blockCount_, workerIndex, workers_, [&](int block) {
        const int begin = block * blockSize_;
        task_(begin, std::min(begin + blockSize_, itemCount_), workerIndex, ctx_);
        finishBlock(done_, blockCount_, sleepers_);
    });
}

void WorkerPool::threadMain(int workerIndex) {
    uint32_t seen = 0;
    for (;;) {
        const auto moved = [&] { return gen_.load(std::memory_order_acquire) != seen; };
        for (int round = 0; !moved();) {
            if (round < kSpinRounds + kIdleYields)
                spinWait(round);
            else
                sleepers_.sleepUntil(moved);
        }
        const uint32_t g = gen_.load(std::memory_order_acquire);
        if (quit_.load(std::memory_order_seq_cst)) return;
        seen = g;
        if ((g & 1u) == 0) continue;  // a task was closed: nothing to do
        // Enter, then check the task is still the one seen: finish() closes
        // it (gen_ + 1) before waiting for inside_ to fall to zero, so a
        // thread either sees the close here or is waited for (both seq_cst).
        inside_.fetch_add(1, std::memory_order_seq_cst);
        if (gen_.load(std::memory_order_seq_cst) == g) work(workerIndex);
        inside_.fetch_sub(1, std::memory_order_release);
    }
}

void* WorkerPool::enqueue(TaskFn* task, int itemCount, int minRange, void* taskContext,
                          int workers) {
    if (itemCount <= 0) return nullptr;
    const int range = std::max(minRange, 1);
    // Without threads (CAROM_HAS_THREADS: a WebAssembly build without
    // pthreads) every task runs here, on the calling thread: a staged run's
    // participants then follow one another and the first completes every
    // stage, the same work and the same state as with threads.
    if (!CAROM_HAS_THREADS || workers <= 1 || open_) {
        task(0, itemCount, 0, taskContext);
        return nullptr;
    }
    ensureThreads(workers - 1);
    task_ = task;
    ctx_ = taskContext;
    itemCount_ = itemCount;
    blockSize_ = range;
    blockCount_ = (itemCount + range - 1) / range;
    workers_ = workers;
    claims_.begin(blockCount_);
    done_.store(0, std::memory_order_relaxed);
    open_ = true;
    gen_.fetch_add(1, std::memory_order_seq_cst);  // odd: open; publishes the fields above
    sleepers_.wakeAll();
    return this;
}

void WorkerPool::finish(void* handle) {
    if (handle == nullptr) return;
    work(0);
    waitFor(done_, blockCount_, sleepers_);
    gen_.fetch_add(1, std::memory_order_seq_cst);  // even: closed
    for (int round = 0; inside_.load(std::memory_order_seq_cst) != 0;) spinWait(round);
    open_ = false;
}

// ---- TaskDispatch ---------------------------------------------------------------

void* TaskDispatch::enqueueTask(TaskFn* task, int itemCount, int minRange,
                                void* taskContext) const {
    if (enqueue != nullptr) return enqueue(task, itemCount, minRange, taskContext, userContext);
    return pool->enqueue(task, itemCount, minRange, taskContext, workers);
}

void TaskDispatch::finishTask(void* handle) const {
    if (handle == nullptr) return;
    if (finish != nullptr)
        finish(handle, userContext);
    else
        pool->finish(handle);
}

// ---- StagePlan ----------------------------------------------------------------

void StagePlan::add(int kind, int arg, int begin, int count, int minBlock, int maxBlocks) {
    if (count <= 0) return;
    Stage s;
    s.kind = kind;
    s.arg = arg;
    s.begin = begin;
    s.count = count;
    const int blocks = std::clamp(count / std::max(minBlock, 1), 1, std::max(maxBlocks, 1));
    s.blockSize = (count + blocks - 1) / blocks;
    s.blockCount = (count + s.blockSize - 1) / s.blockSize;
    stages_.push_back(s);
}

void StagePlan::participantTask(int begin, int end, int workerIndex, void* self) {
    for (int i = begin; i < end; ++i) static_cast<StagePlan*>(self)->participate(workerIndex);
}

// me: the worker's index (the caller is 0), so that a worker takes the same
// part of the stages as of the pool's loops over the bodies (BlockClaims).
void StagePlan::participate(int me) {
    if (sideJob_ != nullptr && !sideTaken_.exchange(true, std::memory_order_acq_rel))
        sideJob_(sideCtx_);
    const size_t n = stages_.size();
    for (size_t i = 0; i < n; ++i) {
        const Stage& s = stages_[i];
        Sync& sync = sync_[i];
        if (sync.done.load(std::memory_order_acquire) == s.blockCount) continue;  // a late arrival
        claims_.take(blockBase_[i], s.blockCount, me, participants_, [&](int block) {
            const int begin = s.begin + block * s.blockSize;
            exec_(ctx_, s, begin, std::min(begin + s.blockSize, s.begin + s.count));
            finishBlock(sync.done, s.blockCount, sleepers_);
        });
        waitFor(sync.done, s.blockCount, sleepers_);
    }
}

void StagePlan::run(const TaskDispatch& dispatch, Exec exec, void* ctx) {
    exec_ = exec;
    ctx_ = ctx;
    struct ClearSide {  // the side job is for this run only, even if a stage throws
        StagePlan& plan;
        ~ClearSide() { plan.sideJob_ = nullptr; }
    } clearSide{*this};
    if (dispatch.workers <= 1) {
        if (sideJob_ != nullptr) sideJob_(sideCtx_);
        for (const Stage& s : stages_) exec(ctx, s, s.begin, s.begin + s.count);
        return;
    }
    sideTaken_.store(false, std::memory_order_relaxed);
    if (syncCapacity_ < stages_.size()) {
        syncCapacity_ = std::max(stages_.size(), 2 * syncCapacity_);
        sync_ = std::make_unique<Sync[]>(syncCapacity_);
    }
    blockBase_.resize(stages_.size());
    size_t blocks = 0;
    for (size_t i = 0; i < stages_.size(); ++i) {
        sync_[i].done.store(0, std::memory_order_relaxed);
        blockBase_[i] = int(blocks);
        blocks += size_t(stages_[i].blockCount);
    }
    claims_.begin(int(blocks));
    participants_ = dispatch.workers;
    // The enqueue publishes the plan and the reset counters to the participants.
    void* handle = dispatch.enqueueTask(&participantTask, dispatch.workers - 1, 1, this);
    participate(0);
    dispatch.finishTask(handle);
}

}  // namespace carom::detail
