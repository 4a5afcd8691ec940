// Counts the heap allocations of a test binary, so a test can check that a
// warmed-up step allocates nothing. Link tests/support/alloc_counter.cpp into
// the binary: it replaces the global operator new/delete with malloc/free and
// a counter (one counter for every test folder, not one per folder).
#pragma once

namespace carom::test {

/// Allocations made through the global operator new since the program
/// started; compare two readings around the code under test.
long long allocationCount();

}  // namespace carom::test
