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

double gpu_ops_per_clock_per_sm(int cc_major, int cc_minor, const std::string& cls) {
  // A100 (8.0): 9.7 TFLOP/s f64, 19.5 f32, 156 tf32, 312 bf16/f16, 624 TOPS i8 at 1410 MHz
  // on 108 SMs. H100/H200 SXM (9.0): 67 TFLOP/s f32, 33.5 f64 (FMA units), 494.7 tf32,
  // 989.4 bf16/f16, 1979 TOPS i8 and 1979 TFLOP/s fp8 (dense) at 1830-1980 MHz on 132 SMs.
  struct Row {
    int major, minor;
    const char* cls;
    double per_clock;
  };
  static const Row table[] = {
      {8, 0, "f64.fma", 64}, {8, 0, "f32.fma", 128}, {8, 0, "tf32", 1024},   {8, 0, "bf16", 2048},
      {8, 0, "f16", 2048},   {8, 0, "i8", 4096},     {9, 0, "f64.fma", 128}, {9, 0, "f32.fma", 256},
      {9, 0, "tf32", 2048},  {9, 0, "bf16", 4096},   {9, 0, "f16", 4096},    {9, 0, "i8", 8192},
      {9, 0, "fp8", 8192},
  };
  for (const Row& r : table)
    if (r.major == cc_major && r.minor == cc_minor && cls == r.cls) return r.per_clock;
  return 0;
}

}  // namespace ridgeline
