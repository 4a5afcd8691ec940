// Counts every global operator new in this test binary, so a test can
// check that a warmed-up World::step allocates nothing.
#include <atomic>
#include <cstdlib>
#include <new>

namespace carom::test {
std::atomic<long long> gAllocations{0};
}

void* operator new(std::size_t n) {
    carom::test::gAllocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
    carom::test::gAllocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
