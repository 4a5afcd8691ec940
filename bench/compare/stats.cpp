// Medians rather than means are the headline figure: on a shared, noisy
// machine a step that lost its core to another process is an outlier in
// time, not in work, and the median ignores it while the mean does not. The
// mean and the 95th percentile are reported next to it so that real spikes
// (a broadphase rebuild, a wave of new contacts) stay visible.
#include "stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace carom::compare {

Summary summarize(std::vector<double> samples) {
    Summary s;
    if (samples.empty()) return s;
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    s.count = n;
    s.min = samples.front();
    s.max = samples.back();
    s.median = (n % 2 == 1) ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
    s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
    // Nearest-rank percentile: rank ceil(0.95 n), 1-based.
    std::size_t rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(n)));
    s.p95 = samples[std::clamp<std::size_t>(rank, 1, n) - 1];
    return s;
}

}  // namespace carom::compare
