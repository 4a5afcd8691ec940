// Counts heap allocations made through the global operator new between
// start and stop (alloc_counter.cpp replaces operator new for the test binary).
#pragma once

namespace carom::bptest {

void startCountingAllocations();
/// Returns the number of allocations since startCountingAllocations().
long stopCountingAllocations();

}  // namespace carom::bptest
