// The packed rung's i8 on AVX512_VNNI (cpu/microkernel_avx512_vnni.cpp): vpdpbusd takes
// unsigned A, so the kernel offsets A by 128 and starts from -128 times B's column sums. The
// offset is checked where it matters most, on the extremes of int8 (all -128, all 127, both
// mixed), through the kernel's own packing and against a plain sum; and the rung runs i8
// where the CPU has AVX512_VNNI and says that it lacks it elsewhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "cpu/microkernel.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/cpu_features.hpp"

namespace ridgeline {

namespace {

// Aligned, as the driver's buffers are (the kernel loads B's panel aligned).
struct VnniBuffer {
  explicit VnniBuffer(std::size_t bytes)
      : data(static_cast<std::int8_t*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64))) {}
  ~VnniBuffer() { std::free(data); }
  VnniBuffer(const VnniBuffer&) = delete;
  VnniBuffer& operator=(const VnniBuffer&) = delete;
  std::int8_t* data;
};

// A (rows x kc) and B (kc x cols), row-major, as their values come; C's first rows x cols.
struct VnniCase {
  std::string name;
  int rows, cols;
  std::int64_t kc;
  std::vector<std::int8_t> a, b;
};

// Packs A and B with the kernel's own packing, runs it on C filled with `c0` (accumulating
// or not), and compares with the sum in int64.
void expect_vnni_plain_sums(const packed::MicroKernel<std::int8_t, std::int32_t>& uk,
                            const VnniCase& c, bool accumulate) {
  const int MR = uk.mr, NR = uk.nr;
  const std::int64_t kp = (c.kc + 3) / 4 * 4;
  VnniBuffer a(static_cast<std::size_t>(kp * MR));
  VnniBuffer b(static_cast<std::size_t>(kp * NR + uk.b_tail));
  uk.pack_a(c.a.data(), c.kc, 1, c.rows, c.kc, MR, a.data);
  uk.pack(c.b.data(), 1, c.cols, c.cols, c.kc, NR, b.data);
  const std::int32_t c0 = -7;
  std::vector<std::int32_t> out(static_cast<std::size_t>(MR * NR), c0);
  uk.fn(kp, a.data, b.data, nullptr, out.data(), NR, accumulate);
  for (int i = 0; i < c.rows; ++i)
    for (int j = 0; j < c.cols; ++j) {
      std::int64_t want = accumulate ? c0 : 0;
      for (std::int64_t p = 0; p < c.kc; ++p)
        want += std::int64_t{c.a[static_cast<std::size_t>(i * c.kc + p)]} *
                c.b[static_cast<std::size_t>(p * c.cols + j)];
      ASSERT_EQ(out[static_cast<std::size_t>(i * NR + j)], want)
          << c.name << ", kc " << c.kc << ", " << c.rows << " x " << c.cols << " at C[" << i << "]["
          << j << "]" << (accumulate ? " accumulating" : "");
    }
}

}  // namespace

TEST(PackedI8, SignOffsetIsExactOnTheExtremesOfInt8) {
  const CpuFeatures& cpu = cpu_features();
  if (!cpu.has_avx512() || !cpu.avx512_vnni)
    GTEST_SKIP() << "the i8 micro-kernel needs AVX-512 with AVX512_VNNI, which this CPU lacks";
  const auto uk = packed::microkernel_i8_avx512();
  std::mt19937 rng(41);
  const std::int8_t extremes[] = {-128, -127, -1, 0, 1, 126, 127};
  const auto fill = [&](std::size_t n, int kind) {
    std::vector<std::int8_t> v(n);
    for (std::int8_t& x : v)
      x = kind == 0   ? std::int8_t(-128)
          : kind == 1 ? std::int8_t(127)
          : kind == 2 ? extremes[rng() % 7]
                      : static_cast<std::int8_t>(rng());
    return v;
  };
  const char* kinds[] = {"all -128", "all 127", "extremes mixed", "uniform"};
  int cases = 0;
  const auto expect = [&](int rows, int cols, std::int64_t kc, int ka, int kb) {
    const VnniCase c{std::string("A ") + kinds[ka] + ", B " + kinds[kb],
                     rows,
                     cols,
                     kc,
                     fill(static_cast<std::size_t>(rows * kc), ka),
                     fill(static_cast<std::size_t>(kc * cols), kb)};
    for (bool accumulate : {false, true}) {
      expect_vnni_plain_sums(uk, c, accumulate);
      if (::testing::Test::HasFatalFailure()) return;
      ++cases;
    }
  };
  // Whole tiles and partial ones (A's padding rows are offset too), kc a multiple of four or
  // not.
  for (const auto& [rows, cols] : {std::pair{uk.mr, uk.nr}, std::pair{5, 17}})
    for (std::int64_t kc : {1, 3, 4, 130})
      for (int ka = 0; ka < 4; ++ka)
        for (int kb = 0; kb < 4; ++kb) expect(rows, cols, kc, ka, kb);
  // kc = 70000: the offset sums of A = 127 by B = -128 reach 255 x -128 x 70000 < -2^31 and
  // wrap, while the true sums (at most 2^14 x 70000 in magnitude) fit: exact all the same.
  for (int ka = 0; ka < 3; ++ka)
    for (int kb = 0; kb < 3; ++kb) expect(uk.mr, uk.nr, 70000, ka, kb);
  EXPECT_EQ(cases, (2 * 4 * 4 * 4 + 3 * 3) * 2);
}

// On each kind of CPU the right answer: Zen 3 (AVX2) refuses for want of AVX-512, a CPU with
// AVX-512 but not VNNI (Skylake-X) names AVX512_VNNI, Ice Lake on and Zen 4 on run it; the
// AVX2 rung does not declare i8 (Zen 3 has no AVX-VNNI either).
TEST(PackedI8, TheAvx512RungRunsI8WithAvx512VnniAndNamesItWhereAbsent) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  const CpuFeatures& cpu = cpu_features();
  const Problem p = gemm_problem(Shape{8, 8, 8, 1}, Layout::NN, DType::i8, "normal");
  for (const char* backend : {"cpu.packed_avx512", "cpu.packed_avx512_omp"}) {
    SCOPED_TRACE(backend);
    const auto kernel = catalog.create(backend);
    ASSERT_TRUE(kernel);
    EXPECT_NE(std::find(kernel->info().dtypes.begin(), kernel->info().dtypes.end(), DType::i8),
              kernel->info().dtypes.end());
    const Support s = kernel->supports(p, 1);
    if (!cpu.has_avx512()) {
      EXPECT_FALSE(s);
      EXPECT_NE(s.reason.find("AVX-512"), std::string::npos) << s.reason;
    } else if (!cpu.avx512_vnni) {
      EXPECT_FALSE(s);
      EXPECT_NE(s.reason.find("i8 needs AVX512_VNNI (vpdpbusd)"), std::string::npos) << s.reason;
    } else {
      EXPECT_TRUE(s) << s.reason;
    }
  }
  for (const char* backend : {"cpu.packed_avx2", "cpu.packed_avx2_omp"}) {
    const auto kernel = catalog.create(backend);
    ASSERT_TRUE(kernel);
    EXPECT_EQ(std::find(kernel->info().dtypes.begin(), kernel->info().dtypes.end(), DType::i8),
              kernel->info().dtypes.end())
        << backend;
    EXPECT_FALSE(kernel->supports(p, 1)) << backend;
  }
}

}  // namespace ridgeline
