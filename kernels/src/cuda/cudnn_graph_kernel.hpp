#pragma once
// A GPU kernel that runs a graph of cuDNN's graph API (cudnn_graph.hpp): the handle on the
// harness's stream, the graph kept alive beside its plans, the workspace, one variant pack
// per operand copy (found by a pointer that copy alone has), the fastest plan chosen at
// setup, and the launch that executes it. The norms and attention (gpu_cudnn_norm.cpp,
// gpu_cudnn_attention.cpp) add their graph and their packs' pointers.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cudnn_graph.hpp"
#include "device_buffer.hpp"
#include "gpu_op_kernel.hpp"

namespace ridgeline {

class CudnnGraphKernel : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  ~CudnnGraphKernel() override;  // packs, plans and graph, then the handle

 protected:
  // cuDNN loaded, or why not.
  Support supports_problem(const Problem&) const override;
  // The plans of `ops` (which `graph` owns) on this stream, dropping the last problem's
  // graph, plans and packs; the workspace sized for the largest plan.
  void plan(std::shared_ptr<const void> graph, const std::vector<const CudnnDescriptor*>& ops,
            cudaStream_t stream, CudnnFallback fallback);
  // One operand copy's pointers by uid, found again by `key`.
  void add_pack(const void* key, const std::vector<std::int64_t>& uids,
                const std::vector<void*>& pointers);
  // The fastest plan on `key`'s pack becomes the one launched; its choice in words.
  std::string choose_fastest(const void* key, cudaStream_t stream);
  // One call of the chosen plan with `key`'s pack.
  void execute(const void* key);

 private:
  cudnnHandle_t handle_ = nullptr;
  std::shared_ptr<const void> graph_;
  std::unique_ptr<CudnnPlans> plans_;
  const CudnnPlan* plan_ = nullptr;  // the fastest of plans_
  DeviceBuffer workspace_;
  std::map<const void*, CudnnDescriptor> packs_;
};

}  // namespace ridgeline
