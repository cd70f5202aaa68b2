#pragma once
// cuDNN's graph (backend) API, for what cuDNN offers only there (normalisation, attention):
// one owner type for its descriptors, tensors and variant packs built in one place, and the
// execution plans of the heuristics' engine configs that finalise (a kernel times them and
// keeps the fastest, as a user tuning cuDNN would). cuDNN is
// the one loaded on first use (cudnn_library.hpp).
#include <cuda_runtime.h>
#include <cudnn.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ridgeline {

class CudnnDescriptor {
 public:
  explicit CudnnDescriptor(cudnnBackendDescriptorType_t type);
  CudnnDescriptor(CudnnDescriptor&& other) noexcept : d_(other.d_) { other.d_ = nullptr; }
  CudnnDescriptor& operator=(CudnnDescriptor&&) = delete;
  CudnnDescriptor(const CudnnDescriptor&) = delete;
  ~CudnnDescriptor();
  cudnnBackendDescriptor_t get() const { return d_; }
  // `count` values of cuDNN's `type` at `values`; throws naming the attribute.
  CudnnDescriptor& set(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type,
                       std::int64_t count, const void* values);
  CudnnDescriptor& set(cudnnBackendAttributeName_t name, const CudnnDescriptor& value);
  CudnnDescriptor& finalize();

 private:
  cudnnBackendDescriptor_t d_ = nullptr;
};

// Where a graph's tensor lives: device memory the variant pack names, a scalar passed from
// the host (an epsilon, a scale), or nowhere (virtual: an intermediate cuDNN keeps inside its
// kernel, never in memory).
enum class CudnnTensorKind { memory, by_value, virtual_ };

// A finalised tensor of a graph: its dims and strides, 16-byte aligned.
CudnnDescriptor cudnn_tensor(std::int64_t uid, cudnnDataType_t type,
                             const std::vector<std::int64_t>& dims,
                             const std::vector<std::int64_t>& strides,
                             CudnnTensorKind kind = CudnnTensorKind::memory);

// Finalised operations of a graph, over finalised tensors. A pointwise operation of `mode`
// computed in `math`: y = mode(x) with b for binary modes and t too for a select (b where t
// is false); `axis` for CUDNN_POINTWISE_GEN_INDEX (the index along that dimension).
CudnnDescriptor cudnn_pointwise(cudnnPointwiseMode_t mode, cudnnDataType_t math,
                                const CudnnDescriptor& x, const CudnnDescriptor* b,
                                const CudnnDescriptor* t, const CudnnDescriptor& y,
                                std::int64_t axis = -1);
// y = x reduced by `op` (in f32) over the dimensions where y has extent 1.
CudnnDescriptor cudnn_reduction(cudnnReduceTensorOp_t op, const CudnnDescriptor& x,
                                const CudnnDescriptor& y);
// c = a b over the last two dimensions, batched over the others, accumulated in f32.
CudnnDescriptor cudnn_matmul(const CudnnDescriptor& a, const CudnnDescriptor& b,
                             const CudnnDescriptor& c);

// One execution plan for a graph: which heuristics mode ("A", "fallback") and which of its
// engine configs it came from, cuDNN's global index of that config's engine (-1 where cuDNN
// did not say), its workspace.
struct CudnnPlan {
  std::unique_ptr<CudnnDescriptor> plan;
  std::int64_t workspace_bytes = 0;
  const char* mode = "A";
  int config = 0;
  std::int64_t engine = -1;
};
// Every plan that finalises, in the heuristics' order, and what they keep alive.
struct CudnnPlans {
  std::vector<CudnnDescriptor> kept;  // the graph, heuristics, engine configs
  std::vector<CudnnPlan> plans;
  int configs = 0;  // engine configs the heuristics offered (at most 32 a mode are tried)
};
// The plans that finalise for the graph of `ops`: heuristics mode A's engine configs, then
// the fallback list's other engines (`fallback` always, or only where mode A's gave none);
// throws with each refusal's status when none does.
enum class CudnnFallback { always, when_a_has_none };
CudnnPlans cudnn_plans(cudnnHandle_t handle, const std::vector<const CudnnDescriptor*>& ops,
                       CudnnFallback fallback = CudnnFallback::always);

// Each plan's best time in seconds over `runs` calls with `pack` on `stream` (after one
// untimed call), by CUDA events, infinity for a plan that fails to run; the pack's workspace
// must fit every plan.
std::vector<double> cudnn_time_plans(cudnnHandle_t handle, const CudnnPlans& plans,
                                     const CudnnDescriptor& pack, cudaStream_t stream, int runs);

// The largest workspace of the plans: one buffer serves whichever runs.
std::int64_t cudnn_workspace_bytes(const CudnnPlans& plans);

// The fastest plan on one call's pack, as a user tuning cuDNN would pick it (each plan timed
// by cudnn_time_plans, 3 calls); throws where none of them ran.
struct CudnnChoice {
  const CudnnPlan* plan = nullptr;
  double seconds = 0;        // its best time
  double first_seconds = 0;  // mode A's first plan's, for the notes
  std::size_t plans = 0;     // plans that finalised
};
CudnnChoice cudnn_fastest_plan(cudnnHandle_t handle, const CudnnPlans& plans,
                               const CudnnDescriptor& pack, cudaStream_t stream);
// The choice in words for a case's notes: "engine config 0 of heuristics mode A (engine 6),
// the fastest of the 4 plans that finalised (…)".
std::string cudnn_choice_note(const CudnnChoice& choice);

// The pointers of one call (device memory, or host memory for a by-value tensor) by uid.
CudnnDescriptor cudnn_variant_pack(const std::vector<std::int64_t>& uids,
                                   const std::vector<void*>& pointers, void* workspace);

// cuDNN's last error message of this thread ("" when there is none).
std::string cudnn_last_error();

}  // namespace ridgeline
