// oneDNN's matmul on strided operands (onednn_ops.hpp): the batch indices become the
// leading dimensions of each memory descriptor, each with the operand's own stride, so one
// primitive runs every batch with no copies, as a framework hands oneDNN a strided view.
#include <fmt/format.h>

#include "onednn_common.hpp"
#include "onednn_ops.hpp"

namespace ridgeline::ops {

using detail::data_type;
using detail::OmpThreads;

namespace {

// The descriptor of one operand: dims (batch..., rows, cols) at its strides.
dnnl::memory::desc strided_md(const std::vector<std::int64_t>& batch_extents, std::int64_t rows,
                              std::int64_t cols, const StridedMatrix& s, DType dtype) {
  dnnl::memory::dims dims(batch_extents.begin(), batch_extents.end());
  dnnl::memory::dims strides(s.batch_strides.begin(), s.batch_strides.end());
  dims.insert(dims.end(), {rows, cols});
  strides.insert(strides.end(), {s.row_stride, s.col_stride});
  return {dims, data_type(dtype), strides};
}

}  // namespace

struct OnednnStridedMatmul::Impl {
  int threads;
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul prim;
  dnnl::memory a, b, c;
  detail::Args args;
};

OnednnStridedMatmul::OnednnStridedMatmul(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OnednnStridedMatmul::~OnednnStridedMatmul() = default;

Prepared<OnednnStridedMatmul> OnednnStridedMatmul::create(
    const std::vector<std::int64_t>& batch_extents, std::int64_t m, std::int64_t n, std::int64_t k,
    const StridedMatrix& a, const StridedMatrix& b, const StridedMatrix& c, int threads,
    DType dtype) {
  if (auto r = onednn_unavailable_reason(); !r.empty()) return {nullptr, Support::no(r)};
  if (auto r = detail::dtype_refusal(dtype, true); !r.empty()) return {nullptr, Support::no(r)};
  if (auto r = detail::check_positive({{"m", m}, {"n", n}, {"k", k}}, threads); !r.empty())
    return {nullptr, Support::no(r)};
  for (const StridedMatrix* s : {&a, &b, &c})
    if (s->batch_strides.size() != batch_extents.size())
      return {nullptr, Support::no("each operand needs one stride per batch index")};
  static_assert(kOnednnMaxBatchIndices + 2 == DNNL_MAX_NDIMS);
  if (batch_extents.size() > kOnednnMaxBatchIndices)
    return {nullptr, Support::no(fmt::format("{} batch indices: oneDNN's matmul takes at most {}",
                                             batch_extents.size(), kOnednnMaxBatchIndices))};
  return detail::prepare<OnednnStridedMatmul>("oneDNN strided matmul", [&] {
    OmpThreads guard(threads);
    auto impl = std::make_unique<Impl>();
    impl->threads = threads;
    const auto a_md = strided_md(batch_extents, m, k, a, dtype);
    const auto b_md = strided_md(batch_extents, k, n, b, dtype);
    const auto c_md = strided_md(batch_extents, m, n, c, output_dtype(dtype));
    impl->pd = {{a_md, b_md, c_md}, impl->engine};
    impl->prim = dnnl::matmul(impl->pd);
    impl->a = detail::unbound(a_md, impl->engine);
    impl->b = detail::unbound(b_md, impl->engine);
    impl->c = detail::unbound(c_md, impl->engine);
    impl->args = {{DNNL_ARG_SRC, impl->a}, {DNNL_ARG_WEIGHTS, impl->b}, {DNNL_ARG_DST, impl->c}};
    return std::unique_ptr<OnednnStridedMatmul>(new OnednnStridedMatmul(std::move(impl)));
  });
}

void OnednnStridedMatmul::execute(const void* a, const void* b, void* c) {
  OmpThreads guard(impl_->threads);
  impl_->a.set_data_handle(const_cast<void*>(a));
  impl_->b.set_data_handle(const_cast<void*>(b));
  impl_->c.set_data_handle(c);
  detail::run(impl_->prim, impl_->stream, impl_->args);
}

std::string OnednnStridedMatmul::implementation() const {
  return detail::impl_name(impl_->pd);
}

}  // namespace ridgeline::ops
