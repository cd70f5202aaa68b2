#include "attention_validation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "attention_reference.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/ops/attention.hpp"
#include "verdict.hpp"

namespace ridgeline {

namespace {

constexpr double kDirectLimit = 1 << 26;  // multiply-adds of the reference, checked in full
constexpr std::int64_t kSampledRows = 256;

// Rows of the whole output ([batch * heads * seq], head_dim wide) that are checked.
std::vector<std::int64_t> rows_to_check(std::int64_t heads, std::int64_t seq, std::int64_t head_dim,
                                        std::uint64_t seed, bool& sampled) {
  const std::int64_t rows = heads * seq;
  std::vector<std::int64_t> picked;
  sampled = static_cast<double>(rows) * static_cast<double>(seq) * static_cast<double>(head_dim) >
                kDirectLimit &&
            rows > kSampledRows;
  if (!sampled) {
    for (std::int64_t r = 0; r < rows; ++r) picked.push_back(r);
    return picked;
  }
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> any(0, rows - 1);
  picked = {0, rows - 1, seq - 1, rows - seq};
  while (static_cast<std::int64_t>(picked.size()) < kSampledRows) picked.push_back(any(rng));
  std::sort(picked.begin(), picked.end());
  picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
  return picked;
}

}  // namespace

Validation validate_attention(const Problem& p, Operands& operands, std::uint64_t seed) {
  const AttentionDims dims = attention_dims(p);
  const std::int64_t heads = dims.batch * dims.heads, n = dims.seq, d = dims.head_dim;
  const float* q = operands.at("Q").as<float>().data();
  const float* k = operands.at("K").as<float>().data();
  const float* v = operands.at("V").as<float>().data();
  const float* o = operands.at("O").as<float>().data();

  bool sampled = false;
  double worst = 0;
  std::int64_t worst_at = -1;
  bool unwritten = false;
  std::vector<double> ref(static_cast<std::size_t>(d)), mag(static_cast<std::size_t>(d));
  for (std::int64_t r : rows_to_check(heads, n, d, seed, sampled)) {
    const std::int64_t h = r / n, base = h * n * d;
    attention_reference_row({q + base, k + base, v + base, n, d, dims.causal}, r % n, ref.data(),
                            mag.data());
    for (std::int64_t c = 0; c < d && !unwritten; ++c) {
      const float y = o[r * d + c];
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
