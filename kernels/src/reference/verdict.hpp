#pragma once
// The verdict every reference check ends with (validation.cpp, gemm_bias_act_validation.cpp,
// rowwise_validation.cpp, attention_validation.cpp), so each states it the same way.
#include <fmt/format.h>

#include <string>

#include "ridgeline/core/case_result.hpp"

namespace ridgeline {

// Sets v's max_rel_err and disposition (v.tolerance set already): incorrect with `failure`
// where the check stopped on one (!ok: an unwritten entry, a non-number), incorrect where
// the largest error, at `worst`, exceeds the tolerance, else passed.
inline void set_verdict(Validation& v, bool ok, const std::string& failure, double max_err,
                        const std::string& worst) {
  v.max_rel_err = max_err;
  if (!ok) {
    v.disposition = Disposition::incorrect;
    v.message = failure;
  } else if (max_err > v.tolerance) {
    v.disposition = Disposition::incorrect;
    v.message = fmt::format("relative error {:.3g} at {} exceeds tolerance {:.3g}", max_err, worst,
                            v.tolerance);
  } else {
    v.disposition = Disposition::passed;
  }
}

}  // namespace ridgeline
