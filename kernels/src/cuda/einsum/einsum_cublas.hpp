#pragma once
// The GEMMs of einsum's GPU lowerings (einsum_cublas.cpp, einsum_cuda_ttgt.cpp): a strided
// view of the CPU's lowering (einsum/einsum_lowering.hpp) run by cuBLAS, one strided batched
// call per combination of the outer batch indices.
#include <vector>

#include "../../einsum/einsum_lowering.hpp"
#include "../cublas_library.hpp"

namespace ridgeline {

// The element offsets of each combination of the batch indices but the innermost, which
// cuBLAS walks by its batch strides (no batch index: one call at offset 0).
std::vector<BatchOffsets> outer_batch_offsets(const StridedView& v);

// The view's products on `stream`'s handle: the row-major C = op(left) op(right) as cuBLAS's
// column-major C^T = op(right)^T op(left)^T, one cublasGemmStridedBatchedEx per `outer`
// offset, f32 (compute 32F) or f64.
void cublas_strided_products(cublasHandle_t handle, const StridedView& v, const void* left,
                             const void* right, void* c, const std::vector<BatchOffsets>& outer,
                             bool f64);

}  // namespace ridgeline
