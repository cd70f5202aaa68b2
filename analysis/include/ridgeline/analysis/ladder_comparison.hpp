#pragma once
#include <string>
#include <vector>

#include "ridgeline/analysis/roofline.hpp"

namespace ridgeline {

// For each problem (op, dtype, params, threads) that a BLAS library ran: every backend's
// rate beside the fastest BLAS on that problem.
struct LadderRate {
  std::string backend;
  double rate = 0;     // FLOP/s
  double vs_best = 0;  // rate / the best BLAS rate
};

struct LadderRow {
  std::string op, dtype, params;
  int threads = 1;
  std::string best_blas;
  double best_blas_rate = 0;
  std::vector<LadderRate> rates;  // in run order
};

std::vector<LadderRow> ladder_against_best_blas(const std::vector<RooflinePlacement>& placements);

}  // namespace ridgeline
