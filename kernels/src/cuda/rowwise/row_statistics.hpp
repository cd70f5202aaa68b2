#pragma once
// A row's statistics as partial results that combine in any order (a block's threads, then
// its warps), so that softmax and layernorm take one block reduction each instead of two:
// every reduction is three barriers, and at bf16's 8 KiB rows those barriers, not the bytes,
// set the pace (rmsnorm, with one reduction, ran at 0.98 of the HBM copy while softmax and
// layernorm, with two, ran at 0.71 and 0.79 on the H200: docs/gpu-measured.md). Plain C++ as
// well as CUDA, so the host tests check the arithmetic (tests/kernels/row_statistics_test.cpp).
#include <cmath>

#ifdef __CUDACC__
#define RIDGELINE_HOST_DEVICE __host__ __device__
#else
#define RIDGELINE_HOST_DEVICE
#endif

namespace ridgeline::rows {

// Softmax's: the largest x of a part and the sum of exp(x - m) over it; {-inf, 0} for a part
// with nothing (padding) or only -inf.
struct MaxSum {
  float m, s;
  RIDGELINE_HOST_DEVICE static MaxSum empty() { return {-INFINITY, 0.0f}; }
};

// One exponential per combination: the part with the smaller max is rescaled to the other's.
RIDGELINE_HOST_DEVICE inline MaxSum combine(MaxSum a, MaxSum b) {
  const bool a_high = a.m >= b.m;
  const MaxSum high = a_high ? a : b, low = a_high ? b : a;
  // A part of -inf, padding or NaN only: its sum, 0 or NaN, is added as it is (a NaN
  // element makes the row NaN, as the reference's sum does); exp(-inf - -inf) would be NaN.
  if (low.m == -INFINITY) return {high.m, high.s + low.s};
  return {high.m, high.s + low.s * expf(low.m - high.m)};
}

// Layernorm's: a part's count of elements, mean and sum of squared deviations from it (M2).
struct MeanM2 {
  float n, mean, m2;
  RIDGELINE_HOST_DEVICE static MeanM2 empty() { return {0.0f, 0.0f, 0.0f}; }
};

// Chan, Golub and LeVeque's combination: the means weighted by count, M2 the parts' plus the
// means' distance squared times na nb / n.
RIDGELINE_HOST_DEVICE inline MeanM2 combine(MeanM2 a, MeanM2 b) {
  const float n = a.n + b.n;
  if (n == 0.0f) return MeanM2::empty();
  const float d = b.mean - a.mean, w = b.n / n;
  return {n, a.mean + d * w, a.m2 + b.m2 + d * d * a.n * w};
}

}  // namespace ridgeline::rows
