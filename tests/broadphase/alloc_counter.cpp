// Replaces the global operator new/delete of the broadphase test binary with
// malloc/free plus a counter, so a test can assert that a warmed-up step
// allocates nothing.
#include "alloc_counter.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
}  // namespace

namespace carom::bptest {

void startCountingAllocations() {
    g_allocations = 0;
    g_counting = true;
}

long stopCountingAllocations() {
    g_counting = false;
    return g_allocations.load();
}

}  // namespace carom::bptest

// GCC cannot see that these replacements pair malloc with free.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t size) {
    if (g_counting.load(std::memory_order_relaxed)) ++g_allocations;
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

#pragma GCC diagnostic pop
