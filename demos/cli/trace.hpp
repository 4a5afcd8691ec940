// The --trace CSV of `carom run`: one row per live body every K steps, with
// the columns step, time, name, x, y, angle, vx, vy, w, awake. Rows are
// written for step 0 (the initial state) and every K-th step after it.
// Numbers use the shortest text that reads back to the same float, so a
// trace can be compared bit for bit; an unnamed body has an empty name;
// awake is 1 or 0.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

#include <carom/scene.hpp>

namespace carom::cli {

class Trace {
   public:
    /// Opens the file and writes the header. Throws std::runtime_error.
    Trace(const std::string& path, std::int64_t every);
    /// Writes the rows for the runner's current step if it is due.
    void record(const scene::SceneRunner& runner);
    /// Flushes and checks the stream. Throws std::runtime_error.
    void close();

   private:
    std::string path_;
    std::int64_t every_;
    std::ofstream out_;
};

}  // namespace carom::cli
