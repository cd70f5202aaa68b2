#include "collective_validation.hpp"

#include <fmt/format.h>

#include <cmath>

#include "ridgeline/core/op.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/validation.hpp"
#include "verdict.hpp"

namespace ridgeline {

Validation validate_allreduce(const Problem& problem, Operands& operands, std::uint64_t) {
  const OperandBuffer& x = operands.at("x");
  const OperandBuffer& y = operands.at("y");
  const double ranks = static_cast<double>(problem.params.dim("ranks"));
  Validation v;
  v.tolerance = op_definition(problem.op).tolerance(problem);
  double worst = 0;
  std::size_t at = 0;
  // Relative to the sum's scale, ranks |x_i|; a non-number anywhere is wrong.
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double ref = ranks * x.at(i), got = y.at(i);
    if (!std::isfinite(got)) {
      set_verdict(v, false, fmt::format("y[{}] is {} (x[{}] = {})", i, got, i, x.at(i)), 0, "");
      return v;
    }
    const double scale = std::max(std::fabs(ref), 1e-30);
    if (const double err = std::fabs(got - ref) / scale; err > worst) {
      worst = err;
      at = i;
    }
  }
  set_verdict(v, true, "", worst, fmt::format("y[{}]", at));
  return v;
}

Validation validate_tp_gemm(const Problem& problem, Operands& operands, std::uint64_t seed) {
  // C / ranks against this rank's shard product, A_r B_r: the GEMM's own check on the shard.
  const std::int64_t m = problem.params.dim("m"), n = problem.params.dim("n");
  const std::int64_t ranks = problem.params.dim("ranks");
  const Problem shard = gemm_problem({m, n, problem.params.dim("k") / ranks, 1}, Layout::NN,
                                     problem.dtype, problem.pattern);
  const OperandBuffer& c = operands.at("C");
  OperandBuffer share(c.dtype(), c.size());
  for (std::size_t i = 0; i < c.size(); ++i) {
    const double value = c.at(i) / static_cast<double>(ranks);
    if (c.dtype() == DType::f64)
      share.as<double>()[i] = value;
    else
      share.as<float>()[i] = static_cast<float>(value);
  }
  Validation v = validate_gemm(shard, {operands.at("A"), operands.at("B"), share}, seed);
  if (v.disposition == Disposition::passed || v.disposition == Disposition::incorrect)
    v.message =
        v.message.empty() ? v.message : "C / ranks against the shard's product: " + v.message;
  return v;
}

}  // namespace ridgeline
