// Host-only arithmetic, built with or without CUDA so its tests run everywhere.
#include <algorithm>
#include <string>

#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

int rotation_slots(std::int64_t set_bytes, std::int64_t l2_bytes, std::int64_t memory_budget) {
  if (set_bytes <= 0) return 1;
  const std::int64_t wanted = (3 * l2_bytes + set_bytes - 1) / set_bytes;
  const std::int64_t affordable = memory_budget / set_bytes;
  return static_cast<int>(std::clamp<std::int64_t>(std::min(wanted, affordable), 1, 1024));
}

}  // namespace ridgeline

namespace ridgeline {

ColumnMajorGemm column_major_view(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t lda,
                                  std::int64_t ldb, std::int64_t ldc, bool transpose_a,
                                  bool transpose_b) {
  ColumnMajorGemm g;
  g.transpose_first = transpose_b;
  g.transpose_second = transpose_a;
  g.m = n;
  g.n = m;
  g.k = k;
  // B stored k x n (n x k when transposed), read column-major: n x k (k x n).
  g.first_rows = transpose_b ? k : n;
  g.first_cols = transpose_b ? n : k;
  g.ld_first = ldb;
  g.second_rows = transpose_a ? m : k;
  g.second_cols = transpose_a ? k : m;
  g.ld_second = lda;
  g.out_rows = n;
  g.out_cols = m;
  g.ld_out = ldc;
  return g;
}

double gpu_ops_per_clock_per_sm(int cc_major, int cc_minor, const std::string& cls) {
  // A100 (8.0): 9.7 TFLOP/s f64 (19.5 on the tensor cores), 19.5 f32, 156 tf32, 312
  // bf16/f16, 624 TOPS i8 at 1410 MHz on 108 SMs. H100/H200 SXM (9.0): 67 TFLOP/s f32,
  // 33.5 f64 on the FMA units and 67 on the tensor cores (DMMA, which cuBLAS DGEMM uses),
  // 494.7 tf32, 989.4 bf16/f16, 1979 TOPS i8 and 1979 TFLOP/s fp8 (dense) at 1830-1980 MHz
  // on 132 SMs.
  struct Row {
    int major, minor;
    const char* cls;
    double per_clock;
  };
  static const Row table[] = {
      {8, 0, "f64.fma", 64},     {8, 0, "f32.fma", 128}, {8, 0, "tf32", 1024},
      {8, 0, "bf16", 2048},      {8, 0, "f16", 2048},    {8, 0, "i8", 4096},
      {8, 0, "f64.tensor", 128}, {9, 0, "f64.fma", 128}, {9, 0, "f32.fma", 256},
      {9, 0, "tf32", 2048},      {9, 0, "bf16", 4096},   {9, 0, "f16", 4096},
      {9, 0, "i8", 8192},        {9, 0, "fp8", 8192},    {9, 0, "f64.tensor", 256},
  };
  for (const Row& r : table)
    if (r.major == cc_major && r.minor == cc_minor && cls == r.cls) return r.per_clock;
  return 0;
}

}  // namespace ridgeline
