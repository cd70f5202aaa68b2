// The bandwidth loops at the SVE width (flags in kernels/CMakeLists.txt), at this process's
// vector length. Written with the ACLE intrinsics rather than over stream_sweeps_body.hpp:
// GCC 12 vectorises the body's fixed 64-element blocks for a length it does not know into
// predicated pieces with spills, not whole vectors. Each step takes four whole vectors (read:
// eight, its partial sums); a predicated tail takes what is left, nothing at the Neoverse
// cores' lengths (n is a multiple of 64).
#include <arm_sve.h>

#include "stream_sweeps.hpp"

namespace ridgeline::ceilings {
namespace {

// Eight vectors of partial sums, within L1 and beyond: two to three loads a cycle against a
// two-cycle FADD need four to six in flight.
double sve_read(const double* a, std::int64_t n, std::int64_t repeats) {
  const svbool_t all = svptrue_b64();
  const std::int64_t vl = static_cast<std::int64_t>(svcntd());
  svfloat64_t s0 = svdup_f64(0), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
  for (std::int64_t r = 0; r < repeats; ++r) {
    std::int64_t i = 0;
    for (; i + 8 * vl <= n; i += 8 * vl) {
      s0 = svadd_x(all, s0, svld1_vnum(all, a + i, 0));
      s1 = svadd_x(all, s1, svld1_vnum(all, a + i, 1));
      s2 = svadd_x(all, s2, svld1_vnum(all, a + i, 2));
      s3 = svadd_x(all, s3, svld1_vnum(all, a + i, 3));
      s4 = svadd_x(all, s4, svld1_vnum(all, a + i, 4));
      s5 = svadd_x(all, s5, svld1_vnum(all, a + i, 5));
      s6 = svadd_x(all, s6, svld1_vnum(all, a + i, 6));
      s7 = svadd_x(all, s7, svld1_vnum(all, a + i, 7));
    }
    for (; i < n; i += vl) {
      const svbool_t part = svwhilelt_b64(i, n);
      s0 = svadd_m(part, s0, svld1(part, a + i));
    }
  }
  const svfloat64_t s = svadd_x(all, svadd_x(all, svadd_x(all, s0, s1), svadd_x(all, s2, s3)),
                                svadd_x(all, svadd_x(all, s4, s5), svadd_x(all, s6, s7)));
  return svaddv(all, s);
}

void sve_write(double* a, std::int64_t n, double v, std::int64_t repeats) {
  const svbool_t all = svptrue_b64();
  const std::int64_t vl = static_cast<std::int64_t>(svcntd());
  const svfloat64_t x = svdup_f64(v);
  for (std::int64_t r = 0; r < repeats; ++r) {
    std::int64_t i = 0;
    for (; i + 4 * vl <= n; i += 4 * vl) {
      svst1_vnum(all, a + i, 0, x);
      svst1_vnum(all, a + i, 1, x);
      svst1_vnum(all, a + i, 2, x);
      svst1_vnum(all, a + i, 3, x);
    }
    for (; i < n; i += vl) svst1(svwhilelt_b64(i, n), a + i, x);
    asm volatile("" ::: "memory");  // every repeat's stores happen
  }
}

void sve_copy(double* __restrict a, const double* __restrict b, std::int64_t n,
              std::int64_t repeats) {
  const svbool_t all = svptrue_b64();
  const std::int64_t vl = static_cast<std::int64_t>(svcntd());
  for (std::int64_t r = 0; r < repeats; ++r) {
    std::int64_t i = 0;
    for (; i + 4 * vl <= n; i += 4 * vl) {
      svst1_vnum(all, a + i, 0, svld1_vnum(all, b + i, 0));
      svst1_vnum(all, a + i, 1, svld1_vnum(all, b + i, 1));
      svst1_vnum(all, a + i, 2, svld1_vnum(all, b + i, 2));
      svst1_vnum(all, a + i, 3, svld1_vnum(all, b + i, 3));
    }
    for (; i < n; i += vl) {
      const svbool_t part = svwhilelt_b64(i, n);
      svst1(part, a + i, svld1(part, b + i));
    }
    asm volatile("" ::: "memory");
  }
}

// likwid-bench's triad: A = B * C + D (four streams), one FMA a vector.
void sve_triad(double* __restrict a, const double* __restrict b, const double* __restrict c,
               const double* __restrict d, std::int64_t n, std::int64_t repeats) {
  const svbool_t all = svptrue_b64();
  const std::int64_t vl = static_cast<std::int64_t>(svcntd());
  auto step = [&](svbool_t pg, std::int64_t i, std::int64_t k) {
    svst1_vnum(
        pg, a + i, k,
        svmla_x(pg, svld1_vnum(pg, d + i, k), svld1_vnum(pg, b + i, k), svld1_vnum(pg, c + i, k)));
  };
  for (std::int64_t r = 0; r < repeats; ++r) {
    std::int64_t i = 0;
    for (; i + 4 * vl <= n; i += 4 * vl) {
      step(all, i, 0);
      step(all, i, 1);
      step(all, i, 2);
      step(all, i, 3);
    }
    for (; i < n; i += vl) step(svwhilelt_b64(i, n), i, 0);
    asm volatile("" ::: "memory");
  }
}

}  // namespace

const StreamSweeps stream_sweeps_sve{sve_read, sve_read, sve_write, sve_copy, sve_triad};

}  // namespace ridgeline::ceilings
