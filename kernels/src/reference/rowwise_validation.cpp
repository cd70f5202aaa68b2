// The memory-bound ops' outputs against their long-double references (kernels/src/ops/
// rowwise_reference.cpp). Each error is relative to the scale of what it is part of: the
// largest |reference| of its row for softmax and the norms, max(|reference|, 1) of the
// element for the eltwise chain; the bound is the op's tolerance (core). Large problems
// are checked on a sample: the first and last rows and 254 others drawn at random. bf16
// operands are widened (exactly) row by row, only the rows checked: the reference is the
// f32 one on the values the kernel read, and the bound is the op's bf16 tolerance.
#include "rowwise_validation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "../ops/rowwise_ops.hpp"
#include "f32_view.hpp"
#include "ridgeline/core/ops/rowwise.hpp"
#include "verdict.hpp"

namespace ridgeline {

namespace {

constexpr std::int64_t kRowwiseDirectLimit = std::int64_t{1} << 22;  // elements checked in full
constexpr std::int64_t kRowwiseSampledRows = 256;

// The rows (or blocks of elements, for the chain) that are checked.
std::vector<std::int64_t> rows_to_check(std::int64_t rows, std::int64_t cols, std::uint64_t seed,
                                        bool& sampled) {
  std::vector<std::int64_t> picked;
  sampled = rows * cols > kRowwiseDirectLimit && rows > kRowwiseSampledRows;
  if (!sampled) {
    for (std::int64_t r = 0; r < rows; ++r) picked.push_back(r);
    return picked;
  }
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> any(1, rows - 2);
  picked = {0, rows - 1};
  while (static_cast<std::int64_t>(picked.size()) < kRowwiseSampledRows) picked.push_back(any(rng));
  std::sort(picked.begin(), picked.end());
  picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
  return picked;
}

struct Worst {
  double err = 0;
  std::int64_t at = -1;
  bool unwritten = false;
};

// One row of `cols` outputs against its reference.
void check_row(const float* y, const std::vector<double>& ref, bool per_element, std::int64_t base,
               Worst& worst) {
  double scale = 0;
  for (double v : ref) scale = std::max(scale, std::fabs(v));
  for (std::size_t c = 0; c < ref.size(); ++c) {
    const auto at = base + static_cast<std::int64_t>(c);
    if (std::isnan(y[c]) && !std::isnan(ref[c])) {
      worst = {INFINITY, at, true};
      return;
    }
    const double s = per_element ? std::max(std::fabs(ref[c]), 1.0) : std::max(scale, 1e-30);
    const double err = std::fabs(static_cast<double>(y[c]) - ref[c]) / s;
    if (!(err <= worst.err)) worst = {err, at, false};
  }
}

}  // namespace

Validation validate_rowwise(RowwiseOp op, const Problem& p, Operands& operands,
                            std::uint64_t seed) {
  const bool chain = op == RowwiseOp::eltwise_chain;
  const std::int64_t rows = chain ? 1 : row_shape(p).rows;
  const std::int64_t cols = chain ? p.params.dim("n") : row_shape(p).cols;
  // The chain's elements are checked in rows of 4096, so large arrays are sampled too.
  const std::int64_t width = chain ? std::min<std::int64_t>(cols, 4096) : cols;
  const std::int64_t count = chain ? (cols + width - 1) / width : rows;
  const OperandBuffer& x = operands.at("x");
  const OperandBuffer& y = operands.at("y");
  std::vector<float> xw, yw, gw, bw;  // widened bf16
  const float* gamma = has_gamma(op) ? f32_view(operands.at("gamma"), 0, cols, gw) : nullptr;
  const float* beta = has_beta(op) ? f32_view(operands.at("beta"), 0, cols, bw) : nullptr;

  bool sampled = false;
  Worst worst;
  std::vector<double> ref;
  for (std::int64_t r : rows_to_check(count, width, seed, sampled)) {
    const std::int64_t base = r * width;
    const std::int64_t n = std::min(width, cols * rows - base);
    ref.assign(static_cast<std::size_t>(n), 0.0);
    const float* xr = f32_view(x, base, n, xw);
    if (chain)
      ops::eltwise_chain_reference(xr, ref.data(), n, static_cast<int>(p.params.dim("L")));
    else if (op == RowwiseOp::softmax)
      ops::softmax_reference(xr, ref.data(), 1, cols);
    else if (op == RowwiseOp::layernorm)
      ops::layernorm_reference(xr, gamma, beta, ref.data(), 1, cols, kNormEpsilon);
    else
      ops::rmsnorm_reference(xr, gamma, ref.data(), 1, cols, kNormEpsilon);
    check_row(f32_view(y, base, n, yw), ref, chain, base, worst);
    if (worst.unwritten) break;
  }

  Validation v;
  v.tolerance = op_definition(p.op).tolerance(p);
  v.method = sampled ? "sampled rows" : "direct";
  const std::string at = fmt::format("output {}", worst.at);
  set_verdict(v, !worst.unwritten, at + " was never written (still NaN)", worst.err, at);
  return v;
}

}  // namespace ridgeline
