#pragma once
// The eltwise_chain op's steps, shared by its work model, its reference and its kernels.
// Step i applies op i % 4 of a fixed cycle:
//   0: y = y * 1.0001 + 0.5   (an FMA: 2 FLOPs)
//   1: y = max(y, 0)          (1)
//   2: y = y * 0.999          (1)
//   3: y = y * -0.5 + 1       (an FMA: 2)
// After two whole cycles every value lies in [0.25, 1], so any length stays finite, and
// the max keeps the chain from folding into one affine map.
#include <cstdint>

namespace ridgeline {

inline constexpr std::int64_t kEltwiseChainMaxLength = 32;
inline constexpr float kChainScale0 = 1.0001f, kChainShift0 = 0.5f;
inline constexpr float kChainScale2 = 0.999f;
inline constexpr float kChainScale3 = -0.5f, kChainShift3 = 1.0f;

// FLOPs per element of a chain of `length` steps (the cycle's 2, 1, 1, 2).
double eltwise_chain_flops_per_element(std::int64_t length);

}  // namespace ridgeline
