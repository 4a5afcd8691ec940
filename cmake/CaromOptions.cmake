# Compiler settings shared by every Carom target.
include(GNUInstallDirs)

set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)

# Determinism: no fused multiply-add contraction, never fast-math.
add_compile_options(-ffp-contract=off)

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

# A test executable: precompiled GoogleTest and Carom headers.
function(carom_test_pch target)
  carom_precompile(${target} <gtest/gtest.h> <carom/carom.hpp> <vector> <string> <functional> <cmath>)
endfunction()

# Warnings are errors for Carom's own code. Third-party headers come in as
# SYSTEM include directories (imported targets do this), so they stay quiet.
function(carom_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror)
endfunction()
