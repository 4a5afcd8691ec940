# WebAssembly (Emscripten) build settings, included by the top-level
# CMakeLists.txt when CAROM_TARGET_ARCH is wasm (emcmake cmake ...).
#
# Dependencies: GLM and nlohmann-json are Debian's header-only packages in
# /usr/include. That directory must never be on emscripten's include path
# (its glibc and libstdc++ headers would shadow emscripten's own), so the
# build tree gets a directory of symlinks to just those two, and the usual
# imported targets (glm::glm, nlohmann_json::nlohmann_json) point at it.
# GoogleTest is built from Debian's sources (/usr/src/googletest) by
# tests/CMakeLists.txt.
#
# Threads: the build is single-threaded (no -pthread: wasm threads need
# SharedArrayBuffer and cross-origin isolation in a browser). The worker pool
# then runs every task on the calling thread (CAROM_HAS_THREADS in
# engine/core/platform.hpp); a WorldDef workerCount above one still works and
# gives the same state.

set(CAROM_WASM_HEADER_ROOT "/usr/include" CACHE PATH "Where Debian's glm/ and nlohmann/ header directories are")
set(carom_wasm_include ${PROJECT_BINARY_DIR}/wasm-include)
file(MAKE_DIRECTORY ${carom_wasm_include})
foreach(dir glm nlohmann)
  if(NOT EXISTS ${CAROM_WASM_HEADER_ROOT}/${dir})
    message(FATAL_ERROR "WebAssembly build: ${CAROM_WASM_HEADER_ROOT}/${dir} is missing (apt-get install libglm-dev nlohmann-json3-dev)")
  endif()
  file(CREATE_LINK ${CAROM_WASM_HEADER_ROOT}/${dir} ${carom_wasm_include}/${dir} SYMBOLIC)
endforeach()

foreach(target glm::glm nlohmann_json::nlohmann_json)
  if(NOT TARGET ${target})
    add_library(${target} INTERFACE IMPORTED GLOBAL)
    set_target_properties(${target} PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES ${carom_wasm_include}
      INTERFACE_SYSTEM_INCLUDE_DIRECTORIES ${carom_wasm_include})
  endif()
endforeach()
# No threads: an empty Threads::Threads keeps the targets' link lines alike.
if(NOT TARGET Threads::Threads)
  add_library(Threads::Threads INTERFACE IMPORTED GLOBAL)
endif()

# C++ exceptions: a refused call throws carom::Error, in the wasm build too.
# Emscripten disables catching by default (-fignore-exceptions); -fexceptions
# at compile and link time turns it on.
add_compile_options(-fexceptions)
add_link_options(-fexceptions -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB)

# Link options of a program that runs under Node.js as a command (the test
# executables, the carom command; tests/CMakeLists.txt and demos/ add them
# for their directories): the host's files through NODERAWFS, the exit
# status from main with the output flushed, and the module compiled
# synchronously (Node 18 and later have a fetch() that emscripten's
# asynchronous start would use on a file path and fail), and getenv reading
# the host's environment (wasm_node_env.js: CAROM_SIMD picks the kernels as
# in a native build).
set(CAROM_WASM_NODE_LINK_OPTIONS -sNODERAWFS=1 -sEXIT_RUNTIME=1 -sENVIRONMENT=node -sWASM_ASYNC_COMPILATION=0
    "SHELL:--pre-js ${CMAKE_CURRENT_LIST_DIR}/wasm_node_env.js")
