#include "ridgeline/core/problem.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "ridgeline/core/work_model.hpp"

namespace ridgeline {

TEST(Problem, GemmWorkIsTwoMnkFlopsAndEachOperandOnce) {
  Problem p{"gemm", {3, 5, 7, 1}, Layout::NN, DType::f64, "normal"};
  WorkModel w = gemm_work(p);
  EXPECT_DOUBLE_EQ(w.flops, 2.0 * 3 * 5 * 7);
  EXPECT_DOUBLE_EQ(w.bytes.at("dram"), (3 * 7 + 7 * 5 + 3 * 5) * 8.0);
  p.dtype = DType::f32;
  p.shape.batch = 4;
  EXPECT_DOUBLE_EQ(gemm_work(p).bytes.at("dram"), (3 * 7 + 7 * 5 + 3 * 5) * 4.0 * 4);
}

TEST(Problem, LowPrecisionInputsStoreCInTheirAccumulatorType) {
  Problem p{"gemm", {3, 5, 7, 1}, Layout::NN, DType::bf16, "normal"};
  EXPECT_DOUBLE_EQ(gemm_work(p).bytes.at("dram"), (3 * 7 + 7 * 5) * 2.0 + 3 * 5 * 4.0);
  p.dtype = DType::i8;
  EXPECT_DOUBLE_EQ(gemm_work(p).bytes.at("dram"), (3 * 7 + 7 * 5) * 1.0 + 3 * 5 * 4.0);
  EXPECT_EQ(output_dtype(DType::i8), DType::i32);
  EXPECT_EQ(output_dtype(DType::tf32), DType::f32);
  EXPECT_EQ(output_dtype(DType::f64), DType::f64);
  EXPECT_EQ(size_of(DType::tf32), 4u);
  EXPECT_EQ(unit_roundoff(DType::i8), 0.0);
}

TEST(DType, HalfPrecisionConversionsRoundToNearestEven) {
  EXPECT_EQ(to_bf16(1.0f), 0x3f80);
  EXPECT_EQ(from_bf16(0x3f80), 1.0f);
  // 1 + 2^-8 is halfway between two bf16 values: ties go to the even one (1.0).
  EXPECT_EQ(to_bf16(1.0f + 0x1p-8f), 0x3f80);
  EXPECT_EQ(to_bf16(1.0f + 3 * 0x1p-8f), 0x3f82);  // halfway, rounds up to even
  EXPECT_TRUE(std::isnan(from_bf16(to_bf16(NAN))));
  EXPECT_EQ(from_bf16(to_bf16(-3.5f)), -3.5f);
  EXPECT_EQ(to_f16(1.0f), 0x3c00);
  EXPECT_EQ(from_f16(0x3c00), 1.0f);
  EXPECT_EQ(from_f16(to_f16(65504.0f)), 65504.0f);  // the largest f16
  EXPECT_TRUE(std::isinf(from_f16(to_f16(1e6f))));
  EXPECT_EQ(from_f16(0x0001), 0x1p-24f);  // smallest subnormal
}

TEST(Problem, NamesRoundTrip) {
  for (DType d : all_dtypes()) EXPECT_EQ(parse_dtype(to_string(d)), d);
  for (Layout l : {Layout::NN, Layout::NT, Layout::TN, Layout::TT})
    EXPECT_EQ(parse_layout(to_string(l)), l);
  EXPECT_FALSE(parse_dtype("f8"));
  EXPECT_FALSE(parse_dtype("i32"));  // an output type only
  EXPECT_FALSE(parse_layout("nn"));
  EXPECT_TRUE(transposes_a(Layout::TN));
  EXPECT_FALSE(transposes_b(Layout::TN));
  EXPECT_EQ(shape_label({1, 2, 3, 1}), "m=1,n=2,k=3");
  EXPECT_EQ(shape_label({1, 2, 3, 4}), "m=1,n=2,k=3,batch=4");
}

}  // namespace ridgeline
