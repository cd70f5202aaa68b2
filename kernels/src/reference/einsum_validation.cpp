#include "einsum_validation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "../einsum/einsum_strides.hpp"
#include "ridgeline/core/op.hpp"
#include "verdict.hpp"
#include "wide_real.hpp"

namespace ridgeline {

namespace {

// Every output is checked while the reference costs at most 2^24 terms (outputs x contracted
// points) over at most 2^20 outputs; beyond, every output is checked finite and 4096 of them
// (the first, the last, the rest at random) against the reference. A direct check of the
// einsum suite's 2^24-output outer product took 0.2 s a case, a fifth of its time, and
// 2^26-term ones 0.1-0.2 s: half a minute of the suite's four.
constexpr std::int64_t kDirectWork = std::int64_t{1} << 24;
constexpr std::int64_t kDirectOutputs = std::int64_t{1} << 20;
constexpr std::int64_t kSampled = 4096;

template <typename T>
Validation check(const Problem& p, Operands& operands, std::uint64_t seed) {
  const EinsumSpec spec = einsum_spec(p);
  const EinsumStrides st = einsum_strides(spec);
  const T* a = operands.at("A").as<T>().data();
  const T* b = operands.at("B").as<T>().data();
  const T* c = operands.at("C").as<T>().data();

  Validation v;
  v.tolerance = op_definition(p.op).tolerance(p);
  const bool sampled =
      st.outputs > kDirectOutputs || (st.outputs > 0 && st.sums > kDirectWork / st.outputs);
  std::vector<std::int64_t> picked;
  if (!sampled) {
    for (std::int64_t o = 0; o < st.outputs; ++o) picked.push_back(o);
  } else {
    for (std::int64_t o = 0; o < st.outputs; ++o)
      if (!std::isfinite(c[o])) {
        set_verdict(v, false, fmt::format("C[{}] is {} (never written, or overflow)", o, c[o]), 0,
                    "");
        return v;
      }
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::int64_t> any(0, st.outputs - 1);
    picked = {0, st.outputs - 1};
    while (static_cast<std::int64_t>(picked.size()) < kSampled + 2) picked.push_back(any(rng));
  }
  double worst = 0;
  std::int64_t worst_at = -1;
  std::vector<std::int64_t> at;
  for (std::int64_t o : picked) {
    std::int64_t a0 = 0, b0 = 0;
    output_offsets(st, o, a0, b0);
    WideReal sum = 0;
    ScaleOf<WideReal> scale = 0;
    for_each_run(
        st, a0, b0, at,
        [&](std::int64_t ia, std::int64_t ib, std::int64_t n, std::int64_t sa, std::int64_t sb) {
          for (std::int64_t j = 0; j < n; ++j) {
            const WideReal term =
                WideReal(static_cast<double>(a[ia + j * sa])) * static_cast<double>(b[ib + j * sb]);
            sum += term;
            scale += scale_of(term);
          }
        });
    if (!std::isfinite(c[o])) {
      set_verdict(v, false, fmt::format("C[{}] is {} (never written, or overflow)", o, c[o]), 0,
                  "");
      return v;
    }
    const double err = static_cast<double>(std::fabs(c[o] - static_cast<long double>(sum)) /
                                           std::max<long double>(scale, 1e-30L));
    if (err > worst) {
      worst = err;
      worst_at = o;
    }
  }
  v.method = sampled ? "sampled outputs" : "direct";
  set_verdict(v, true, "", worst, fmt::format("C[{}]", worst_at));
  return v;
}

}  // namespace

Validation validate_einsum(const Problem& problem, Operands& operands, std::uint64_t seed) {
  return problem.dtype == DType::f64 ? check<double>(problem, operands, seed)
                                     : check<float>(problem, operands, seed);
}

}  // namespace ridgeline
