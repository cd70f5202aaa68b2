#pragma once
// The eltwise_chain op's steps, shared by its reference and its kernels: step i of the
// chain is y = max(a * y + b, lo) with the constants of step i % 4. Every step is an FMA
// and a max (3 FLOPs); the constants keep |y| bounded for any length, and the max at a
// negative floor keeps the chain from being a single affine map a compiler could fold.
#include <cstdint>

namespace ridgeline {

inline constexpr std::int64_t kEltwiseChainMaxLength = 32;

struct EltwiseChainStep {
  float a;
  float b;
  float lo;
  double flops;
};

constexpr EltwiseChainStep eltwise_chain_step(std::int64_t i) {
  constexpr EltwiseChainStep kSteps[4] = {{0.75f, 0.5f, -4.0f, 3},
                                          {-1.25f, 0.25f, -2.0f, 3},
                                          {0.5f, -0.125f, -3.0f, 3},
                                          {1.125f, 0.0625f, -1.5f, 3}};
  return kSteps[i % 4];
}

// FLOPs per element of a chain of `length` steps.
double eltwise_chain_flops_per_element(std::int64_t length);

}  // namespace ridgeline
