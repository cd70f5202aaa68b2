#pragma once
// The activations over a SIMD traits type S: rowwise_simd.hpp's traits (set1, add, mul, fma,
// max, min, round, pow2, zero_where_less, for exp_approx) plus div. Included only by
// ISA-specific translation units; the anonymous namespace gives each its own copy.
#include "activation.hpp"
#include "rowwise_simd.hpp"

namespace ridgeline::ops {
namespace {

inline constexpr float kGeluCubic = 0.044715f;
inline constexpr float kSqrt2OverPi = 0.7978845608028654f;

// gelu_tanh(x) = 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3). As
// 0.5 (1 + tanh u) = 1 / (1 + exp(-2u)), this is x / (1 + exp(-2u)): tanh as a rational
// function of exp_approx's polynomial, one division, and no cancellation where tanh u
// tends to -1 (negative x), which 1 + tanh(u) would suffer. Below x = -10, where -2u passes
// exp's clamp at 88, gelu is under 2e-37 and the result is 0; large positive x: exp is 0
// and the result is x. NaN stays NaN.
inline constexpr float kGeluZeroBelow = -10.0f;

template <typename S>
typename S::V gelu_tanh(typename S::V x) {
  using V = typename S::V;
  const V inner = S::fma(S::mul(S::mul(x, x), S::set1(kGeluCubic)), x, x);
  const V e = exp_approx<S>(S::mul(inner, S::set1(-2.0f * kSqrt2OverPi)));
  return S::zero_where_less(S::div(x, S::add(S::set1(1.0f), e)), x, S::set1(kGeluZeroBelow));
}

// max(0, x) with x second, so that a NaN x stays NaN (x86 max returns its second operand
// when either is NaN).
template <typename S>
typename S::V relu(typename S::V x) {
  return S::max(S::set1(0.0f), x);
}

template <typename S>
typename S::V activate(typename S::V x, Activation act) {
  return act == Activation::relu ? relu<S>(x) : gelu_tanh<S>(x);
}

}  // namespace
}  // namespace ridgeline::ops
