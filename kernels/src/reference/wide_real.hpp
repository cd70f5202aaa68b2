#pragma once
// WideReal: the accumulator of the f64 references, which must be more precise than the
// kernel's own double. On x86-64 long double is the x87's extended format (64-bit
// significand), in hardware. Elsewhere it is not: on AArch64 it is IEEE quad in libgcc's
// software, tens of times slower than double (under qemu the f64 references took two thirds
// of the arm64 catalog's validation time). There a double-double stands in: each product
// exact by FMA, each sum error-free by TwoSum, about 104 significant bits. Its error on a sum
// is bounded relative to the sum of the magnitudes, the scale every check divides by.

#include <cmath>
#include <limits>
#include <type_traits>

namespace ridgeline {

struct DoubleDouble {
  double hi = 0, lo = 0;  // the value is hi + lo, |lo| <= half an ulp of hi

  constexpr DoubleDouble() = default;
  constexpr DoubleDouble(double x) : hi(x) {}  // NOLINT: converts as long double does
  explicit operator long double() const { return static_cast<long double>(hi) + lo; }
  explicit operator double() const { return hi + lo; }

  friend DoubleDouble operator+(DoubleDouble a, DoubleDouble b) {
    const double s = a.hi + b.hi, bv = s - a.hi;
    const double e = (a.hi - (s - bv)) + (b.hi - bv) + a.lo + b.lo;  // TwoSum, then the lows
    return normalized(s, e);
  }
  friend DoubleDouble operator*(DoubleDouble a, DoubleDouble b) {
    const double p = a.hi * b.hi;
    const double e = std::fma(a.hi, b.hi, -p) + (a.hi * b.lo + a.lo * b.hi);  // TwoProduct
    return normalized(p, e);
  }
  DoubleDouble& operator+=(DoubleDouble b) { return *this = *this + b; }

 private:
  static DoubleDouble normalized(double s, double e) {  // FastTwoSum: |s| >= |e|
    DoubleDouble r;
    r.hi = s + e;
    r.lo = e - (r.hi - s);
    return r;
  }
};

// |x| as the scale each error is divided by, a sum of magnitudes: a double-double's in
// double (the scale's own rounding, k u of itself, moves no verdict; its range is the
// double-double's), long double's in long double (its range: a sum of |a b| near double's
// limit must not overflow to an infinite scale that would pass anything).
inline double scale_of(DoubleDouble x) {
  return std::fabs(x.hi);
}
inline long double scale_of(long double x) {
  return std::fabs(x);
}
inline double scale_of(double x) {
  return std::fabs(x);
}

using WideReal =
    std::conditional_t<std::numeric_limits<long double>::digits == 64, long double, DoubleDouble>;

// MathReal: the scalar of the references that call the math library (exp, sqrt, tanh) on f32
// or bf16 data (the row-wise ops, gemm_bias_act's activation), where no double-double
// exists. long double where it is the x87's; elsewhere double, whose 53 bits are still 29
// past the f32 kernels' 24: libgcc's quad exp made the row-wise references four fifths of
// their tests' time under qemu (the bf16 awkward shapes 32 s, 6.5 s in double).
using MathReal =
    std::conditional_t<std::numeric_limits<long double>::digits == 64, long double, double>;
template <typename Real>
using ScaleOf = decltype(scale_of(Real{}));

}  // namespace ridgeline
