#include "progress.hpp"

#include <cstdio>
#include <string>

#if defined(_WIN32)
#include <io.h>
#else
#include <unistd.h>
#endif

namespace carom::cli {

namespace {

// Whether standard error is a terminal (the bar is drawn only there).
bool stderrIsTerminal() {
#if defined(_WIN32)
    return _isatty(_fileno(stderr)) != 0;
#else
    return isatty(fileno(stderr)) != 0;
#endif
}

}  // namespace

Progress::Progress(std::int64_t total)
    : total_(total),
      enabled_(total > 0 && stderrIsTerminal()),
      start_(Clock::now()),
      lastDraw_(start_) {}

Progress::~Progress() {
    finish();
}

void Progress::update(std::int64_t done) {
    if (!enabled_) return;
    Clock::time_point now = Clock::now();
    if (now - start_ < std::chrono::milliseconds(500)) return;
    if (shown_ && now - lastDraw_ < std::chrono::milliseconds(100) && done < total_) return;
    lastDraw_ = now;
    shown_ = true;
    constexpr int kWidth = 30;
    double fraction = static_cast<double>(done) / static_cast<double>(total_);
    int filled = static_cast<int>(fraction * kWidth);
    double elapsed = std::chrono::duration<double>(now - start_).count();
    double eta = fraction > 0.0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.append(static_cast<std::size_t>(kWidth - filled), '.');
    std::fprintf(stderr, "\r[%s] %3d%%  %lld/%lld steps  %.1f s left ", bar.c_str(),
                 static_cast<int>(fraction * 100.0), static_cast<long long>(done),
                 static_cast<long long>(total_), eta);
    std::fflush(stderr);
}

void Progress::finish() {
    if (shown_) {
        std::fprintf(stderr, "\r\033[K");
        std::fflush(stderr);
        shown_ = false;
    }
    enabled_ = false;
}

}  // namespace carom::cli
