#pragma once
#include <string>
#include <vector>

#include "ridgeline/analysis/roofline.hpp"

namespace ridgeline {

// For each problem (op, dtype, params, pattern, FP environment, threads) that a BLAS library
// ran: every backend's rate beside the fastest BLAS on that problem.
struct LadderRate {
  std::string backend;
  double rate = 0;     // FLOP/s
  double vs_best = 0;  // rate / the best BLAS rate
};

struct LadderRow {
  std::string op, dtype, params;
  std::string pattern, fp_env;  // as in the placements
  int threads = 1;
  std::string best_blas;
  double best_blas_rate = 0;
  std::vector<LadderRate> rates;  // in run order
  CacheState cache = CacheState::warm;
};

// "gemm f32 m=..,n=..,k=../layout=NN", then "pattern=zeros", "fp=ftz_daz" and "cache=cold"
// where the row's differ from normal inputs, IEEE arithmetic and warm operands.
std::string problem_label(const LadderRow& row);
// The same words for one placement's problem.
std::string problem_label(const RooflinePlacement& placement);

std::vector<LadderRow> ladder_against_best_blas(const std::vector<RooflinePlacement>& placements);

}  // namespace ridgeline
