// The public entries: check the arguments, pick the implementation for the ISA (the best the
// CPU has, or the one forced), call it.
#include "rowwise_ops.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "rowwise_kernels.hpp"

namespace ridgeline::ops {

namespace {

// This architecture's vector units, widest first (kernels/CMakeLists.txt builds only its own
// architecture's), and its bf16 forms; the one-lane scalar unit is built everywhere. The only
// place that names an ISA's tables: the entries below go through rowwise_unit().
struct RowwiseUnit {
  Isa isa;
  const detail::RowwiseKernels& fused;
  const detail::RowwiseKernels& unfused;
  void (*exp)(const float* x, float* y, std::int64_t n);
  bool (*runs)(const CpuFeatures& cpu);
};
#if defined(__x86_64__)
constexpr const char* kRowwiseArchitecture = "x86-64";
constexpr const char* kRowwiseFeatureSource = "CPUID";
constexpr RowwiseUnit kRowwiseUnits[] = {
    {Isa::avx512, detail::fused_avx512, detail::unfused_avx512, &detail::exp_avx512,
     [](const CpuFeatures& cpu) { return cpu.has_avx512(); }},
    {Isa::avx2, detail::fused_avx2, detail::unfused_avx2, &detail::exp_avx2,
     [](const CpuFeatures& cpu) { return cpu.has_avx2_fma(); }},
};
// bf16: the AVX-512 unit's forms (AVX512_BF16).
const detail::RowwiseKernelsBf16* const kBf16Fused = &detail::fused_avx512_bf16;
const detail::RowwiseKernelsBf16* const kBf16Unfused = &detail::unfused_avx512_bf16;
std::string bf16_missing_here(const CpuFeatures& cpu) {
  if (!cpu.has_avx512()) return "bf16 needs AVX-512 (F, DQ, BW, VL), which this CPU lacks";
  if (!cpu.avx512_bf16) return "bf16 needs AVX512_BF16 (vcvtneps2bf16), which this CPU lacks";
  return {};
}
#elif defined(__aarch64__)
constexpr const char* kRowwiseArchitecture = "AArch64";
constexpr const char* kRowwiseFeatureSource = "HWCAP; sve: and a 256-bit vector length";
// SVE's unit is built for 256-bit vectors (simd_sve256.hpp): at 128 bits (Neoverse N2, V2) it
// would be NEON's width, so NEON serves there.
constexpr RowwiseUnit kRowwiseUnits[] = {
    {Isa::sve, detail::fused_sve256, detail::unfused_sve256, &detail::exp_sve256,
     [](const CpuFeatures& cpu) { return cpu.sve && cpu.sve_bits == 256; }},
    {Isa::neon, detail::fused_neon, detail::unfused_neon, &detail::exp_neon,
     [](const CpuFeatures& cpu) { return cpu.neon; }},
};
// bf16: the NEON unit's forms, whose conversions are baseline NEON (bf16_neon.hpp).
const detail::RowwiseKernelsBf16* const kBf16Fused = &detail::fused_neon_bf16;
const detail::RowwiseKernelsBf16* const kBf16Unfused = &detail::unfused_neon_bf16;
std::string bf16_missing_here(const CpuFeatures& cpu) {
  if (!cpu.neon) return "bf16 needs Advanced SIMD (NEON), which this CPU lacks";
  return {};
}
#else
#error "the row-wise ops have units for x86-64 and AArch64 only"
#endif
constexpr RowwiseUnit kRowwiseScalar = {Isa::scalar, detail::fused_scalar, detail::unfused_scalar,
                                        &detail::exp_scalar,
                                        [](const CpuFeatures&) { return true; }};

// isa's unit in this build; nullptr where it is not built here.
const RowwiseUnit* rowwise_unit(Isa isa) {
  for (const RowwiseUnit& u : kRowwiseUnits)
    if (u.isa == isa) return &u;
  return isa == Isa::scalar ? &kRowwiseScalar : nullptr;
}

// isa's unit, or why it cannot run here.
const RowwiseUnit& runnable_unit(Isa isa) {
  const RowwiseUnit* u = rowwise_unit(isa);
  if (!u)
    throw std::invalid_argument(std::string("the ") + to_string(isa) +
                                " implementation is not built for " + kRowwiseArchitecture);
  if (!u->runs(cpu_features()))
    throw std::invalid_argument(std::string("this CPU does not run the ") + to_string(isa) +
                                " implementation (" + kRowwiseFeatureSource + ")");
  return *u;
}

const detail::RowwiseKernels& table(Isa isa, bool fused) {
  const RowwiseUnit& u = runnable_unit(isa);
  return fused ? u.fused : u.unfused;
}

// True when there is work to do; throws on sizes no call can mean.
bool check(std::int64_t rows, std::int64_t cols, int threads) {
  if (rows < 0 || cols < 0)
    throw std::invalid_argument("rows and cols must be >= 0, got " + std::to_string(rows) + " x " +
                                std::to_string(cols));
  if (threads < 1)
    throw std::invalid_argument("threads must be >= 1, got " + std::to_string(threads));
  return rows > 0 && cols > 0;
}

bool check_chain(std::int64_t n, int L, int threads) {
  if (L < 1 || L > kEltwiseChainMaxLength)
    throw std::invalid_argument("eltwise_chain length L must be in 1..32, got " +
                                std::to_string(L));
  return check(1, n, threads);
}

const detail::RowwiseKernelsBf16& bf16_table(bool fused) {
  if (const std::string why = bf16_unsupported_reason(cpu_features()); !why.empty())
    throw std::invalid_argument(why);
  return *(fused ? kBf16Fused : kBf16Unfused);
}

std::size_t scratch(std::int64_t rows, std::int64_t cols, std::int64_t vectors) {
  check(rows, cols, 1);
  return static_cast<std::size_t>(rows * cols + vectors * rows);
}

std::atomic<std::int64_t>& threshold() {
  static std::atomic<std::int64_t> bytes{
      std::min<std::int64_t>(cache_sizes().l3, std::int64_t{96} << 20)};
  return bytes;
}

}  // namespace

std::int64_t streaming_threshold() {
  return threshold().load();
}

std::int64_t set_streaming_threshold(std::int64_t bytes) {
  return threshold().exchange(std::max<std::int64_t>(bytes, 0));
}

bool streams_output(std::int64_t working_set_bytes) {
  return working_set_bytes > threshold().load(std::memory_order_relaxed);
}

bool softmax_streams_y(Isa isa) {
  return !(isa == Isa::avx512 && cpu_features().amd && cpu_features().family >= 0x1A);
}

const char* to_string(Isa isa) {
  switch (isa) {
    case Isa::avx512:
      return "avx512";
    case Isa::avx2:
      return "avx2";
    case Isa::neon:
      return "neon";
    case Isa::sve:
      return "sve";
    case Isa::scalar:
      break;
  }
  return "scalar";
}

// Built for this architecture, and the CPU runs it.
bool isa_available(Isa isa) {
  const RowwiseUnit* u = rowwise_unit(isa);
  return u && u->runs(cpu_features());
}

Isa best_isa() {
  for (const RowwiseUnit& u : kRowwiseUnits)
    if (u.runs(cpu_features())) return u.isa;
  return Isa::scalar;
}

std::string rowwise_fused_isa() {
  return to_string(best_isa());
}

std::size_t softmax_unfused_scratch(std::int64_t rows, std::int64_t cols) {
  return scratch(rows, cols, 2);  // t; row maxima, row sums
}
std::size_t layernorm_unfused_scratch(std::int64_t rows, std::int64_t cols) {
  return scratch(rows, cols, 2);  // x - mean; row means, row 1/std
}
std::size_t rmsnorm_unfused_scratch(std::int64_t rows, std::int64_t cols) {
  return scratch(rows, cols, 1);  // x^2, then x / rms; row 1/rms
}

void softmax_fused_isa(Isa isa, const float* x, float* y, std::int64_t rows, std::int64_t cols,
                       int threads) {
  const auto& k = table(isa, true);
  if (check(rows, cols, threads)) k.softmax(x, y, nullptr, rows, cols, threads);
}
void softmax_unfused_isa(Isa isa, const float* x, float* y, float* scratch, std::int64_t rows,
                         std::int64_t cols, int threads) {
  const auto& k = table(isa, false);
  if (check(rows, cols, threads)) k.softmax(x, y, scratch, rows, cols, threads);
}
void layernorm_fused_isa(Isa isa, const float* x, const float* gamma, const float* beta, float* y,
                         std::int64_t rows, std::int64_t cols, float eps, int threads) {
  const auto& k = table(isa, true);
  if (check(rows, cols, threads)) k.layernorm(x, gamma, beta, y, nullptr, rows, cols, eps, threads);
}
void layernorm_unfused_isa(Isa isa, const float* x, const float* gamma, const float* beta, float* y,
                           float* scratch, std::int64_t rows, std::int64_t cols, float eps,
                           int threads) {
  const auto& k = table(isa, false);
  if (check(rows, cols, threads)) k.layernorm(x, gamma, beta, y, scratch, rows, cols, eps, threads);
}
void rmsnorm_fused_isa(Isa isa, const float* x, const float* gamma, float* y, std::int64_t rows,
                       std::int64_t cols, float eps, int threads) {
  const auto& k = table(isa, true);
  if (check(rows, cols, threads)) k.rmsnorm(x, gamma, y, nullptr, rows, cols, eps, threads);
}
void rmsnorm_unfused_isa(Isa isa, const float* x, const float* gamma, float* y, float* scratch,
                         std::int64_t rows, std::int64_t cols, float eps, int threads) {
  const auto& k = table(isa, false);
  if (check(rows, cols, threads)) k.rmsnorm(x, gamma, y, scratch, rows, cols, eps, threads);
}
void eltwise_chain_fused_isa(Isa isa, const float* x, float* y, std::int64_t n, int L,
                             int threads) {
  const auto& k = table(isa, true);
  if (check_chain(n, L, threads)) k.eltwise_chain(x, y, n, L, threads);
}
void eltwise_chain_unfused_isa(Isa isa, const float* x, float* y, std::int64_t n, int L,
                               int threads) {
  const auto& k = table(isa, false);
  if (check_chain(n, L, threads)) k.eltwise_chain(x, y, n, L, threads);
}

void exp_isa(Isa isa, const float* x, float* y, std::int64_t n) {
  const RowwiseUnit& u = runnable_unit(isa);
  if (check(1, n, 1)) u.exp(x, y, n);
}

// The un-suffixed entries: the best ISA this CPU runs.
void softmax_fused(const float* x, float* y, std::int64_t rows, std::int64_t cols, int threads) {
  softmax_fused_isa(best_isa(), x, y, rows, cols, threads);
}
void softmax_unfused(const float* x, float* y, float* scratch, std::int64_t rows, std::int64_t cols,
                     int threads) {
  softmax_unfused_isa(best_isa(), x, y, scratch, rows, cols, threads);
}
void layernorm_fused(const float* x, const float* gamma, const float* beta, float* y,
                     std::int64_t rows, std::int64_t cols, float eps, int threads) {
  layernorm_fused_isa(best_isa(), x, gamma, beta, y, rows, cols, eps, threads);
}
void layernorm_unfused(const float* x, const float* gamma, const float* beta, float* y,
                       float* scratch, std::int64_t rows, std::int64_t cols, float eps,
                       int threads) {
  layernorm_unfused_isa(best_isa(), x, gamma, beta, y, scratch, rows, cols, eps, threads);
}
void rmsnorm_fused(const float* x, const float* gamma, float* y, std::int64_t rows,
                   std::int64_t cols, float eps, int threads) {
  rmsnorm_fused_isa(best_isa(), x, gamma, y, rows, cols, eps, threads);
}
void rmsnorm_unfused(const float* x, const float* gamma, float* y, float* scratch,
                     std::int64_t rows, std::int64_t cols, float eps, int threads) {
  rmsnorm_unfused_isa(best_isa(), x, gamma, y, scratch, rows, cols, eps, threads);
}
void eltwise_chain_fused(const float* x, float* y, std::int64_t n, int L, int threads) {
  eltwise_chain_fused_isa(best_isa(), x, y, n, L, threads);
}
void eltwise_chain_unfused(const float* x, float* y, std::int64_t n, int L, int threads) {
  eltwise_chain_unfused_isa(best_isa(), x, y, n, L, threads);
}

std::string bf16_unsupported_reason(const CpuFeatures& cpu) {
  return bf16_missing_here(cpu);
}

void softmax_fused(const std::uint16_t* x, std::uint16_t* y, std::int64_t rows, std::int64_t cols,
                   int threads) {
  const auto& k = bf16_table(true);
  if (check(rows, cols, threads)) k.softmax(x, y, nullptr, rows, cols, threads);
}
void softmax_unfused(const std::uint16_t* x, std::uint16_t* y, std::uint16_t* scratch,
                     std::int64_t rows, std::int64_t cols, int threads) {
  const auto& k = bf16_table(false);
  if (check(rows, cols, threads)) k.softmax(x, y, scratch, rows, cols, threads);
}
void layernorm_fused(const std::uint16_t* x, const std::uint16_t* gamma, const std::uint16_t* beta,
                     std::uint16_t* y, std::int64_t rows, std::int64_t cols, float eps,
                     int threads) {
  const auto& k = bf16_table(true);
  if (check(rows, cols, threads)) k.layernorm(x, gamma, beta, y, nullptr, rows, cols, eps, threads);
}
void layernorm_unfused(const std::uint16_t* x, const std::uint16_t* gamma,
                       const std::uint16_t* beta, std::uint16_t* y, std::uint16_t* scratch,
                       std::int64_t rows, std::int64_t cols, float eps, int threads) {
  const auto& k = bf16_table(false);
  if (check(rows, cols, threads)) k.layernorm(x, gamma, beta, y, scratch, rows, cols, eps, threads);
}
void rmsnorm_fused(const std::uint16_t* x, const std::uint16_t* gamma, std::uint16_t* y,
                   std::int64_t rows, std::int64_t cols, float eps, int threads) {
  const auto& k = bf16_table(true);
  if (check(rows, cols, threads)) k.rmsnorm(x, gamma, y, nullptr, rows, cols, eps, threads);
}
void rmsnorm_unfused(const std::uint16_t* x, const std::uint16_t* gamma, std::uint16_t* y,
                     std::uint16_t* scratch, std::int64_t rows, std::int64_t cols, float eps,
                     int threads) {
  const auto& k = bf16_table(false);
  if (check(rows, cols, threads)) k.rmsnorm(x, gamma, y, scratch, rows, cols, eps, threads);
}
void eltwise_chain_fused(const std::uint16_t* x, std::uint16_t* y, std::int64_t n, int L,
                         int threads) {
  const auto& k = bf16_table(true);
  if (check_chain(n, L, threads)) k.eltwise_chain(x, y, n, L, threads);
}
void eltwise_chain_unfused(const std::uint16_t* x, std::uint16_t* y, std::int64_t n, int L,
                           int threads) {
  const auto& k = bf16_table(false);
  if (check_chain(n, L, threads)) k.eltwise_chain(x, y, n, L, threads);
}

}  // namespace ridgeline::ops
