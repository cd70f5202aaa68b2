#pragma once
// What the attention tests share (attention_test.cpp for f32, attention_bf16_test.cpp for
// bf16): a problem from its params text, its operands filled, and the awkward shapes every
// kernel is run on.
#include <gtest/gtest.h>

#include <string>

#include "../support/op_cases.hpp"

namespace ridgeline::attention_testing {

inline Problem make(const std::string& params, DType dtype = DType::f32) {
  Problem p = test::make_problem("attention", params);
  p.dtype = dtype;
  return p;
}

using test::filled;

// seq = 1, head_dim = 1, primes, head_dim off the vector widths (16, 8), causal with seq off
// the tiles (16 and 8 rows and keys), batch and heads above 1, and one large enough for the
// validation to sample rows (kSampledShape).
inline const char* const kShapes[] = {
    "heads=1,seq=1,head_dim=1",
    "heads=1,seq=1,head_dim=64,causal=1",
    "heads=2,seq=37,head_dim=1",
    "heads=1,seq=17,head_dim=64,causal=1",
    "heads=3,seq=131,head_dim=65,causal=1",
    "batch=2,heads=3,seq=37,head_dim=24,causal=1",
    "batch=2,heads=2,seq=100,head_dim=17",
    "heads=2,seq=1031,head_dim=64,causal=1",  // sampled rows
};
inline const std::string kSampledShape = "heads=2,seq=1031,head_dim=64,causal=1";

// The validation in `dtype`: an unwritten O is "never written"; the fused kernel's O
// passes; after `perturb(ops)` changes one output far past the tolerance, it fails.
template <typename Perturb>
void expect_validation_catches_a_wrong_and_an_unwritten_output(DType dtype, Perturb perturb) {
  const Problem p = make("heads=2,seq=33,head_dim=20,causal=1", dtype);
  Operands ops = filled(p);
  const Validation unwritten = validate(p, ops, 1);
  EXPECT_EQ(unwritten.disposition, Disposition::incorrect);
  EXPECT_NE(unwritten.message.find("never written"), std::string::npos) << unwritten.message;
  auto kernel = test::builtin_catalog().create("cpu.fused", "attention");
  kernel->prepare(p, ops, 1);
  kernel->run();
  ASSERT_EQ(validate(p, ops, 1).disposition, Disposition::passed);
  perturb(ops);
  const Validation wrong = validate(p, ops, 1);
  EXPECT_EQ(wrong.disposition, Disposition::incorrect) << wrong.max_rel_err;
}

}  // namespace ridgeline::attention_testing
