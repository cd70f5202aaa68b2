#pragma once
// Where each index of an einsum moves in A, B and C (row-major in each operand's own index
// order): the direct loop nest (einsum_loops.cpp) and the reference check walk the output's
// indices and, inside, the contracted ones by these strides.
#include <cstdint>
#include <vector>

#include "ridgeline/core/ops/einsum.hpp"

namespace ridgeline {

struct EinsumStrides {
  // The output's indices in C's order, then the contracted ones: extent and stride in A and
  // in B (0 where the operand lacks the index).
  std::vector<std::int64_t> out_extent, out_a, out_b;
  std::vector<std::int64_t> sum_extent, sum_a, sum_b;
  std::int64_t outputs = 1, sums = 1;  // elements of C; points of the contracted space
};

inline std::int64_t stride_of(const std::string& indices, char index, const EinsumSpec& s) {
  std::int64_t stride = 1;
  for (auto it = indices.rbegin(); it != indices.rend(); ++it) {
    if (*it == index) return stride;
    stride *= s.extents.at(*it);
  }
  return 0;
}

inline EinsumStrides einsum_strides(const EinsumSpec& s) {
  EinsumStrides st;
  for (char ch : s.c) {
    st.out_extent.push_back(s.extents.at(ch));
    st.out_a.push_back(stride_of(s.a, ch, s));
    st.out_b.push_back(stride_of(s.b, ch, s));
    st.outputs *= s.extents.at(ch);
  }
  for (char ch : s.contracted()) {
    st.sum_extent.push_back(s.extents.at(ch));
    st.sum_a.push_back(stride_of(s.a, ch, s));
    st.sum_b.push_back(stride_of(s.b, ch, s));
    st.sums *= s.extents.at(ch);
  }
  return st;
}

// The offsets in A and B of output element `o` (C's row-major order).
inline void output_offsets(const EinsumStrides& st, std::int64_t o, std::int64_t& a,
                           std::int64_t& b) {
  a = b = 0;
  for (std::size_t k = st.out_extent.size(); k-- > 0;) {
    const std::int64_t i = o % st.out_extent[k];
    o /= st.out_extent[k];
    a += i * st.out_a[k];
    b += i * st.out_b[k];
  }
}

// Calls row(offset in A, offset in B, extent, stride in A, stride in B) for each run of the
// last contracted index, over the whole contracted space from the output element's offsets
// (an odometer over the other contracted indices: no division inside). `at` is scratch of
// one entry per contracted index, reused across calls.
template <typename Row>
void for_each_run(const EinsumStrides& st, std::int64_t a0, std::int64_t b0,
                  std::vector<std::int64_t>& at, Row&& row) {
  const std::size_t n = st.sum_extent.size();
  if (n == 0) {
    row(a0, b0, std::int64_t{1}, std::int64_t{0}, std::int64_t{0});
    return;
  }
  at.assign(n, 0);
  const std::int64_t inner = st.sum_extent[n - 1], sa = st.sum_a[n - 1], sb = st.sum_b[n - 1];
  std::int64_t a = a0, b = b0;
  while (true) {
    row(a, b, inner, sa, sb);
    // Advance the outer indices; done when the first wraps.
    std::size_t k = n - 1;
    while (k-- > 0) {
      a += st.sum_a[k];
      b += st.sum_b[k];
      if (++at[k] < st.sum_extent[k]) break;
      a -= st.sum_a[k] * st.sum_extent[k];
      b -= st.sum_b[k] * st.sum_extent[k];
      at[k] = 0;
      if (k == 0) return;
    }
    if (n == 1) return;
  }
}

}  // namespace ridgeline
