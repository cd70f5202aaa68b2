// The FP environment scope (x86-64 MXCSR, AArch64 FPCR) reaches the calling thread and every thread
// of the OpenMP team the kernels' parallel regions reuse, and restores IEEE when it ends.
#include "fp_env_scope.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <vector>

namespace ridgeline {
namespace {

// Each team thread's {ftz, daz}, read inside a parallel region as a kernel's would run.
std::vector<FlushBits> team_bits(int threads) {
  std::vector<FlushBits> bits(static_cast<std::size_t>(threads));
#pragma omp parallel num_threads(threads)
  bits[static_cast<std::size_t>(omp_get_thread_num())] = current_flush_bits();
  return bits;
}

TEST(FpEnvScope, FtzDazReachesEveryTeamThreadAndIsUndoneAfter) {
  // x86 MXCSR's FTZ and DAZ, or AArch64's FPCR.FZ (both at once).
  const int threads = 3;  // more than this VM's cores: the pool, not the core count
  {
    const FpEnvScope scope(FpEnv::ftz_daz, threads);
    for (const FlushBits& b : team_bits(threads)) {
      EXPECT_TRUE(b.ftz);
      EXPECT_TRUE(b.daz);
    }
    // The arithmetic, not only the bits: a subnormal input reads as 0, a subnormal result is 0.
    volatile float tiny = 0x1p-140f;
    EXPECT_EQ(tiny * 1.0f, 0.0f);
    volatile float small = 0x1p-100f;
    EXPECT_EQ(small * 0x1p-30f, 0.0f);
  }
  for (const FlushBits& b : team_bits(threads)) {
    EXPECT_FALSE(b.ftz);
    EXPECT_FALSE(b.daz);
  }
  volatile float tiny = 0x1p-140f;
  EXPECT_EQ(tiny * 1.0f, 0x1p-140f);
}

TEST(FpEnvScope, IeeeTouchesNothing) {
  const FpEnvScope scope(FpEnv::ieee, 2);
  for (const FlushBits& b : team_bits(2)) EXPECT_FALSE(b.ftz || b.daz);
}

TEST(FpEnvScope, RefusedWhereMxcsrCannotReach) {
  KernelInfo gpu{"gemm", "cuda.cublas", Device::gpu, {DType::f32}, false, "", KernelRole::vendor};
  KernelInfo blas{"gemm",
                  "blas.openblas",
                  Device::cpu,
                  {DType::f32},
                  true,
                  "",
                  KernelRole::vendor,
                  std::string(kBlasFamily)};
  KernelInfo packed{"gemm", "cpu.packed_avx512_omp", Device::cpu, {DType::f32}, true, ""};
  EXPECT_FALSE(fp_env_support(FpEnv::ftz_daz, gpu, 1));
  EXPECT_NE(fp_env_support(FpEnv::ftz_daz, gpu, 1).reason.find("runs on the gpu"),
            std::string::npos);
  EXPECT_TRUE(fp_env_support(FpEnv::ftz_daz, blas, 1));
  EXPECT_FALSE(fp_env_support(FpEnv::ftz_daz, blas, 2));
  EXPECT_TRUE(fp_env_support(FpEnv::ftz_daz, packed, 2));
  EXPECT_TRUE(fp_env_support(FpEnv::ieee, gpu, 1));
}

}  // namespace
}  // namespace ridgeline
