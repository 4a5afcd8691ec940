// Parallel work of the step: a lock-free worker pool, the dispatch to a
// game's own task system, and staged runs for the solver.
//
// Determinism by construction: work is split into contiguous index ranges
// and each index writes only its own slot (one contact's manifold, one body's
// state), so the result is the same bit for bit whatever the number of
// workers, the block sizes or the order in which blocks finish; anything
// order-dependent (events, island links) runs afterwards on the calling
// thread in index order.
//
// Cost model (after Box2D v3's solver stages, solver.c). Waking a thread
// through a mutex and condition variable costs tens of microseconds, too
// much to pay for every colour of every substep. So:
//   * a task is a range of items cut into blocks that threads claim with one
//     atomic increment each; completion is an atomic count. The pool's
//     threads spin briefly, then yield, then sleep (Sleepers) between
//     tasks, so an idle game costs nothing and a busy one never takes a
//     lock.
//   * the whole solve is one task of one item per worker (StagePlan): every
//     participant walks the same precomputed list of stages, claims blocks
//     of the current stage, then waits (spin, then yield) until the stage's
//     blocks are all done before going on. Blocks, of a task and of a
//     stage, are claimed by position (BlockClaims, Box2D v3's
//     b2ExecuteStage): the worker with index k takes the same part of each
//     loop over the bodies and of each colour, so the body states it wrote
//     stay in its core's cache. No participant is special: one
//     alone completes the whole list, so a task system that runs items late,
//     on fewer threads, or one after another still finishes; a participant
//     only ever waits for blocks another running participant has claimed.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include <carom/types.hpp>

namespace carom::detail {

/// One spin-wait step: a pause instruction for the first rounds, then a
/// yield so a loaded machine's other threads (often the one we wait for)
/// get the core.
void spinWait(int& round);

/// Where threads sleep once spinning and yielding have not seen what they
/// wait for: a mutex, a condition variable and a count of sleepers. A
/// sleeper re-checks its condition under the mutex before each wait, and a
/// waker that finds a sleeper takes the mutex before notifying, so no
/// wake-up is lost; a waker that finds none (the busy case) takes no lock.
///
/// Not std::atomic::wait: where the standard library has no futex to build
/// it on (libstdc++ on Windows, GCC 12) its fallback checks the value
/// outside its lock and notifies without the lock, and can lose the wake-up
/// and sleep for ever. One implementation everywhere also means the
/// native tests run the code every platform runs.
class Sleepers {
   public:
    /// Sleeps until ready() holds. ready() reads atomics that a thread
    /// changes before calling wakeAll().
    template <class Ready>
    void sleepUntil(Ready&& ready) {
        count_.fetch_add(1, std::memory_order_seq_cst);
        // Pairs with wakeAll's fence: a waker either sees this sleeper or
        // its change is visible to ready() here.
        std::atomic_thread_fence(std::memory_order_seq_cst);
        {
            std::unique_lock<std::mutex> lock(mutex_);
            while (!ready()) wake_.wait(lock);
        }
        count_.fetch_sub(1, std::memory_order_release);
    }
    /// Wakes every sleeper; call after the change that makes one ready.
    void wakeAll() {
        std::atomic_thread_fence(std::memory_order_seq_cst);
        if (count_.load(std::memory_order_seq_cst) == 0) return;
        // A sleeper between its check of ready() and its wait holds the
        // mutex: taking it here waits until that sleeper really waits.
        { std::lock_guard<std::mutex> lock(mutex_); }
        wake_.notify_all();
    }

   private:
    std::atomic<int> count_{0};
    std::mutex mutex_;
    std::condition_variable wake_;
};

/// Blocks claimed by position (Box2D v3's b2ExecuteStage): participant k of
/// n starts at block k·count/n, claims forward until a block is taken, then
/// backward from just before its start. The same participant takes the same
/// part of every loop and stage over the bodies, so what its core wrote
/// stays in its cache; every block still runs exactly once (a participant
/// stops only at a claimed block, so none is left beside a claimed one) and
/// one participant alone runs them all. A block is claimed by writing the
/// run's epoch into its slot.
class BlockClaims {
   public:
    /// A new run over `blocks` blocks (grows the slots when needed: a warm
    /// run allocates nothing).
    void begin(int blocks);
    /// Runs fn(block) for the blocks participant `me` of `participants`
    /// claims, blocks [base, base + count) of this run.
    template <class Fn>
    void take(int base, int count, int me, int participants, Fn&& fn) {
        const int start = int(int64_t(me % participants) * count / participants);
        int block = start;
        for (int k = 0; k < count && claim(base + block); ++k) {
            fn(block);
            block = block + 1 == count ? 0 : block + 1;
        }
        block = start == 0 ? count - 1 : start - 1;
        for (int k = 0; k < count && claim(base + block); ++k) {
            fn(block);
            block = block == 0 ? count - 1 : block - 1;
        }
    }

   private:
    bool claim(int slot) {
        return slots_[size_t(slot)].exchange(epoch_, std::memory_order_acq_rel) != epoch_;
    }
    std::unique_ptr<std::atomic<uint32_t>[]> slots_;
    size_t capacity_ = 0;
    uint32_t epoch_ = 0;
};

/// Carom's own task system: workerCount - 1 threads started on first use
/// (none on a target without threads, CAROM_HAS_THREADS: tasks run inline).
/// One task at a time (the step never nests them); a second enqueue while
/// one is open runs inline. Threads between tasks: spin, yield, then sleep
/// (Sleepers), so a warm task allocates nothing and, busy, takes no lock.
class WorkerPool {
   public:
    WorkerPool() = default;
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;
    ~WorkerPool();

    /// EnqueueTaskFn's contract with `workers` threads in all (the caller
    /// counts as one: it joins in finish()).
    void* enqueue(TaskFn* task, int itemCount, int minRange, void* taskContext, int workers);
    /// FinishTaskFn's contract: the caller runs unclaimed blocks, then waits.
    void finish(void* handle);

   private:
    void ensureThreads(int count);
    void threadMain(int workerIndex);
    void work(int workerIndex);

    std::vector<std::thread> threads_;
    // The open task; written by the caller only while no thread is inside.
    TaskFn* task_ = nullptr;
    void* ctx_ = nullptr;
    int itemCount_ = 0;
    int blockSize_ = 1;
    int blockCount_ = 0;
    int workers_ = 1;
    bool open_ = false;
    /// Per block: the task (epoch_) that claimed it (BlockClaims).
    BlockClaims claims_;
    // gen_ is odd while a task is open; each enqueue and finish bumps it.
    alignas(64) std::atomic<uint32_t> gen_{0};
    alignas(64) std::atomic<int> done_{0};    ///< blocks finished
    alignas(64) std::atomic<int> inside_{0};  ///< threads reading the open task
    std::atomic<bool> quit_{false};
    Sleepers sleepers_;  ///< threads between tasks, and the caller waiting for done_
};

/// Where a world's parallel work goes: the game's task system when it gave
/// one, else the world's pool.
struct TaskDispatch {
    EnqueueTaskFn* enqueue = nullptr;
    FinishTaskFn* finish = nullptr;
    void* userContext = nullptr;
    WorkerPool* pool = nullptr;
    int workers = 1;

    void* enqueueTask(TaskFn* task, int itemCount, int minRange, void* taskContext) const;
    void finishTask(void* handle) const;
};

/// One stage of a staged run: items [begin, begin + count) of some pass, cut
/// into blockCount blocks of blockSize; kind and arg tell the executor what
/// to run over them.
struct Stage {
    int kind = 0;
    int arg = 0;
    int begin = 0;
    int count = 0;
    int blockSize = 1;
    int blockCount = 1;
};

/// A list of stages run in order by every participant (see the top of this
/// file). Reused from step to step: a warm run allocates nothing.
class StagePlan {
   public:
    using Exec = void (*)(void* ctx, const Stage& stage, int begin, int end);

    void clear() { stages_.clear(); }
    /// Appends a stage over `count` items in blocks of at least minBlock
    /// items and at most `maxBlocks` blocks; empty stages are skipped.
    void add(int kind, int arg, int begin, int count, int minBlock, int maxBlocks);
    const std::vector<Stage>& stages() const { return stages_; }

    /// A job beside the stages for the next run() only: the first
    /// participant to arrive runs it, then joins the stages wherever they
    /// are; no stage waits for it, run() returns once it is done too. For
    /// serial work that shares no data with the stages (the world's deferred
    /// tree flush): the other participants solve meanwhile instead of
    /// waiting for it before the run.
    void setSideJob(void (*job)(void*), void* ctx) {
        sideJob_ = job;
        sideCtx_ = ctx;
    }
    /// Runs every stage: on the calling thread alone when dispatch has one
    /// worker, else as one task of workers - 1 participants plus the caller.
    void run(const TaskDispatch& dispatch, Exec exec, void* ctx);

   private:
    struct alignas(64) Sync {
        std::atomic<int> done{0};  ///< blocks finished
    };
    static void participantTask(int begin, int end, int workerIndex, void* self);
    void participate(int me);

    std::vector<Stage> stages_;
    std::vector<int> blockBase_;  ///< per stage: its first block's slot in claims_
    std::unique_ptr<Sync[]> sync_;
    size_t syncCapacity_ = 0;
    BlockClaims claims_;  ///< every block of every stage, for this run
    int participants_ = 1;
    Exec exec_ = nullptr;
    void* ctx_ = nullptr;
    void (*sideJob_)(void*) = nullptr;
    void* sideCtx_ = nullptr;
    alignas(64) std::atomic<bool> sideTaken_{false};
    Sleepers sleepers_;  ///< participants waiting for a stage's blocks
};

/// Below this many items a loop runs on the calling thread: handing it out
/// costs more than it saves.
inline constexpr int kParallelMinItems = 64;

/// Runs fn(begin, end) over [0, count) through dispatch, in blocks of at
/// least kParallelMinItems / 2 items; small loops stay on the calling thread.
template <class Fn>
void parallelFor(const TaskDispatch& dispatch, int count, Fn& fn) {
    if (dispatch.workers <= 1 || count < kParallelMinItems) {
        fn(0, count);
        return;
    }
    TaskFn* task = [](int begin, int end, int, void* ctx) { (*static_cast<Fn*>(ctx))(begin, end); };
    // Four blocks per worker even out uneven items and a late thread.
    const int perBlock = (count + 4 * dispatch.workers - 1) / (4 * dispatch.workers);
    const int minRange = perBlock > kParallelMinItems / 2 ? perBlock : kParallelMinItems / 2;
    void* handle = dispatch.enqueueTask(task, count, minRange, &fn);
    dispatch.finishTask(handle);
}

/// Runs fn(begin, end) over [0, count) through dispatch with ranges as
/// small as one item: for loops over a few coarse parts (each part already
/// holds many items), which parallelFor would keep on the calling thread.
template <class Fn>
void runParts(const TaskDispatch& dispatch, int count, Fn&& fn) {
    if (dispatch.workers <= 1 || count <= 1) {
        fn(0, count);
        return;
    }
    using F = std::remove_reference_t<Fn>;
    TaskFn* task = [](int begin, int end, int, void* ctx) { (*static_cast<F*>(ctx))(begin, end); };
    dispatch.finishTask(dispatch.enqueueTask(task, count, 1, &fn));
}

}  // namespace carom::detail
