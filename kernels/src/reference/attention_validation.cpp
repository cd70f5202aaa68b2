// The attention op's output against the double reference (attention_reference.cpp), row by
// row, each error relative to the row's magnitude sum_j p_j |V[j][c]|; large problems on a
// sample of rows. bf16 operands are widened (exactly) one head at a time, only the heads of
// the rows checked: the reference is computed on the values the kernel read, and the bound is
// the op's bf16 tolerance (one rounding of O to bf16 on top of the f32 arithmetic).
#include "attention_validation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "attention_reference.hpp"
#include "f32_view.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/ops/attention.hpp"
#include "verdict.hpp"

namespace ridgeline {

namespace {

constexpr double kAttentionDirectLimit = 1
                                         << 26;  // multiply-adds of the reference, checked in full
constexpr std::int64_t kAttentionSampledRows = 256;

// Rows of the whole output ([batch * heads * seq], head_dim wide) that are checked.
std::vector<std::int64_t> rows_to_check(std::int64_t heads, std::int64_t seq, std::int64_t head_dim,
                                        std::uint64_t seed, bool& sampled) {
  const std::int64_t rows = heads * seq;
  std::vector<std::int64_t> picked;
  sampled = static_cast<double>(rows) * static_cast<double>(seq) * static_cast<double>(head_dim) >
                kAttentionDirectLimit &&
            rows > kAttentionSampledRows;
  if (!sampled) {
    for (std::int64_t r = 0; r < rows; ++r) picked.push_back(r);
    return picked;
  }
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> any(0, rows - 1);
  picked = {0, rows - 1, seq - 1, rows - seq};
  while (static_cast<std::int64_t>(picked.size()) < kAttentionSampledRows)
    picked.push_back(any(rng));
  std::sort(picked.begin(), picked.end());
  picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
  return picked;
}

}  // namespace

Validation validate_attention(const Problem& p, Operands& operands, std::uint64_t seed) {
  const AttentionDims dims = attention_dims(p);
  const std::int64_t heads = dims.batch * dims.heads, n = dims.seq, d = dims.head_dim;
  const OperandBuffer& Q = operands.at("Q");
  const OperandBuffer& K = operands.at("K");
  const OperandBuffer& V = operands.at("V");
  const OperandBuffer& O = operands.at("O");
  std::vector<float> qw, kw, vw, ow;  // one head, widened from bf16
  const float *q = nullptr, *k = nullptr, *v = nullptr, *o = nullptr;
  std::int64_t head = -1;  // the head q, k, v and o view (rows come sorted)

  bool sampled = false;
  double worst = 0;
  std::int64_t worst_at = -1;
  bool unwritten = false;
  std::vector<double> ref(static_cast<std::size_t>(d)), mag(static_cast<std::size_t>(d));
  for (std::int64_t r : rows_to_check(heads, n, d, seed, sampled)) {
    const std::int64_t h = r / n, base = h * n * d;
    if (h != head) {
      head = h;
      q = f32_view(Q, base, n * d, qw);
      k = f32_view(K, base, n * d, kw);
      v = f32_view(V, base, n * d, vw);
      o = f32_view(O, base, n * d, ow);
    }
    attention_reference_row({q, k, v, n, d, dims.causal}, r % n, ref.data(), mag.data());
    for (std::int64_t c = 0; c < d && !unwritten; ++c) {
      const float y = o[(r % n) * d + c];
      if (std::isnan(y) && !std::isnan(ref[c])) {
        unwritten = true;
        worst_at = r * d + c;
      }
      const double err = std::fabs(static_cast<double>(y) - ref[c]) / (mag[c] > 0 ? mag[c] : 1.0);
      if (!(err <= worst)) {
        worst = err;
        worst_at = r * d + c;
      }
    }
    if (unwritten) break;
  }

  Validation val;
  val.tolerance = op_definition(p.op).tolerance(p);
  val.method = sampled ? "sampled rows" : "direct";
  const std::int64_t row = worst_at / d;
  const std::string where =
      fmt::format("O[head {}, row {}, col {}]", row / n, row % n, worst_at % d);
  set_verdict(val, !unwritten, where + " was never written (still NaN)", worst, where);
  return val;
}

}  // namespace ridgeline
