# Compiler settings shared by every Carom target.
include(GNUInstallDirs)

set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)

# The target's architecture, as the SIMD kernels are chosen by it
# (solver/CMakeLists.txt; the code itself asks engine/core/platform.hpp):
# x86_64, arm64, wasm or other.
string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" carom_processor)
if(EMSCRIPTEN OR carom_processor MATCHES "^wasm")
  set(CAROM_TARGET_ARCH wasm)
elseif(carom_processor MATCHES "^(x86_64|amd64|x64)$")
  set(CAROM_TARGET_ARCH x86_64)
elseif(carom_processor MATCHES "^(aarch64|arm64)$")
  set(CAROM_TARGET_ARCH arm64)
else()
  set(CAROM_TARGET_ARCH other)
endif()

# WebAssembly: build with SIMD128 and its four-lane contact kernels
# (docs/platforms.md has the measurement that chose this default).
option(CAROM_WASM_SIMD "WebAssembly: use SIMD128 (-msimd128) and its contact kernels" ON)
if(CAROM_TARGET_ARCH STREQUAL "wasm" AND CAROM_WASM_SIMD)
  add_compile_options(-msimd128)
endif()

# Determinism: no fused multiply-add contraction, never fast-math.
# -fno-math-errno is not a fast-math relaxation of the arithmetic: std::sqrt
# gives the same correctly rounded result either way, only errno is no
# longer set for a negative argument. Without it GCC calls libm's sqrtf in
# hot loops instead of inlining sqrtss. MSVC: /fp:precise (its default,
# stated), which does not contract a*b+c either.
if(MSVC)
  add_compile_options(/fp:precise)
else()
  add_compile_options(-ffp-contract=off -fno-math-errno)
endif()

if(CAROM_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()

# carom_precompile(TARGET HEADER...): precompile these headers for TARGET when
# CAROM_PCH is on. Only for targets whose every file includes (most of) them:
# every source of TARGET then sees them first.
function(carom_precompile target)
  if(CAROM_PCH)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()

# A test executable: precompiled GoogleTest and Carom headers, and the test
# code compiled at -O0 (the library, the scene loader and the demo programs
# the tests drive keep the build's level: -O3, or -O1 with the sanitizers).
# The test files are mostly GoogleTest and JSON templates whose optimisation
# would be most of CI's build time (-O0 builds them markedly faster), while
# the tests' run time is spent in the library. Not -O1: GCC 12's
# -Warray-bounds misfires at -O1 on std::string concatenations in
# test_errors.cpp, depending on the length of the checkout's path. Results do not move: x86-64 SSE arithmetic with
# -ffp-contract=off is the same at every level.
function(carom_test_target target)
  carom_precompile(${target} <gtest/gtest.h> <carom/carom.hpp> <vector> <string> <functional> <cmath>)
  if(MSVC)
    target_compile_options(${target} PRIVATE /Od)
  else()
    target_compile_options(${target} PRIVATE -O0)
  endif()
endfunction()

# Warnings are errors for Carom's own code. Third-party headers come in as
# SYSTEM include directories (imported targets do this), so they stay quiet.
function(carom_set_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4 /WX)
  else()
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror)
  endif()
endfunction()
