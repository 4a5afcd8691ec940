// Deterministic random numbers for the tests: std::mt19937 is specified
// exactly, the standard distributions are not, so the raw draws are mapped
// here and every platform sees the same values.
#pragma once

#include <cstdint>
#include <random>

namespace carom::test {

class Rng {
   public:
    explicit Rng(uint32_t seed) : engine_(seed) {}
    /// Uniform in [lo, hi).
    float uniform(float lo, float hi) {
        double u = static_cast<double>(engine_()) / 4294967296.0;
        return static_cast<float>(lo + (hi - lo) * u);
    }
    /// Uniform integer in [lo, hi] (inclusive).
    int integer(int lo, int hi) {
        return lo + static_cast<int>(engine_() % static_cast<uint32_t>(hi - lo + 1));
    }
    /// Uniform integer in [0, n).
    int below(int n) { return static_cast<int>(engine_() % static_cast<uint32_t>(n)); }
    bool chance(float p) { return uniform(0.0f, 1.0f) < p; }

   private:
    std::mt19937 engine_;
};

}  // namespace carom::test
