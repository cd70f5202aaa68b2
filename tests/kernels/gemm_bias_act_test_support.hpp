#pragma once
// What the gemm_bias_act tests share (gemm_bias_act_test.cpp for f32,
// gemm_bias_act_bf16_test.cpp for bf16): the problem, operands filled as the runner fills
// them, the result computed by hand from the op's definition, the awkward shapes and the
// catalog kernels' run over them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "../support/op_cases.hpp"
#include "ridgeline/core/dtype.hpp"
#include "ridgeline/core/ops/gemm.hpp"

namespace ridgeline::test {

inline Problem make_gemm_bias_act(const std::string& params, const char* act,
                                  DType dtype = DType::f32) {
  Problem p = make_problem("gemm_bias_act", params + "/act=" + act);
  p.dtype = dtype;
  return p;
}

// The textbook formula in double, straight from the op's definition.
inline double gelu_by_hand(double x) {
  return 0.5 * x *
         (1.0 + std::tanh(std::sqrt(2.0 / std::numbers::pi) * (x + 0.044715 * x * x * x)));
}

// An input's values in double: f32, or bf16 widened (exactly).
inline std::vector<double> values_of(const OperandBuffer& b) {
  std::vector<double> out;
  if (b.dtype() == DType::bf16) {
    for (std::uint16_t x : b.as<std::uint16_t>()) out.push_back(from_bf16(x));
  } else {
    for (float x : b.as<float>()) out.push_back(x);
  }
  return out;
}

// act(A B + bias) in double from the inputs as stored.
inline std::vector<double> gemm_bias_act_by_hand(const Problem& p, const Operands& ops) {
  const Shape s = gemm_shape(p);
  const auto a = values_of(ops.at("A")), b = values_of(ops.at("B"));
  const auto bias = values_of(ops.at("bias"));
  const bool relu = p.params.attr("act") == "relu";
  std::vector<double> c(static_cast<std::size_t>(s.m * s.n));
  for (std::int64_t i = 0; i < s.m; ++i)
    for (std::int64_t j = 0; j < s.n; ++j) {
      double z = bias[j];
      for (std::int64_t q = 0; q < s.k; ++q) z += a[i * s.k + q] * b[q * s.n + j];
      c[i * s.n + j] = relu ? std::max(z, 0.0) : gelu_by_hand(z);
    }
  return c;
}

// 1x1x1; one row; one column; primes; n not a multiple of any vector width (and below one);
// odd k (bf16's last pair padded with a zero); k across several kc blocks (kc <= 1024), odd,
// with edge tiles in m and n; n across nc blocks (nc <= 16384).
inline const std::vector<std::string> kGemmBiasActShapes{
    "m=1,n=1,k=1",   "m=1,n=67,k=33",    "m=45,n=1,k=20",    "m=37,n=53,k=19", "m=29,n=33,k=17",
    "m=15,n=7,k=64", "m=37,n=53,k=2101", "m=30,n=96,k=3000", "m=3,n=16500,k=5"};

// cpu.fused and cpu.unfused from the catalog on every shape, both activations, 1 and 2
// threads, each run twice (the second run must overwrite C, not add the bias again); skips
// with the kernel's reason where it cannot run `dtype` here.
inline void expect_catalog_kernels_pass(DType dtype) {
  for (const char* backend : {"cpu.fused", "cpu.unfused"}) {
    auto probe = builtin_catalog().create(backend, "gemm_bias_act");
    ASSERT_TRUE(probe) << backend;
    const Support here = probe->supports(make_gemm_bias_act("m=8,n=8,k=8", "relu", dtype), 1);
    if (!here) GTEST_SKIP() << here.reason;
    for (const std::string& shape : kGemmBiasActShapes)
      for (const char* act : {"relu", "gelu_tanh"})
        for (int threads : {1, 2}) {
          auto kernel = builtin_catalog().create(backend, "gemm_bias_act");
          const Problem p = make_gemm_bias_act(shape, act, dtype);
          ASSERT_TRUE(kernel->supports(p, threads)) << kernel->supports(p, threads).reason;
          Operands ops = filled(p);
          kernel->prepare(p, ops, threads);
          kernel->run();
          const Validation v = validate(p, ops, 7);
          EXPECT_EQ(v.disposition, Disposition::passed)
              << backend << " " << to_string(dtype) << " " << shape << " " << act
              << " threads=" << threads << ": " << v.message;
          kernel->run();
          EXPECT_EQ(validate(p, ops, 8).disposition, Disposition::passed)
              << "second run: " << backend << " " << shape << " " << act;
        }
  }
}

}  // namespace ridgeline::test
