// The CPU feature test of platform.hpp.
#include "engine/core/platform.hpp"

#if CAROM_COMPILER_MSVC && CAROM_ARCH_X86_64
#include <immintrin.h>
#endif

namespace carom::detail {

bool cpuHasAvx2() {
#if CAROM_ARCH_X86_64 && CAROM_COMPILER_MSVC
    static const bool has = [] {
        int r[4];
        __cpuid(r, 0);
        if (r[0] < 7) return false;
        __cpuid(r, 1);
        const bool osxsave = (r[2] & (1 << 27)) != 0, avx = (r[2] & (1 << 28)) != 0;
        if (!osxsave || !avx) return false;
        // The OS saves the XMM and YMM registers on a context switch.
        if ((_xgetbv(0) & 0x6) != 0x6) return false;
        __cpuidex(r, 7, 0);
        return (r[1] & (1 << 5)) != 0;
    }();
    return has;
#elif CAROM_ARCH_X86_64
    // libgcc's check covers the OS saving the AVX registers (XGETBV) too.
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") != 0;
    }();
    return has;
#else
    return false;
#endif
}

}  // namespace carom::detail
