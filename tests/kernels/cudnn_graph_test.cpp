// cuDNN's graph API as the layernorm, rmsnorm and attention vendor
// (kernels/src/cuda/rowwise/gpu_cudnn_norm.cpp, gpu_cudnn_attention.cpp): the tensors and the
// operations finalise in cuDNN itself without a GPU, so a wrong attribute shows here, not
// first on a lent GPU machine. Planning and running need a
// device (the gpu-labelled tests run them against the reference).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "cuda/attention/cudnn_sdpa_graph.hpp"
#include "cuda/cudnn_library.hpp"
#include "cuda/rowwise/cudnn_norm_graph.hpp"
#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline {

#define SKIP_WITHOUT_CUDNN()                                                 \
  if (Support s = cudnn_status(); !s) GTEST_SKIP() << "cuDNN: " << s.reason; \
  static_assert(true)

TEST(CudnnGraph, TheNormOperationFinalisesForEachOpDtypeAndShape) {
  SKIP_WITHOUT_CUDNN();
  for (RowwiseOp op : {RowwiseOp::layernorm, RowwiseOp::rmsnorm})
    for (DType dtype : {DType::f32, DType::bf16})
      for (auto [rows, cols] :
           {std::pair<std::int64_t, std::int64_t>{1, 1}, {67, 129}, {2, 4099}, {131072, 4096}}) {
        const std::string what = std::to_string(static_cast<int>(op)) + " " +
                                 std::string(to_string(dtype)) + " " + std::to_string(rows) + "x" +
                                 std::to_string(cols);
        try {
          const CudnnNormGraph g = cudnn_norm_graph(op, dtype, rows, cols);
          EXPECT_EQ(g.tensors.size(), op == RowwiseOp::layernorm ? 5u : 4u) << what;
          ASSERT_NE(g.operation, nullptr) << what;
        } catch (const std::exception& e) {
          ADD_FAILURE() << what << ": " << e.what();
        }
      }
}

// The attention graph: 10 operations (two matmuls, the scale, max, subtract, exp, sum, log,
// the statistics' add, divide), 4 more for the causal mask (two indices, compare, select);
// every intermediate virtual, so only Q, K, V, O and the by-value scalars are named in a call.
TEST(CudnnGraph, TheAttentionGraphFinalisesCausalOrNotOnAwkwardShapes) {
  SKIP_WITHOUT_CUDNN();
  for (DType dtype : {DType::bf16, DType::f16})
    for (const CudnnSdpaShape& shape :
         {CudnnSdpaShape{1, 1, 1, 64, false}, CudnnSdpaShape{2, 3, 37, 64, true},
          CudnnSdpaShape{1, 2, 130, 128, false}, CudnnSdpaShape{4, 16, 4096, 128, true}}) {
      const std::string what = std::string(to_string(dtype)) + " seq " + std::to_string(shape.seq) +
                               (shape.causal ? " causal" : "");
      try {
        const CudnnSdpaGraph g = cudnn_sdpa_graph(dtype, shape);
        EXPECT_EQ(g.operations.size(), shape.causal ? 14u : 10u) << what;
        EXPECT_EQ(g.ops().size(), g.operations.size()) << what;
        // Q, K, V, O, the scale (and -inf when causal), then the virtual intermediates.
        EXPECT_EQ(g.tensors.size(), shape.causal ? 6u + 13u : 5u + 9u) << what;
      } catch (const std::exception& e) {
        ADD_FAILURE() << what << ": " << e.what();
      }
    }
}

TEST(CudnnGraph, ATensorCuDnnRefusesThrowsWithTheStepAndStatus) {
  SKIP_WITHOUT_CUDNN();
  // Three strides for four dimensions.
  try {
    cudnn_tensor(1, CUDNN_DATA_FLOAT, {4, 8, 1, 1}, {8, 1, 8});
    ADD_FAILURE() << "cuDNN accepted a tensor with fewer strides than dimensions";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("cuDNN ", 0), 0u) << m;
    EXPECT_NE(m.find("failed: CUDNN_STATUS_"), std::string::npos) << m;
  }
}

TEST(CudnnGraph, LayernormRmsnormAndAttentionHaveTheCudnnVendor) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  for (const char* op : {"layernorm", "rmsnorm"}) {
    const KernelInfo* k = catalog.find("cuda.cudnn", op);
    ASSERT_NE(k, nullptr) << op;
    EXPECT_EQ(k->role, KernelRole::vendor) << op;
    EXPECT_EQ(k->family, "cudnn") << op;
    EXPECT_EQ(k->dtypes, (std::vector<DType>{DType::f32, DType::bf16})) << op;
  }
  const KernelInfo* attention = catalog.find("cuda.cudnn", "attention");
  ASSERT_NE(attention, nullptr);
  EXPECT_EQ(attention->role, KernelRole::vendor);
  EXPECT_EQ(attention->family, "cudnn");
  EXPECT_EQ(attention->dtypes, std::vector<DType>{DType::bf16});
}

}  // namespace ridgeline
