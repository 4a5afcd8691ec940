# Cross build for 64-bit Windows with Debian's MinGW-w64 compiler, the POSIX
# threads variant (g++-mingw-w64-x86-64-posix: std::thread needs it); the
# test executables run under Wine (wine64). ctest and gtest_discover_tests
# run them through CMAKE_CROSSCOMPILING_EMULATOR.
#
#   cmake --preset mingw && cmake --build --preset mingw && ctest --preset mingw
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)

set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Executables link the C++ runtime and winpthreads statically, so that they
# run without the compiler's DLLs beside them (under Wine or on Windows).
set(CMAKE_EXE_LINKER_FLAGS_INIT -static)

# Wine without its debug chatter (WINEDEBUG) and without asking to install
# Mono or Gecko when it creates its prefix (WINEDLLOVERRIDES).
find_program(CAROM_WINE wine)
if(NOT CAROM_WINE)
  set(CAROM_WINE wine)
endif()
set(CMAKE_CROSSCOMPILING_EMULATOR env WINEDEBUG=-all WINEDLLOVERRIDES=mscoree,mshtml= ${CAROM_WINE})
