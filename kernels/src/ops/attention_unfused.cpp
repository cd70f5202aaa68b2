#include "attention_unfused.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "ridgeline/kernels/pass_clock.hpp"

namespace ridgeline::ops {

namespace {

// a * b, or nullopt past size_t.
std::optional<std::size_t> product(std::size_t a, std::initializer_list<std::int64_t> dims) {
  for (std::int64_t d : dims)
    if (__builtin_mul_overflow(a, static_cast<std::size_t>(d), &a)) return std::nullopt;
  return a;
}

// As masked_fill: every entry read and written, the ones above the diagonal set to -inf
// (`minus_inf`: the float, or bf16's bits).
template <typename T>
void mask(T* s, std::int64_t rows, std::int64_t n, T minus_inf, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t i = r % n;
    T* row = s + r * n;
#pragma omp simd
    for (std::int64_t j = 0; j < n; ++j) row[j] = j > i ? minus_inf : row[j];
  }
}

constexpr std::uint16_t kBf16MinusInf = 0xFF80;

// This architecture's packed micro-kernels (kernels/CMakeLists.txt builds only its own): the
// f32 one for an ISA, the widest this CPU runs, and the bf16 parts (x86-64: vdpbf16ps and
// AVX512_BF16's passes; AArch64: BFMMLA and NEON's passes), which bf16_unsupported() checks
// first.
#if defined(__x86_64__)
bool runs_gemm() {
  return cpu_features().has_avx512() || cpu_features().has_avx2_fma();
}
Isa widest() {
  return cpu_features().has_avx512() ? Isa::avx512 : Isa::avx2;
}
packed::MicroKernel<float> f32_microkernel(Isa isa) {
  return isa == Isa::avx512 ? packed::microkernel_f32_avx512() : packed::microkernel_f32_avx2();
}
packed::MicroKernel<std::uint16_t, float> bf16_microkernel() {
  return packed::microkernel_bf16_avx512();
}
const detail::AttentionBf16Passes& bf16_passes() {
  return detail::attention_bf16_passes_avx512;
}
#elif defined(__aarch64__)
bool runs_gemm() {
  return cpu_features().neon;
}
Isa widest() {
  return Isa::neon;
}
packed::MicroKernel<float> f32_microkernel(Isa) {
  return packed::microkernel_f32_neon();
}
packed::MicroKernel<std::uint16_t, float> bf16_microkernel() {
  return packed::microkernel_bf16_bfmmla();
}
const detail::AttentionBf16Passes& bf16_passes() {
  return detail::attention_bf16_passes_neon;
}
#endif

}  // namespace

std::optional<std::size_t> AttentionUnfused::buffer_bytes(const AttentionShape& s, DType dtype) {
  const std::size_t elem = size_of(dtype);
  const auto scores = product(elem, {s.heads, s.seq, s.seq});
  const auto q = product(elem, {s.heads, s.seq, s.head_dim});
  std::size_t total = 0;
  if (!scores || !q || __builtin_mul_overflow(*scores, std::size_t{2}, &total) ||
      __builtin_add_overflow(total, *q, &total))
    return std::nullopt;
  if (dtype == DType::bf16) {
    const auto stage_s = product(sizeof(float), {s.seq, s.seq});
    const auto stage_o = product(sizeof(float), {s.seq, s.head_dim});
    if (!stage_s || !stage_o || __builtin_add_overflow(total, *stage_s, &total) ||
        __builtin_add_overflow(total, *stage_o, &total))
      return std::nullopt;
  }
  return total;
}

bool AttentionUnfused::available() {
  return runs_gemm();
}

std::string AttentionUnfused::bf16_unsupported() {
#if defined(__aarch64__)
  // The passes are baseline NEON; the GEMMs are BFMMLA's.
  return cpu_features().neon_bf16
             ? ""
             : "the unfused attention's bf16 GEMMs need BF16 (BFMMLA; HWCAP2_BF16), which this "
               "CPU lacks";
#else
  return bf16_unsupported_reason(cpu_features());
#endif
}

void AttentionUnfused::prepare(const AttentionShape& shape, DType dtype, int threads,
                               std::optional<Isa> forced) {
  if (!available())
    throw std::runtime_error("this CPU runs none of the packed GEMM's micro-kernels");
  if (forced && (*forced == Isa::scalar || !isa_available(*forced)))
    throw std::runtime_error(
        fmt::format("the packed GEMM has no {} micro-kernel on this CPU", to_string(*forced)));
  isa_ = forced.value_or(widest());
  const bool bf16 = dtype == DType::bf16;
  if (bf16)
    if (const std::string why = bf16_unsupported(); !why.empty()) throw std::runtime_error(why);
  shape_ = shape;
  dtype_ = dtype;
  threads_ = threads;
  const auto n = static_cast<std::size_t>(shape.seq);
  const auto h = static_cast<std::size_t>(shape.heads);
  const auto d = static_cast<std::size_t>(shape.head_dim);
  const auto resize = [](OperandBuffer& b, DType t, std::size_t count) {
    if (b.size() != count || b.dtype() != t) b = OperandBuffer(t, count);
  };
  resize(scores_, dtype, h * n * n);
  resize(probs_, dtype, h * n * n);
  resize(q_scaled_, dtype, h * n * d);
  resize(stage_s_, DType::f32, bf16 ? n * n : 0);
  resize(stage_o_, DType::f32, bf16 ? n * d : 0);
  // S = Qs K^T: K is [seq][head_dim], so op(B) = K^T is B transposed with ldb = head_dim.
  const auto prepare_pair = [&](auto& qk, auto& pv, const auto& uk, std::size_t elem) {
    const packed::Blocking blocking = packed::derive_blocking(cache_sizes(), uk.mr, uk.nr, elem);
    qk.prepare({shape.seq, shape.seq, shape.head_dim, shape.head_dim, shape.head_dim, false, true,
                nullptr, nullptr, nullptr},
               uk, blocking, threads);
    pv.prepare({shape.seq, shape.head_dim, shape.seq, shape.seq, shape.head_dim, false, false,
                nullptr, nullptr, nullptr},
               uk, blocking, threads);
  };
  if (bf16) {
    uk_bf16_ = bf16_microkernel();
    prepare_pair(qk_bf16_, pv_bf16_, uk_bf16_, sizeof(std::uint16_t));
  } else {
    uk_ = f32_microkernel(isa_);
    prepare_pair(qk_, pv_, uk_, sizeof(float));
  }
}

void AttentionUnfused::run(const AttentionArgs& a) {
  const std::int64_t n = shape_.seq, d = shape_.head_dim, rows = shape_.heads * n;
  float* qs = q_scaled_.as<float>().data();
  float* s = scores_.as<float>().data();
  float* p = probs_.as<float>().data();
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  const std::int64_t q_elements = rows * d;
#pragma omp parallel for simd num_threads(threads_) schedule(static)
  for (std::int64_t i = 0; i < q_elements; ++i) qs[i] = a.q[i] * scale;
  pass_done();
  for (std::int64_t h = 0; h < shape_.heads; ++h) {
    qk_.bind(qs + h * n * d, a.k + h * n * d, s + h * n * n);
    qk_.run();
  }
  pass_done();
  if (shape_.causal) {
    mask(s, rows, n, -std::numeric_limits<float>::infinity(), threads_);
    pass_done();
  }
  softmax_fused_isa(isa_, s, p, rows, n, threads_);
  pass_done();
  for (std::int64_t h = 0; h < shape_.heads; ++h) {
    pv_.bind(p + h * n * n, a.v + h * n * d, a.o + h * n * d);
    pv_.run();
  }
  pass_done();
}

void AttentionUnfused::run(const AttentionArgsBf16& a) {
  const std::int64_t n = shape_.seq, d = shape_.head_dim, rows = shape_.heads * n;
  const detail::AttentionBf16Passes& passes = bf16_passes();
  std::uint16_t* qs = q_scaled_.as<std::uint16_t>().data();
  std::uint16_t* s = scores_.as<std::uint16_t>().data();
  std::uint16_t* p = probs_.as<std::uint16_t>().data();
  float* stage_s = stage_s_.as<float>().data();
  float* stage_o = stage_o_.as<float>().data();
  passes.scale(a.q, qs, rows * d, 1.0f / std::sqrt(static_cast<float>(d)), threads_);
  pass_done();
  // Each head's f32 scores narrowed to bf16 as they come: part of the score GEMM's pass.
  for (std::int64_t h = 0; h < shape_.heads; ++h) {
    qk_bf16_.bind(qs + h * n * d, a.k + h * n * d, stage_s);
    qk_bf16_.run();
    passes.narrow(stage_s, s + h * n * n, n * n, threads_);
  }
  pass_done();
  if (shape_.causal) {
    mask(s, rows, n, kBf16MinusInf, threads_);
    pass_done();
  }
  softmax_fused(s, p, rows, n, threads_);
  pass_done();
  for (std::int64_t h = 0; h < shape_.heads; ++h) {
    pv_bf16_.bind(p + h * n * n, a.v + h * n * d, stage_o);
    pv_bf16_.run();
    passes.narrow(stage_o, a.o + h * n * d, n * d, threads_);
  }
  pass_done();
}

std::string AttentionUnfused::describe() const {
  const char* name = dtype_ == DType::bf16 ? uk_bf16_.name : uk_.name;
  const packed::Blocking& b = dtype_ == DType::bf16 ? qk_bf16_.blocking() : qk_.blocking();
  return name ? fmt::format("{}, {}", name, b.describe()) : "";
}

}  // namespace ridgeline::ops
