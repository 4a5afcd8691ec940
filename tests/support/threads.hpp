// A thread for the tests' own task systems and split searches, on every
// target: a std::thread where the target has threads; where it has none (a
// WebAssembly build without pthreads, CAROM_HAS_THREADS) the function runs
// at once on the calling thread. The tests that use it check results that
// must not depend on the schedule, so both give the same answer.
#pragma once

#include <thread>
#include <utility>

#include "engine/core/platform.hpp"

namespace carom::test {

class MaybeThread {
   public:
    template <class Fn>
    explicit MaybeThread(Fn&& fn) {
#if CAROM_HAS_THREADS
        thread_ = std::thread(std::forward<Fn>(fn));
#else
        fn();
#endif
    }
    void join() {
        if (thread_.joinable()) thread_.join();
    }

   private:
    std::thread thread_;
};

}  // namespace carom::test
