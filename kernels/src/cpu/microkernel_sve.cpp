// SVE micro-kernels (f32, f64), vector-length agnostic: 6 rows x 4 vectors of accumulators (24
// of the 32 z registers), the x86 kernels' tiles at matching widths (AVX2's 6 x 16 f32 and 6 x 8
// f64 at 128 bits, AVX-512's 6 x 64 and 6 x 32 at 512): a wide tile reads few bytes of A per FMA,
// and A's panels are what streams from L3 (packed_blocking.cpp, microkernel_avx512.cpp). NR is 4 x
// the vector length, read when microkernel_f32_sve() is called: the driver takes mr and nr at run
// time, and the kernels read svcntw() / svcntd() on each call, so a MicroKernel is for the vector
// length of the thread that made it (one changed later with prctl(PR_SVE_SET_VL) needs a new one).
//
// Per k step: 4 loads of B, and A's 6 entries as 128-bit quadwords (LD1RQW/LD1RQD replicate 16
// bytes to every segment) that FMLA (indexed) multiplies by one element of each segment (Arm
// ARM: FMLA (indexed), index i of every 128-bit segment; ACLE svmla_lane): no broadcast per row.
// Sizeless SVE types cannot be array elements (ACLE), so the accumulators are named locals,
// one macro expansion per row.
#include <arm_sve.h>
#include <sys/auxv.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "../ops/activation_simd.hpp"
#include "microkernel.hpp"
#include "panel_packing.hpp"

namespace ridgeline::packed {

namespace {

constexpr int kMr = 6, kNv = 4;

// The element's vector operations (all lanes active), and the activation's traits
// (activation_simd.hpp: exp_approx builds 2^n from bits, pow2_of_biased) for f32.
template <typename T>
struct Sve;

template <>
struct Sve<float> {
  using T = float;
  using V = svfloat32_t;
  static constexpr int kQuad = 4;  // elements per 128-bit segment: FMLA (indexed)'s index range
  static svbool_t all() { return svptrue_b32(); }
  static std::int64_t lanes() { return static_cast<std::int64_t>(svcntw()); }
  static svbool_t first(int n) { return svwhilelt_b32_s32(0, n); }
  static V set1(float x) { return svdup_n_f32(x); }
  static V load(const T* p) { return svld1_f32(all(), p); }
  static V quad(svbool_t pg, const T* p) { return svld1rq_f32(pg, p); }
  static void store(T* p, V v) { svst1_f32(all(), p, v); }
  template <int L>
  static V fma_lane(V acc, V b, V a) {
    return svmla_lane_f32(acc, b, a, L);
  }
  static V add(V a, V b) { return svadd_f32_x(all(), a, b); }
  static V sub(V a, V b) { return svsub_f32_x(all(), a, b); }
  static V mul(V a, V b) { return svmul_f32_x(all(), a, b); }
  static V div(V a, V b) { return svdiv_f32_x(all(), a, b); }
  // FMAX/FMIN return NaN where an operand is NaN: relu(NaN) stays NaN, as on x86; exp's clamp
  // passes a NaN on where x86's turns it into its bound, and gelu(NaN) is NaN either way.
  static V max(V a, V b) { return svmax_f32_x(all(), a, b); }
  static V min(V a, V b) { return svmin_f32_x(all(), a, b); }
  static V fma(V a, V b, V c) { return svmla_f32_x(all(), c, a, b); }
  static V pow2_of_biased(V t) {
    return svreinterpret_f32_s32(svlsl_n_s32_x(all(), svreinterpret_s32_f32(t), 23));
  }
  static V zero_where_less(V v, V x, V bound) {
    return svsel_f32(svcmplt_f32(all(), x, bound), svdup_n_f32(0.0f), v);
  }
};

template <>
struct Sve<double> {
  using T = double;
  using V = svfloat64_t;
  static constexpr int kQuad = 2;
  static svbool_t all() { return svptrue_b64(); }
  static std::int64_t lanes() { return static_cast<std::int64_t>(svcntd()); }
  static svbool_t first(int n) { return svwhilelt_b64_s32(0, n); }
  static V set1(double x) { return svdup_n_f64(x); }
  static V load(const T* p) { return svld1_f64(all(), p); }
  static V quad(svbool_t pg, const T* p) { return svld1rq_f64(pg, p); }
  static void store(T* p, V v) { svst1_f64(all(), p, v); }
  template <int L>
  static V fma_lane(V acc, V b, V a) {
    return svmla_lane_f64(acc, b, a, L);
  }
  static V add(V a, V b) { return svadd_f64_x(all(), a, b); }
};

// What the tile's store does: plain, or the gemm_bias_act epilogue with an activation.
enum class Finish { store, relu, gelu_tanh };

// A's quadword holding row i of a k step: a whole one, or (f32, rows 4 and 5) the 2 entries
// left in a 6-row step, so the last step reads nothing past the panel.
template <typename S, int I>
[[gnu::always_inline]] inline typename S::V a_quad(const typename S::T* a) {
  constexpr int q = I / S::kQuad * S::kQuad;
  if constexpr (kMr - q >= S::kQuad)
    return S::quad(S::all(), a + q);
  else
    return S::quad(S::first(kMr - q), a + q);
}

// What to store for accumulator x at c: (accumulate ? C : 0) + x, or with the epilogue
// act((accumulate ? C : 0) + (x + bias)), the order microkernel_body.hpp adds in.
template <typename S, Finish kFinish>
[[gnu::always_inline]] inline typename S::V finish(typename S::V x, typename S::T* c,
                                                   bool accumulate, typename S::V bias) {
  if constexpr (kFinish != Finish::store) x = S::add(x, bias);
  if (accumulate) x = S::add(S::load(c), x);
  if constexpr (kFinish == Finish::relu) x = ops::relu<S>(x);
  if constexpr (kFinish == Finish::gelu_tanh) x = ops::gelu_tanh<S>(x);
  return x;
}

// The rows named by the macros below: row i's accumulators are c<i>_0 .. c<i>_3.
#define RIDGELINE_SVE_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5)
static_assert(kMr == 6 && kNv == 4, "RIDGELINE_SVE_ROWS and the macros name 6 rows of 4");

// C[0:R, 0:NR] of an A panel packed kMr rows wide (R < kMr: `rows`); kc k steps.
template <typename T, int R, Finish kFinish>
void tile(std::int64_t kc, const T* __restrict a, const T* __restrict b, const T* next,
          T* __restrict c, std::int64_t ldc, bool accumulate, const T* __restrict bias) {
  using S = Sve<T>;
  using V = typename S::V;
  const std::int64_t vl = S::lanes(), nr = kNv * vl;
#define RIDGELINE_ZERO(i)                                                             \
  [[maybe_unused]] V c##i##_0 = S::set1(0), c##i##_1 = c##i##_0, c##i##_2 = c##i##_0, \
                     c##i##_3 = c##i##_0;
  RIDGELINE_SVE_ROWS(RIDGELINE_ZERO)
#undef RIDGELINE_ZERO
  // The tile of C is fetched while the last kPrefetchC steps run (microkernel.hpp).
  const std::int64_t c_at = kc > kPrefetchC ? kc - kPrefetchC : 0;
  const char* next_line = reinterpret_cast<const char*>(next);
  for (std::int64_t p = 0; p < kc; p += kNextEvery) {
    const std::int64_t steps = kc - p < kNextEvery ? kc - p : kNextEvery;
    // One line of the next panel into L2 every kNextEvery steps (PRFM PLDL2KEEP).
    if (next_line && steps == kNextEvery) {
      __builtin_prefetch(next_line, 0, 2);
      next_line += kLineBytes;
    }
    if (p <= c_at && c_at < p + kNextEvery)
      prefetch_c_tile(c, ldc, R, nr * static_cast<std::int64_t>(sizeof(T)));
#pragma GCC unroll 2
    for (std::int64_t s = 0; s < steps; ++s) {
      const V b0 = S::load(b), b1 = S::load(b + vl), b2 = S::load(b + 2 * vl),
              b3 = S::load(b + 3 * vl);
      // Loads of the same quadword (rows of one segment) are one after CSE.
#define RIDGELINE_FMA(i)                                             \
  if constexpr (i < R) {                                             \
    const V ai = a_quad<S, i>(a);                                    \
    c##i##_0 = S::template fma_lane<i % S::kQuad>(c##i##_0, b0, ai); \
    c##i##_1 = S::template fma_lane<i % S::kQuad>(c##i##_1, b1, ai); \
    c##i##_2 = S::template fma_lane<i % S::kQuad>(c##i##_2, b2, ai); \
    c##i##_3 = S::template fma_lane<i % S::kQuad>(c##i##_3, b3, ai); \
  }
      RIDGELINE_SVE_ROWS(RIDGELINE_FMA)
#undef RIDGELINE_FMA
      a += kMr;
      b += nr;
    }
  }
  V bias0 = S::set1(0), bias1 = bias0, bias2 = bias0, bias3 = bias0;
  if constexpr (kFinish != Finish::store) {
    bias0 = S::load(bias);
    bias1 = S::load(bias + vl);
    bias2 = S::load(bias + 2 * vl);
    bias3 = S::load(bias + 3 * vl);
  }
  // Row by row: a row's accumulators are free before the next row's activation needs
  // temporaries.
#define RIDGELINE_STORE(i)                                                                 \
  if constexpr (i < R) {                                                                   \
    T* row = c + i * ldc;                                                                  \
    S::store(row, finish<S, kFinish>(c##i##_0, row, accumulate, bias0));                   \
    S::store(row + vl, finish<S, kFinish>(c##i##_1, row + vl, accumulate, bias1));         \
    S::store(row + 2 * vl, finish<S, kFinish>(c##i##_2, row + 2 * vl, accumulate, bias2)); \
    S::store(row + 3 * vl, finish<S, kFinish>(c##i##_3, row + 3 * vl, accumulate, bias3)); \
  }
  RIDGELINE_SVE_ROWS(RIDGELINE_STORE)
#undef RIDGELINE_STORE
}

#undef RIDGELINE_SVE_ROWS

template <typename T, int R>
void kernel(std::int64_t kc, const T* a, const T* b, const T* next, T* c, std::int64_t ldc,
            bool accumulate) {
  tile<T, R, Finish::store>(kc, a, b, next, c, ldc, accumulate, nullptr);
}

template <typename T, std::size_t... R>
constexpr auto row_kernels(std::index_sequence<R...>) {
  return std::array<MicroKernelFn<T>, sizeof...(R)>{&kernel<T, static_cast<int>(R) + 1>...};
}

template <typename T>
void kernel_rows(int rows, std::int64_t kc, const T* a, const T* b, const T* next, T* c,
                 std::int64_t ldc, bool accumulate) {
  static constexpr auto kTable = row_kernels<T>(std::make_index_sequence<kMr - 1>());
  kTable[static_cast<std::size_t>(rows - 1)](kc, a, b, next, c, ldc, accumulate);
}

void kernel_epilogue(std::int64_t kc, const float* a, const float* b, const float* next, float* c,
                     std::int64_t ldc, bool accumulate, const float* bias, ops::Activation act) {
  if (act == ops::Activation::relu)
    tile<float, kMr, Finish::relu>(kc, a, b, next, c, ldc, accumulate, bias);
  else
    tile<float, kMr, Finish::gelu_tanh>(kc, a, b, next, c, ldc, accumulate, bias);
}

// "gemm_<dtype>_sve_6x<NR>" for every vector length SVE allows (128 to 2048 bits, 128 apart):
// MicroKernel::name points at a string that outlives it.
constexpr int kVectorLengths = 16;
using Names = std::array<std::array<char, 32>, kVectorLengths>;

constexpr Names names(const char* prefix, int nr_per_128_bits) {
  Names out{};
  for (int v = 0; v < kVectorLengths; ++v) {
    std::size_t n = 0;
    for (const char* s = prefix; *s; ++s) out[v][n++] = *s;
    char digits[8]{};
    int d = 0;
    for (int nr = nr_per_128_bits * (v + 1); nr > 0; nr /= 10)
      digits[d++] = static_cast<char>('0' + nr % 10);
    while (d > 0) out[v][n++] = digits[--d];
  }
  return out;
}

constexpr Names kF32Names = names("gemm_f32_sve_6x", kNv * 4);
constexpr Names kF64Names = names("gemm_f64_sve_6x", kNv * 2);

// The calling thread's vector length in 128-bit granules, read only where HWCAP has SVE (CNTB
// is an SVE instruction): like the x86 ones, the factories may be called on any CPU, the
// caller checking HWCAP before it calls a kernel. Without SVE, the 128-bit shape.
std::size_t granules() {
  return (::getauxval(AT_HWCAP) & HWCAP_SVE) ? svcntb() / 16 : 1;
}

}  // namespace

MicroKernel<float> microkernel_f32_sve() {
  const std::size_t g = granules();
  return {kF32Names[g - 1].data(),
          kMr,
          static_cast<int>(g) * kNv * 4,
          &kernel<float, kMr>,
          &kernel_rows<float>,
          &kernel_epilogue,
          &pack_panel<float>};
}

MicroKernel<double> microkernel_f64_sve() {
  const std::size_t g = granules();
  return {kF64Names[g - 1].data(),
          kMr,
          static_cast<int>(g) * kNv * 2,
          &kernel<double, kMr>,
          &kernel_rows<double>,
          nullptr,
          &pack_panel<double>};
}

}  // namespace ridgeline::packed
