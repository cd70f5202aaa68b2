#pragma once
// The GPU side of the kernels module: which CUDA devices this process sees, and the GPU
// kernels added to the catalog. Built with RIDGELINE_WITH_CUDA; without it every call
// answers with the reason and the option that turns it on.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ridgeline {

class KernelCatalog;

struct GpuDevice {
  int index = 0;
  std::string name;  // "NVIDIA H100 80GB HBM3"
  int cc_major = 0;  // compute capability
  int cc_minor = 0;
  int multiprocessors = 0;
  std::int64_t memory_bytes = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t shared_memory_per_block_optin = 0;
  int memory_bus_bits = 0;
  std::string uuid;
};

struct GpuProbe {
  bool built = false;  // compiled with CUDA
  std::vector<GpuDevice> devices;
  std::string reason;  // why there is no device (empty when there is one)
  bool available() const { return !devices.empty(); }
};

// How many copies of a problem's operands (`set_bytes` each) GPU runs rotate through so
// that a run never finds its inputs in an L2 of `l2_bytes`: enough to span three L2s, at
// most 1024 copies and at most `memory_budget` bytes in all; at least one.
int rotation_slots(std::int64_t set_bytes, std::int64_t l2_bytes, std::int64_t memory_budget);

// Asked once per process (the CUDA runtime initialises then), cached afterwards.
const GpuProbe& gpu_probe();

// The GPUs this process sees, asked in this process (gpu_probe() asks in a child, so that
// forked cases can use CUDA): for code that goes on to use a GPU here, as NCCL's ranks do.
// Sets `count`; where there is none, returns why (the first CUDA call's error and what it
// usually means), else "".
std::string gpus_in_this_process(int& count);

// One GPU ceiling measured by a microbenchmark (or a library call, named in `method`).
struct GpuCeiling {
  std::string kind;    // "compute", "memory", "overhead"; "failed" (`method` says why)
  std::string name;    // "gpu.bf16.mma_sync", "HBM.copy", "gpu.launch"
  std::string dtype;   // compute: "f64", "f32", "tf32", "bf16", "f16", "i8"
  std::string level;   // memory: "HBM", "L2", "SMEM", "PCIe"
  std::string kernel;  // memory: "copy", "read", "h2d", "d2h"
  std::string method;  // how it was measured: "FMA chains", "mma.sync m16n8k16", "cuBLASLt 8192^3"
  std::string unit;    // "FLOP/s", "OP/s", "B/s", "s"
  double value = 0;
  double theoretical = 0;  // SMs x clock x per-SM rate of the design; 0 with the reason
  std::string theoretical_reason;
  std::int64_t working_set_bytes = 0;
};

// Measures the ceilings of GPU 0 whose names `wanted` accepts (each the best of `trials`
// runs of about `seconds` each), reporting each on `progress`. Call it in a process that
// will not fork CUDA work afterwards (the probe runs in a child). Empty without CUDA or a
// GPU.
std::vector<GpuCeiling> measure_gpu_ceilings(
    const std::function<bool(const std::string&)>& wanted,
    const std::function<void(const std::string&)>& progress, double seconds, int trials);

// How a row-major C = op(A) op(B) (m x n, A and B stored as the layout says) is asked of a
// column-major library (cuBLAS, cuBLASLt): as C^T = op(B)^T op(A)^T, B first. The views are
// the stored buffers read column-major (rows and columns swap).
struct ColumnMajorGemm {
  bool transpose_first = false, transpose_second = false;        // op of B's view, of A's view
  std::int64_t m = 0, n = 0, k = 0;                              // of the column-major product
  std::int64_t first_rows = 0, first_cols = 0, ld_first = 0;     // B's view
  std::int64_t second_rows = 0, second_cols = 0, ld_second = 0;  // A's view
  std::int64_t out_rows = 0, out_cols = 0, ld_out = 0;           // C's view
};
ColumnMajorGemm column_major_view(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t lda,
                                  std::int64_t ldb, std::int64_t ldc, bool transpose_a,
                                  bool transpose_b);

// Operations per clock per multiprocessor of the tensor cores and FMA units, from NVIDIA's
// published peaks, for compute capability 8.0 and 9.0; 0 when the design or class is not in
// the table. `cls`: "f64.fma", "f64.tensor", "f32.fma", "tf32", "bf16", "f16", "i8", "fp8".
double gpu_ops_per_clock_per_sm(int cc_major, int cc_minor, const std::string& cls);

// The GPU kernels: the f32 SIMT ladder, the tensor-core kernel, cuBLAS and cuBLASLt. Adds
// nothing when built without CUDA.
void add_gpu_kernels(KernelCatalog& catalog);

}  // namespace ridgeline
