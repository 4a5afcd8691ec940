#include "tests/support/process_memory.hpp"

#include "engine/core/platform.hpp"

#if CAROM_ARCH_WASM
// Nothing to include: see below.
#elif defined(_WIN32)
// PSAPI_VERSION 2: GetProcessMemoryInfo is kernel32's K32GetProcessMemoryInfo
// (no psapi library to link).
#define PSAPI_VERSION 2
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <psapi.h>
#else
#include <fstream>

#include <sys/resource.h>
#include <unistd.h>
#endif

namespace carom::test {

#if CAROM_ARCH_WASM

// WebAssembly under Node.js: /proc/self/statm is Node's own resident set (the
// JavaScript engine, its compiler and garbage), not the module's: no measure
// comparable with the native one. 0 means unknown, and the memory checks
// that read it are left out there.
long long residentBytes() {
    return 0;
}
long long peakResidentBytes() {
    return 0;
}

#elif defined(_WIN32)

namespace {
PROCESS_MEMORY_COUNTERS counters() {
    PROCESS_MEMORY_COUNTERS c{};
    c.cb = sizeof(c);
    GetProcessMemoryInfo(GetCurrentProcess(), &c, sizeof(c));
    return c;
}
}  // namespace

long long residentBytes() {
    return static_cast<long long>(counters().WorkingSetSize);
}
long long peakResidentBytes() {
    return static_cast<long long>(counters().PeakWorkingSetSize);
}

#else

// /proc/self/statm: size and resident, in pages.
long long residentBytes() {
    std::ifstream f("/proc/self/statm");
    long long pages = 0, resident = 0;
    f >> pages >> resident;
    return resident * static_cast<long long>(sysconf(_SC_PAGESIZE));
}

// getrusage's ru_maxrss is in kilobytes on Linux.
long long peakResidentBytes() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<long long>(u.ru_maxrss) * 1024;
}

#endif

}  // namespace carom::test
