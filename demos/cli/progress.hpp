// A progress bar on standard error for long runs.
//
// It appears only when standard error is a terminal and the run has already
// taken half a second (short runs stay silent), redraws at most ten times a
// second, and erases itself when the run ends so that the terminal keeps
// only the results.
#pragma once

#include <chrono>
#include <cstdint>

namespace carom::cli {

class Progress {
   public:
    explicit Progress(std::int64_t total);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    /// Reports that `done` of `total` steps are finished.
    void update(std::int64_t done);
    /// Erases the bar.
    void finish();

   private:
    using Clock = std::chrono::steady_clock;
    std::int64_t total_;
    bool enabled_;
    bool shown_ = false;
    Clock::time_point start_;
    Clock::time_point lastDraw_;
};

}  // namespace carom::cli
