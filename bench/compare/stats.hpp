// Order statistics of per-step times.
#pragma once

#include <cstddef>
#include <vector>

namespace carom::compare {

struct Summary {
    std::size_t count = 0;
    double median = 0.0;  ///< the middle sample (mean of the two middle ones for an even count)
    double mean = 0.0;
    double p95 = 0.0;  ///< nearest rank: the smallest sample >= 95 % of all samples
    double min = 0.0;
    double max = 0.0;
};

/// Summarises samples (taken by value: they are sorted). An empty set gives all zeros.
Summary summarize(std::vector<double> samples);

}  // namespace carom::compare
