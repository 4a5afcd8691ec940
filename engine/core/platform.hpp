#pragma once
// Every compiler- and architecture-specific construct the library uses, in
// one place: forced inlining, prefetch, the CPU's spin-wait hint, clearing a
// struct's padding, which SIMD instruction set a target has, and whether the
// CPU running the program has AVX2. No other file of the library names a
// compiler extension, an intrinsic header or an architecture macro.
//
// Supported: GCC and Clang (Linux, MinGW-w64, Emscripten) and MSVC; x86-64,
// ARM64 and WebAssembly. Elsewhere everything here falls back to portable
// C++ (no prefetch, no hint, the scalar kernels).

#include <bit>
#include <cstring>
#include <type_traits>

// ---- architecture and SIMD ---------------------------------------------------

#if defined(__x86_64__) || defined(_M_X64)
#define CAROM_ARCH_X86_64 1
#else
#define CAROM_ARCH_X86_64 0
#endif

#if defined(__aarch64__) || defined(_M_ARM64)
#define CAROM_ARCH_ARM64 1
#else
#define CAROM_ARCH_ARM64 0
#endif

#if defined(__wasm__)
#define CAROM_ARCH_WASM 1
#else
#define CAROM_ARCH_WASM 0
#endif

/// The target as reports name it: operating system and architecture.
#if CAROM_ARCH_WASM
#define CAROM_PLATFORM_NAME "wasm32"
#elif defined(_WIN32) && CAROM_ARCH_X86_64
#define CAROM_PLATFORM_NAME "windows-x86_64"
#elif defined(_WIN32) && CAROM_ARCH_ARM64
#define CAROM_PLATFORM_NAME "windows-arm64"
#elif defined(__APPLE__) && CAROM_ARCH_ARM64
#define CAROM_PLATFORM_NAME "macos-arm64"
#elif defined(__APPLE__) && CAROM_ARCH_X86_64
#define CAROM_PLATFORM_NAME "macos-x86_64"
#elif CAROM_ARCH_X86_64
#define CAROM_PLATFORM_NAME "linux-x86_64"
#elif CAROM_ARCH_ARM64
#define CAROM_PLATFORM_NAME "linux-arm64"
#else
#define CAROM_PLATFORM_NAME "other"
#endif

/// SSE2 is part of x86-64: the four-lane x86 kernel is always there.
#define CAROM_SIMD_SSE2 CAROM_ARCH_X86_64
/// NEON (Advanced SIMD) is part of ARMv8-A: the four-lane ARM64 kernel.
#define CAROM_SIMD_NEON CAROM_ARCH_ARM64
/// WebAssembly SIMD128 only when the build asks for it (-msimd128).
#if CAROM_ARCH_WASM && defined(__wasm_simd128__)
#define CAROM_SIMD_WASM128 1
#else
#define CAROM_SIMD_WASM128 0
#endif

// ---- threads ----------------------------------------------------------------

/// Whether the target can start threads. A WebAssembly build without
/// -pthread (Emscripten defines __EMSCRIPTEN_PTHREADS__ with it) has none:
/// the worker pool then runs every task on the calling thread, so a
/// workerCount above one still steps, to the same state.
#if CAROM_ARCH_WASM && !defined(__EMSCRIPTEN_PTHREADS__)
#define CAROM_HAS_THREADS 0
#else
#define CAROM_HAS_THREADS 1
#endif

// ---- compiler ---------------------------------------------------------------

#if defined(_MSC_VER) && !defined(__clang__)
#define CAROM_COMPILER_MSVC 1
#else
#define CAROM_COMPILER_MSVC 0
#endif

#if CAROM_COMPILER_MSVC
#include <intrin.h>
/// Inline this function into every caller (hot loops where the compiler's
/// own heuristics gave up because of the function's size).
#define CAROM_FORCE_INLINE __forceinline
#else
#define CAROM_FORCE_INLINE [[gnu::always_inline]] inline
#endif

#if CAROM_ARCH_X86_64 && !CAROM_COMPILER_MSVC
#include <immintrin.h>
#endif

namespace carom::detail {

// The helpers below have internal linkage (static): the AVX2 kernels' file,
// compiled with -mavx2, includes this header too, and an inline function
// with external linkage compiled there could be the copy the linker keeps
// for every other file.

/// Hints that *p will be read soon (into every cache level). A hint only:
/// it never faults and never changes a result.
CAROM_FORCE_INLINE static void prefetchRead(const void* p) {
#if CAROM_COMPILER_MSVC && CAROM_ARCH_X86_64
    _mm_prefetch(static_cast<const char*>(p), _MM_HINT_T0);
#elif CAROM_COMPILER_MSVC && CAROM_ARCH_ARM64
    __prefetch(p);
#elif defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

/// Hints that *p will be written soon.
CAROM_FORCE_INLINE static void prefetchWrite(const void* p) {
#if CAROM_COMPILER_MSVC && CAROM_ARCH_X86_64
    _mm_prefetch(static_cast<const char*>(p), _MM_HINT_T0);
#elif CAROM_COMPILER_MSVC && CAROM_ARCH_ARM64
    __prefetch(p);
#elif defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 1);
#else
    (void)p;
#endif
}

/// Tells the CPU that this thread spins waiting for another (x86 PAUSE,
/// ARM YIELD); nothing elsewhere.
CAROM_FORCE_INLINE static void cpuRelax() {
#if CAROM_ARCH_X86_64
    _mm_pause();
#elif CAROM_ARCH_ARM64 && CAROM_COMPILER_MSVC
    __yield();
#elif CAROM_ARCH_ARM64
    asm volatile("yield");
#endif
}

/// Whether clearPadding can zero padding: GCC 11 and later can; Clang
/// (Emscripten included) and MSVC cannot.
#if defined(__has_builtin)
#if __has_builtin(__builtin_clear_padding)
#define CAROM_CAN_CLEAR_PADDING 1
#endif
#endif
#ifndef CAROM_CAN_CLEAR_PADDING
#define CAROM_CAN_CLEAR_PADDING 0
#endif

/// Zeroes the padding bytes of the object at p (its value bytes are kept)
/// where the compiler can say which bytes are padding, so that a byte image
/// of a struct (a snapshot) holds no stale bytes. Elsewhere the padding
/// keeps the bytes it had.
template <class T>
static inline void clearPadding(T* p) {
#if CAROM_CAN_CLEAR_PADDING
    __builtin_clear_padding(p);
#else
    (void)p;
#endif
}
/// std::bit_cast where the standard library has it; a memcpy (the same
/// bits) where it does not (Emscripten 3.1.6's libc++).
template <class To, class From>
CAROM_FORCE_INLINE static To bitCast(const From& from) noexcept {
    static_assert(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To> &&
                  std::is_trivially_copyable_v<From>);
#if defined(__cpp_lib_bit_cast)
    return std::bit_cast<To>(from);
#else
    To to;
    std::memcpy(&to, &from, sizeof(To));
    return to;
#endif
}

/// Whether the CPU running the program (and its OS, which must save the
/// wider registers) supports AVX2. Always false off x86-64.
bool cpuHasAvx2();

}  // namespace carom::detail
