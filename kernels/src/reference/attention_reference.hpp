#pragma once
// The attention op's reference, textbook and in double: the scores of one query row, their
// max-subtracted softmax, the probabilities times V.
#include <cstdint>

namespace ridgeline {

// One (batch, head): Q, K and V are [seq][head_dim], row-major.
struct AttentionHead {
  const float* q = nullptr;
  const float* k = nullptr;
  const float* v = nullptr;
  std::int64_t seq = 0;
  std::int64_t head_dim = 0;
  bool causal = false;
};

// Row i of the output: out[c] = sum_j p_j V[j][c] with p = softmax_j(Q[i] . K[j] /
// sqrt(head_dim)) over j <= i when causal, else over all j; magnitude[c] = sum_j p_j |V[j][c]|,
// the scale an error in out[c] is measured against. Both hold head_dim doubles.
void attention_reference_row(const AttentionHead& head, std::int64_t i, double* out,
                             double* magnitude);

}  // namespace ridgeline
