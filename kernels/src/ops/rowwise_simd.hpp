#pragma once
// The vector exp, written once over a SIMD traits type S, and the one-lane traits (plain
// floats) the scalar path and every unfused pass use. Included only by the ISA-specific
// translation units; the anonymous namespace gives each its own copy compiled with that
// unit's flags (no inline function built for AVX-512 can be picked by the linker for the
// AVX2 path).
//
// Traits S: V, kLanes, set1, load, store, load_tail(p, count, fill) (lanes >= count hold
// fill), store_tail(p, count, v), stream(p, v) (non-temporal, p aligned to the vector) and
// fence() (orders the streamed stores), add, sub, mul, max, min, fma(a, b, c) = a * b + c,
// round (to nearest), pow2 (2^n for integral n in [-126, 127]), zero_where_less(v, x, bound)
// (x < bound ? 0 : v), reduce_add, reduce_max, fill_where_greater(v, a, b, fill)
// (a > b ? fill : v) and any_greater(a, b) (some lane has a > b); optionally scale_pow2(p, n)
// (p * 2^n, see below). The AVX-512 and AVX2 traits are in simd_avx512.hpp and simd_avx2.hpp;
// they serve the packed GEMM's micro-kernels too (../cpu/microkernel_body.hpp), which also
// need T (the element), load_aligned (64-byte aligned p) and, for the activations, div; the
// f64 traits there have only what the micro-kernels need.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace ridgeline::ops {
namespace {

// exp(x) = 2^n * exp(r), n = round(x / ln 2), r = x - n ln 2 in [-ln2/2, ln2/2] (ln 2 in two
// parts, Cody-Waite, so n ln 2 is exact to ~2^-32), exp(r) by a degree-6 polynomial in
// Horner form: six FMAs (Cephes' expf form, 1 + r + r^2 q(r), took eight operations). Its
// coefficients are the Chebyshev fit on [-ln2/2, ln2/2] (mpmath.chebyfit, rounded to float),
// relative error 2.0e-8 before rounding, within 2 ulps with it (tests/kernels). Inputs are
// clamped to [kExpFlushLo, 88]. Below -126.5 ln 2 (-87.68) and at -inf the result is 0; from
// there to ln FLT_MIN (-87.34) it is the subnormal p * 2^-126: after max-subtraction such
// terms are below 2^-126 of the row's largest, 1. The lower clamp is where
// round(x log2 e) = -127: n + 127 = 0, so where 2^n is built from bits they are those of
// +0.0, and exp underflows to 0 without a compare and a mask.
inline constexpr float kExpFlushLo = -88.0f;
inline constexpr float kExpHi = 88.0f;  // 2^127 * exp(r) stays below FLT_MAX

// kUpperClamp false: x is known to be <= 0 (or NaN, which the lower clamp turns into
// kExpFlushLo either way), as where a row's maximum was subtracted: the clamp at kExpHi is one
// of exp's fifteen vector operations, which bound the AVX2 softmax (7 % of its exp sweep on
// the Zen 4 VM, docs/rowwise-ops.md). exp_nonpositive names that case.
template <typename S, bool kUpperClamp = true>
typename S::V exp_approx(typename S::V x) {
  using V = typename S::V;
  constexpr bool kScale = requires(V v) {
    S::scale_pow2(v, v);
  };
  V xc = S::max(x, S::set1(kExpFlushLo));
  if constexpr (kUpperClamp) xc = S::min(xc, S::set1(kExpHi));
  // n = round(xc * log2 e) by the 1.5 * 2^23 trick in one fma: t's low mantissa bits then
  // hold n + 127 (in [0, 254] after the clamp), n is t less the constant, and where the
  // traits build 2^n from bits (AVX2, one lane) 2^n is t's bits moved into the exponent field:
  // two operations fewer than a round, a convert, the bias's add and the shift (the AVX2 exp
  // was 1.42 cycles an element on the Zen 4 VM, and it bounds the fused softmax).
  constexpr float kRound = 12582912.0f + 127.0f;  // 1.5 * 2^23 + the exponent's bias
  const V t = S::fma(xc, S::set1(1.44269504088896341f), S::set1(kRound));
  const V n = S::sub(t, S::set1(kRound));
  V r = S::fma(n, S::set1(-0.693359375f), xc);  // ln 2 high part: n * it is exact
  r = S::fma(n, S::set1(2.12194440e-4f), r);    // ln 2 = 0.693359375 - 2.12194440e-4
  V p = S::set1(1.3941108481958508e-3f);
  p = S::fma(p, r, S::set1(8.37512593716383e-3f));
  p = S::fma(p, r, S::set1(4.166635125875473e-2f));
  p = S::fma(p, r, S::set1(1.6666415333747864e-1f));
  p = S::fma(p, r, S::set1(0.5f));
  p = S::fma(p, r, S::set1(1.0f));
  p = S::fma(p, r, S::set1(1.0f));
  // p * 2^n: one instruction where the traits have scale_pow2 (AVX-512's vscalefps), which
  // then needs the underflow masked to 0 below ln(FLT_MIN); else a multiply by 2^n from t's
  // bits, which is +0 at the flush clamp (two operations fewer: the AVX2 softmax is bound by
  // its exp on the Zen 4 VM, docs/rowwise-ops.md).
  // vscalefps gives p * 2^-127 at n = -127: zeroed there, as the bits give +0.
  if constexpr (kScale)
    return S::zero_where_less(S::scale_pow2(p, n), n, S::set1(-126.5f));
  else
    return S::mul(p, S::pow2_of_biased(t));
}

// exp(x) for x <= 0, -inf or NaN (0 for both): x less a maximum of its set.
template <typename S>
typename S::V exp_nonpositive(typename S::V x) {
  return exp_approx<S, false>(x);
}

// One lane. Written so that GCC vectorises loops over it under `omp simd` (no calls: the
// rounding is the 1.5 * 2^23 trick, 2^n is built from its bits).
struct F32x1 {
  using V = float;
  static constexpr int kLanes = 1;
  static V set1(float v) { return v; }
  static V load(const float* p) { return *p; }
  static void store(float* p, V v) { *p = v; }
  static V load_tail(const float* p, int, float) { return *p; }  // never called: no tail
  static void store_tail(float* p, int, V v) { *p = v; }
  static void stream(float* p, V v) { *p = v; }  // no intrinsics here: a plain store
  static void fence() {}
  static V add(V a, V b) { return a + b; }
  static V sub(V a, V b) { return a - b; }
  static V mul(V a, V b) { return a * b; }
  static V max(V a, V b) { return a > b ? a : b; }
  static V min(V a, V b) { return a < b ? a : b; }
  static V fma(V a, V b, V c) { return a * b + c; }  // contracted: -ffp-contract=fast
  static V round(V v) {
    constexpr float kMagic = 12582912.0f;  // 1.5 * 2^23: adding it rounds |v| < 2^22
    return (v + kMagic) - kMagic;
  }
  static V pow2(V n) { return std::bit_cast<float>((static_cast<std::int32_t>(n) + 127) << 23); }
  // 2^n from t = n + 127 + 1.5 * 2^23 (exp_approx): t's low bits shifted into the exponent.
  static V pow2_of_biased(V t) {
    return std::bit_cast<float>(std::bit_cast<std::int32_t>(t) << 23);
  }
  static V zero_where_less(V v, V x, V bound) { return x < bound ? 0.0f : v; }
  static float reduce_add(V v) { return v; }
  static float reduce_max(V v) { return v; }
  static V fill_where_greater(V v, V a, V b, float fill) { return a > b ? fill : v; }
  static bool any_greater(V a, V b) { return a > b; }
};

}  // namespace
}  // namespace ridgeline::ops
