// Linked (--pre-js) into Carom's WebAssembly programs that run under Node.js:
// getenv sees the host's environment (CAROM_SIMD, GTEST_* and the like), as a
// native program's would. Emscripten otherwise gives a program a fixed
// environment of its own.
Module["preRun"] = (Module["preRun"] || []).concat([function () {
  if (typeof ENV !== "undefined" && typeof process !== "undefined") Object.assign(ENV, process.env);
}]);
