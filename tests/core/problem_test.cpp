#include "ridgeline/core/problem.hpp"

#include <gtest/gtest.h>

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

TEST(Problem, NamesRoundTrip) {
  for (DType d : all_dtypes()) EXPECT_EQ(parse_dtype(to_string(d)), d);
  for (Layout l : {Layout::NN, Layout::NT, Layout::TN, Layout::TT})
    EXPECT_EQ(parse_layout(to_string(l)), l);
  EXPECT_FALSE(parse_dtype("f16"));
  EXPECT_FALSE(parse_layout("nn"));
  EXPECT_TRUE(transposes_a(Layout::TN));
  EXPECT_FALSE(transposes_b(Layout::TN));
  EXPECT_EQ(shape_label({1, 2, 3, 1}), "m=1,n=2,k=3");
  EXPECT_EQ(shape_label({1, 2, 3, 4}), "m=1,n=2,k=3,batch=4");
}

}  // namespace ridgeline
