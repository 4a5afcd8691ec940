// The memory of the test process, for the tests that bound it (the contact
// budget, the soak): read from the OS on Linux (/proc, getrusage) and
// Windows (GetProcessMemoryInfo).
#pragma once

namespace carom::test {

/// Bytes of the process resident in memory now (Windows: its working set).
long long residentBytes();

/// The most bytes the process has had resident since it started (Windows:
/// its peak working set).
long long peakResidentBytes();

}  // namespace carom::test
