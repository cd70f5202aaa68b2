#pragma once
// oneDNN (Debian's libdnnl-dev 2.6) as the CPU vendor library of the fusion suite: one
// prepared object per problem. create() builds the engine, stream, memory descriptors and
// primitives once; execute() is the call that is timed and only runs the primitives on the
// caller's buffers (set_data_handle, no copies). Nothing here includes oneDNN's headers,
// so the stub (onednn_ops_disabled.cpp, RIDGELINE_WITH_ONEDNN=OFF or oneDNN not found)
// builds from the same declarations and every create() says why it cannot run.
//
// Threads: Debian's oneDNN runs on OpenMP (libgomp), which has no per-primitive thread
// count. oneDNN reads omp_get_max_threads() when a primitive is created (it picks its
// blocking and partitioning for that count, and keys its primitive cache on it) and again
// when it executes (the size of each parallel region). So every create() and execute()
// sets omp_set_num_threads(threads) on the calling thread and restores the previous value
// on return: the object runs on the threads it was created for, whatever the caller's
// OpenMP setting, and leaves that setting as it was.
//
// Errors: create() never throws for a problem oneDNN or this build cannot run; it returns
// the reason. execute() throws std::runtime_error if oneDNN fails at run time.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../ops/activation.hpp"
#include "ridgeline/core/dtype.hpp"
#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline::ops {

// The object, or why there is none (support.reason).
template <class Op>
struct Prepared {
  std::unique_ptr<Op> op;
  Support support;
  explicit operator bool() const { return op != nullptr; }
};

// "oneDNN 2.6.3 (cpu runtime OMP, isa avx512_core_bf16)"; empty when oneDNN is unavailable.
std::string onednn_version();
// Empty when oneDNN is built in and a CPU engine can be created; otherwise why not.
std::string onednn_unavailable_reason();

// Each op takes its data in f32 or bf16 (dtype; bf16 buffers hold the raw 16 bits). oneDNN
// 2.6 runs bf16 on avx512_core and later; where it cannot, create() gives oneDNN's reason.

// y = softmax(x) over each row of a rows x cols row-major matrix (axis 1), x and y in dtype.
// x == y (in place) is allowed.
class OnednnSoftmax {
 public:
  static Prepared<OnednnSoftmax> create(std::int64_t rows, std::int64_t cols, int threads,
                                        DType dtype = DType::f32);
  ~OnednnSoftmax();
  void execute(const void* x, void* y);
  std::string implementation() const;  // oneDNN's implementation name, e.g. "jit:avx512_core"

  struct Impl;

 private:
  explicit OnednnSoftmax(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// y = (x - mean) / sqrt(var + eps) * gamma + beta over each row of a rows x cols row-major
// matrix; gamma and beta have cols elements, all in dtype. oneDNN 2.6 takes scale and shift
// in f32 only: for bf16, execute() widens gamma and beta first (2 cols elements, timed with
// the rest, as a framework calling oneDNN 2.6 would have to). rms = true (RMSNorm) is refused:
// oneDNN 2.6's layer_normalization always subtracts the mean (the RMS flag came in oneDNN 3.x).
class OnednnLayerNorm {
 public:
  static Prepared<OnednnLayerNorm> create(std::int64_t rows, std::int64_t cols, float eps, bool rms,
                                          int threads, DType dtype = DType::f32);
  ~OnednnLayerNorm();
  void execute(const void* x, const void* gamma, const void* beta, void* y);
  std::string implementation() const;

  struct Impl;

 private:
  explicit OnednnLayerNorm(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// C = act(A * B + bias): A m x k, B k x n, C m x n, all row-major; bias has n elements
// (broadcast over the rows). A, B and bias in dtype, C in f32 (bf16 products accumulate in
// f32, as output_dtype(bf16) says). act is a oneDNN eltwise post-op of the matmul (eltwise_relu,
// eltwise_gelu_tanh: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))).
class OnednnMatmulBiasAct {
 public:
  static Prepared<OnednnMatmulBiasAct> create(std::int64_t m, std::int64_t n, std::int64_t k,
                                              Activation act, int threads,
                                              DType dtype = DType::f32);
  ~OnednnMatmulBiasAct();
  void execute(const void* a, const void* b, const void* bias, float* c);
  std::string implementation() const;

  struct Impl;

 private:
  explicit OnednnMatmulBiasAct(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// C = A B per batch on operands where they lie: oneDNN's matmul with strided memory
// descriptors, every batch in one primitive. Each operand is described by its element
// stride along each batch index (the same indices, in the same order, for all three), then
// along its rows and its columns: A is m x k, B k x n, C m x n. A transposed operand is a
// row stride of 1 and a column stride of its leading dimension. f32, bf16 (from avx512_core)
// and i8 (s8 x s8), C in output_dtype(dtype): f32, f32, i32; oneDNN 2.6 has no f64 matmul.
// At most kOnednnMaxBatchIndices batch indices.
inline constexpr std::size_t kOnednnMaxBatchIndices = 10;  // DNNL_MAX_NDIMS (12) - 2
struct StridedMatrix {
  std::vector<std::int64_t> batch_strides;
  std::int64_t row_stride = 1, col_stride = 1;
};
class OnednnStridedMatmul {
 public:
  static Prepared<OnednnStridedMatmul> create(const std::vector<std::int64_t>& batch_extents,
                                              std::int64_t m, std::int64_t n, std::int64_t k,
                                              const StridedMatrix& a, const StridedMatrix& b,
                                              const StridedMatrix& c, int threads,
                                              DType dtype = DType::f32);
  ~OnednnStridedMatmul();
  void execute(const void* a, const void* b, void* c);
  std::string implementation() const;

  struct Impl;

 private:
  explicit OnednnStridedMatmul(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Caps oneDNN's instruction set at avx512_core_bf16 (dnnl::set_max_cpu_isa) for the rest of
// the process, so its kernels run on the vector units, not AMX: "" once capped, else why not
// (it must come before oneDNN's first primitive in the process).
std::string onednn_cap_isa_below_amx();
// Without changing anything: why a kernel that wants oneDNN `capped` (or not) cannot have it
// in this process ("" where it can): the cap is process-wide and set only before oneDNN's
// first primitive, so a capped row and an uncapped one never share a process.
std::string onednn_isa_refusal(bool capped);

// O = softmax(Q K^T / sqrt(head_dim) [+ causal mask]) V, the chain a framework runs with
// oneDNN's separate primitives (oneDNN 2.6 has no fused attention):
//   1. matmul S = Q K^T with output scale 1/sqrt(head_dim), K^T a strided view of K (no
//      transpose copy). Causal: a binary-add post-op adds a precomputed [seq, seq] mask
//      (0 on and below the diagonal, -inf above). oneDNN 2.6's fast matmul (brgemm) cannot
//      broadcast a post-op operand over the batch dimension: given a [1, seq, seq] mask for
//      a [batch*heads, seq, seq] S it falls back to its reference implementation (ref:any).
//      So the causal score matmul is a 2D [seq, head_dim] x [head_dim, seq] matmul executed
//      once per (batch, head) on views of Q, K and S; non-causal is one batched matmul;
//   2. softmax over the last axis of S, in place;
//   3. one batched matmul O = S V.
// Q, K, V, O are [batch, heads, seq, head_dim] contiguous, in dtype; S is in dtype too (bf16:
// the matmul narrows its f32 accumulators into S, softmax reads and writes bf16, the second
// matmul writes bf16 O, as a framework's bf16 chain). The object owns S
// (batch*heads*seq*seq elements) and, causal, the mask (seq*seq floats; f32 in either dtype,
// a post-op operand); create() refuses when S alone would exceed score_budget_bytes.
class OnednnAttention {
 public:
  static Prepared<OnednnAttention> create(std::int64_t batch, std::int64_t heads, std::int64_t seq,
                                          std::int64_t head_dim, bool causal,
                                          std::size_t score_budget_bytes, int threads,
                                          DType dtype = DType::f32);
  ~OnednnAttention();
  void execute(const void* q, const void* k, const void* v, void* o);
  std::string implementation() const;   // "matmul: ...; softmax: ...; matmul: ..."
  std::size_t workspace_bytes() const;  // scores + mask, allocated by create()

  struct Impl;

 private:
  explicit OnednnAttention(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace ridgeline::ops
