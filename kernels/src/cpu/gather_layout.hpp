#pragma once
// The packed GEMM over tensors as they lie (GETT, the TBLIS idea): each of the GEMM's
// dimensions m, n and k stands for a set of tensor indices, so row i of op(A) starts at
// a_m[i], its step p sits a_k[p] further, and C's element (i, j) at c_m[i] + c_n[j] (element
// offsets from each operand's start). The tables are built once per shape; the driver
// (packed_gemm.hpp) packs a panel with the strided packing where its offsets run at one
// stride and gathers elsewhere, and stores a tile straight to C where its rows run at one
// stride and its columns at stride 1, else through the scratch tile, scattered.
#include <cstdint>
#include <vector>

namespace ridgeline::packed {

struct GatherLayout {
  std::vector<std::int64_t> a_m, a_k;  // op(A)[i][p] at a[a_m[i] + a_k[p]]
  std::vector<std::int64_t> b_k, b_n;  // op(B)[p][j] at b[b_k[p] + b_n[j]]
  std::vector<std::int64_t> c_m, c_n;  // C[i][j] at c[c_m[i] + c_n[j]]
};

inline constexpr std::int64_t kIrregular = INT64_MIN;

// The one stride of `count` offsets, or kIrregular; 1 for a single offset, whose stride is
// never used (so a single lane or step reads as contiguous).
inline std::int64_t common_stride(const std::int64_t* offsets, std::int64_t count) {
  if (count <= 1) return 1;
  const std::int64_t s = offsets[1] - offsets[0];
  for (std::int64_t i = 2; i < count; ++i)
    if (offsets[i] - offsets[i - 1] != s) return kIrregular;
  return s;
}

// Steps of a kc block at one stride, packed by the strided packing into their rows.
struct StepRun {
  std::int64_t start, length, stride;
};

// What the driver reads of a layout per panel and per block, worked out once per shape
// (scanning the offsets per panel cost as much as packing it where k is 32): each MR-row
// panel's lane stride in A and row stride in C, each NR-column panel's lane stride in B and
// column stride in C (kIrregular where none), each kc block's runs of steps in A and B
// (empty: gathered, where runs average fewer than 8 steps).
struct GatherPlan {
  std::vector<std::int64_t> a_lanes, c_rows;
  std::vector<std::int64_t> b_lanes, c_cols;
  std::vector<std::vector<StepRun>> a_runs, b_runs;
};
GatherPlan plan_gather(const GatherLayout& layout, std::int64_t k, int mr, int nr, std::int64_t kc);

}  // namespace ridgeline::packed
