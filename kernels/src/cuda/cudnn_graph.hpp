#pragma once
// cuDNN's graph (backend) API, for what cuDNN offers only there (normalisation, attention):
// one owner type for its descriptors, tensors and variant packs built in one place, and an
// execution plan from the first of the heuristics' engine configs that finalises. cuDNN is
// the one loaded on first use (cudnn_library.hpp).
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

// A finalised tensor of a graph: packed dims and strides, 16-byte aligned; `by_value` for a
// scalar passed from the host (an epsilon).
CudnnDescriptor cudnn_tensor(std::int64_t uid, cudnnDataType_t type,
                             const std::vector<std::int64_t>& dims,
                             const std::vector<std::int64_t>& strides, bool by_value = false);

// An execution plan and what it keeps alive.
struct CudnnPlan {
  std::vector<CudnnDescriptor> kept;  // the graph, heuristics, engine configs
  std::unique_ptr<CudnnDescriptor> plan;
  std::int64_t workspace_bytes = 0;
  int config = 0;  // which of the heuristics' configs finalised
};
// The first engine config of heuristics mode A whose plan finalises for the graph of `ops`;
// throws with each refusal's status when none does.
CudnnPlan cudnn_plan(cudnnHandle_t handle, const std::vector<const CudnnDescriptor*>& ops);

// The pointers of one call (device memory, or host memory for a by-value tensor) by uid.
CudnnDescriptor cudnn_variant_pack(const std::vector<std::int64_t>& uids,
                                   const std::vector<void*>& pointers, void* workspace);

// cuDNN's last error message of this thread ("" when there is none).
std::string cudnn_last_error();

}  // namespace ridgeline
