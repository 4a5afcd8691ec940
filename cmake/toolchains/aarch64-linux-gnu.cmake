# Cross build for 64-bit ARM Linux with Debian's cross compiler
# (g++-aarch64-linux-gnu); the test executables run under QEMU's user-mode
# emulator (qemu-user-static) with the ARM64 C library of the cross
# toolchain (-L /usr/aarch64-linux-gnu). ctest and gtest_discover_tests run
# them through CMAKE_CROSSCOMPILING_EMULATOR.
#
#   cmake --preset aarch64 && cmake --build --preset aarch64 && ctest --preset aarch64
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# Libraries and headers only from the target's sysroot; programs (the
# emulator, the build tools) from the host. Header-only host packages (GLM,
# nlohmann-json) come in through cmake/CaromCrossDeps.cmake.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(CAROM_QEMU_AARCH64 qemu-aarch64-static)
if(NOT CAROM_QEMU_AARCH64)
  set(CAROM_QEMU_AARCH64 qemu-aarch64-static)
endif()
set(CMAKE_CROSSCOMPILING_EMULATOR ${CAROM_QEMU_AARCH64} -L /usr/aarch64-linux-gnu)
