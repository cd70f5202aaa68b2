#include "ridgeline/kernels/patterns.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <random>

namespace ridgeline {

namespace {

enum class Kind {
  normal,
  uniform,
  constant,
  zeros,
  integer,
  subnormal,
  sign_random,
  sparse,
  mantissa
};

struct Pattern {
  Kind kind = Kind::normal;
  int n = 0;  // sparse: percent of zeros; mantissa: bits kept
};

// "sparse90" -> 90 for prefix "sparse"; nullopt when the rest is not a plain number.
std::optional<int> number_after(const std::string& text, std::string_view prefix) {
  if (text.size() <= prefix.size() || text.compare(0, prefix.size(), prefix) != 0) return {};
  int n = 0;
  const char* first = text.data() + prefix.size();
  const char* last = text.data() + text.size();
  auto [end, ec] = std::from_chars(first, last, n);
  if (ec != std::errc() || end != last || (*first == '0' && last - first > 1)) return {};
  return n;
}

std::optional<Pattern> parse(const std::string& text) {
  static const std::pair<const char*, Kind> plain[] = {
      {"normal", Kind::normal},          {"uniform", Kind::uniform},
      {"constant", Kind::constant},      {"zeros", Kind::zeros},
      {"integer", Kind::integer},        {"subnormal", Kind::subnormal},
      {"sign_random", Kind::sign_random}};
  for (const auto& [name, kind] : plain)
    if (text == name) return Pattern{kind, 0};
  if (auto p = number_after(text, "sparse"); p && *p >= 1 && *p <= 99)
    return Pattern{Kind::sparse, *p};
  if (auto k = number_after(text, "mantissa"); k && *k >= 0 && *k <= 52)
    return Pattern{Kind::mantissa, *k};
  return {};
}

// Explicit mantissa bits of each floating type (what "mantissaK" may keep) and the
// exponent of its smallest normal number; 0 / 0 for the integer types.
struct FloatFormat {
  int mantissa_bits;
  int min_normal_exponent;
};
FloatFormat format_of(DType d) {
  switch (d) {
    case DType::f64:
      return {52, -1022};
    case DType::f32:
      return {23, -126};
    case DType::tf32:  // stored as f32; the tensor cores read 10 of its mantissa bits
      return {10, -126};
    case DType::bf16:
      return {7, -126};
    case DType::f16:
      return {10, -14};
    case DType::i8:
    case DType::i32:
      return {0, 0};
  }
  return {0, 0};
}

bool is_integer(DType d) {
  return d == DType::i8 || d == DType::i32;
}

// The pattern's values as doubles, exactly representable in the buffer's type, for elements
// [begin, n) from one generator. `scale` stretches normal, uniform, constant and sign_random
// to the integer types' range.
template <typename Store>
void fill_block(std::size_t begin, std::size_t n, const Pattern& p, DType dtype, std::uint64_t seed,
                double scale, Store store) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  switch (p.kind) {
    case Kind::normal:
      for (std::size_t i = begin; i < n; ++i) store(i, normal(rng) * scale);
      return;
    case Kind::uniform: {
      std::uniform_real_distribution<double> dist(-1.0, 1.0);
      for (std::size_t i = begin; i < n; ++i) store(i, dist(rng) * scale);
      return;
    }
    case Kind::constant:
    case Kind::zeros: {
      const double value = p.kind == Kind::constant ? 0.5 * scale : 0.0;
      for (std::size_t i = begin; i < n; ++i) store(i, value);
      return;
    }
    case Kind::integer: {
      std::uniform_int_distribution<int> dist(-4, 4);
      for (std::size_t i = begin; i < n; ++i) store(i, dist(rng));
      return;
    }
    case Kind::sign_random: {
      std::bernoulli_distribution negative(0.5);
      for (std::size_t i = begin; i < n; ++i) store(i, negative(rng) ? -0.5 * scale : 0.5 * scale);
      return;
    }
    case Kind::sparse: {
      std::bernoulli_distribution zero(p.n / 100.0);
      for (std::size_t i = begin; i < n; ++i) store(i, zero(rng) ? 0.0 : normal(rng) * scale);
      return;
    }
    case Kind::subnormal: {
      // m * 2^(emin - mbits) for m in [1, 2^mbits): every subnormal of the type, either sign.
      const FloatFormat f = format_of(dtype);
      std::uniform_int_distribution<std::int64_t> mantissa(
          1, (std::int64_t{1} << f.mantissa_bits) - 1);
      std::bernoulli_distribution negative(0.5);
      for (std::size_t i = begin; i < n; ++i) {
        const double x =
            std::ldexp(static_cast<double>(mantissa(rng)), f.min_normal_exponent - f.mantissa_bits);
        store(i, negative(rng) ? -x : x);
      }
      return;
    }
    case Kind::mantissa: {
      // N(0, 1) with only the leading p.n bits after the binary point of the significand:
      // few distinct bit patterns, the same exponents and signs as normal.
      const double keep = std::ldexp(1.0, p.n + 1);
      for (std::size_t i = begin; i < n; ++i) {
        int e = 0;
        const double f = std::frexp(normal(rng), &e);  // |f| in [0.5, 1)
        store(i, std::ldexp(std::trunc(f * keep) / keep, e));
      }
      return;
    }
  }
}

// Elements in blocks of kFillBlock, each from its own generator seeded from (seed, block):
// the values depend on the seed alone, never on the thread count, and the blocks fill in
// parallel (one generator over 512 MiB of normal values took seconds per case).
constexpr std::size_t kFillBlock = std::size_t{1} << 16;

std::uint64_t block_seed(std::uint64_t seed, std::uint64_t block) {
  std::uint64_t z = seed + (block + 1) * 0x9e3779b97f4a7c15ULL;  // SplitMix64's finaliser
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

template <typename Store>
void fill_with(std::size_t n, const Pattern& p, DType dtype, std::uint64_t seed, double scale,
               Store store) {
  const std::int64_t blocks = static_cast<std::int64_t>((n + kFillBlock - 1) / kFillBlock);
#pragma omp parallel for schedule(static) if (blocks > 1)
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::size_t begin = static_cast<std::size_t>(b) * kFillBlock;
    fill_block(begin, std::min(n, begin + kFillBlock), p, dtype,
               block_seed(seed, static_cast<std::uint64_t>(b)), scale, store);
  }
}

template <typename T>
auto store_into(std::span<T> data) {
  return [data](std::size_t i, double x) { data[i] = static_cast<T>(x); };
}

// i8 operands take the shapes scaled to the integer range: N(0, 32^2) and uniform on
// [-127, 127], rounded and clamped; constant and sign_random are +-64 (0.5 scaled by 128).
auto store_i8(std::span<std::int8_t> data) {
  return [data](std::size_t i, double x) {
    data[i] = static_cast<std::int8_t>(std::clamp(std::nearbyint(x), -127.0, 127.0));
  };
}

}  // namespace

const std::vector<std::string>& known_patterns() {
  static const std::vector<std::string> patterns{"normal",    "uniform",   "constant",
                                                 "zeros",     "integer",   "sparseP",
                                                 "subnormal", "mantissaK", "sign_random"};
  return patterns;
}

bool is_known_pattern(const std::string& pattern) {
  return parse(pattern).has_value();
}

std::string describe_pattern(const std::string& pattern) {
  const auto p = parse(pattern);
  if (!p) return {};
  switch (p->kind) {
    case Kind::normal:
      return "N(0, 1)";
    case Kind::uniform:
      return "uniform on [-1, 1)";
    case Kind::constant:
      return "every element 0.5";
    case Kind::zeros:
      return "every element 0";
    case Kind::integer:
      return "uniform integers in [-4, 4], as CUTLASS's profiler fills by default";
    case Kind::subnormal:
      return "subnormal numbers of the dtype, either sign";
    case Kind::sign_random:
      return "0.5 with a random sign";
    case Kind::sparse:
      return fmt::format("{}% zeros, the rest N(0, 1)", p->n);
    case Kind::mantissa:
      return fmt::format("N(0, 1) with {} significand bit{} after the leading one", p->n,
                         p->n == 1 ? "" : "s");
  }
  return {};
}

Support pattern_support(const std::string& pattern, DType dtype) {
  const auto p = parse(pattern);
  if (!p) return Support::no(fmt::format("unknown pattern '{}'", pattern));
  if (is_integer(dtype) && (p->kind == Kind::subnormal || p->kind == Kind::mantissa))
    return Support::no(fmt::format("pattern {} is about floating-point bits; {} has none", pattern,
                                   to_string(dtype)));
  if (p->kind == Kind::mantissa && p->n > format_of(dtype).mantissa_bits)
    return Support::no(fmt::format("pattern {}: {} keeps only {} significand bits", pattern,
                                   to_string(dtype), format_of(dtype).mantissa_bits));
  return Support::yes();
}

void fill_pattern(OperandBuffer& buffer, const std::string& pattern, std::uint64_t seed) {
  const auto p = parse(pattern);
  if (!p) throw std::invalid_argument(fmt::format("unknown pattern '{}'", pattern));
  if (Support s = pattern_support(pattern, buffer.dtype()); !s)
    throw std::invalid_argument(s.reason);
  const std::size_t n = buffer.size();
  const DType d = buffer.dtype();
  switch (d) {
    case DType::f64:
      return fill_with(n, *p, d, seed, 1.0, store_into(buffer.as<double>()));
    case DType::f32:
    case DType::tf32:
      return fill_with(n, *p, d, seed, 1.0, store_into(buffer.as<float>()));
    case DType::bf16: {
      auto data = buffer.as<std::uint16_t>();
      return fill_with(n, *p, d, seed, 1.0, [data](std::size_t i, double x) {
        data[i] = to_bf16(static_cast<float>(x));
      });
    }
    case DType::f16: {
      auto data = buffer.as<std::uint16_t>();
      return fill_with(n, *p, d, seed, 1.0, [data](std::size_t i, double x) {
        data[i] = to_f16(static_cast<float>(x));
      });
    }
    case DType::i8:
      return fill_with(n, *p, d, seed,
                       p->kind == Kind::uniform  ? 127.0
                       : p->kind == Kind::normal ? 32.0
                                                 : 128.0,
                       store_i8(buffer.as<std::int8_t>()));
    case DType::i32:
      return fill_with(n, *p, d, seed, 1024.0, store_into(buffer.as<std::int32_t>()));
  }
}

namespace {

// Every element `value`, the blocks in parallel (operands reach 512 MiB).
template <typename T>
void fill_in_parallel(std::span<T> data, T value) {
  const std::int64_t blocks =
      static_cast<std::int64_t>((data.size() + kFillBlock - 1) / kFillBlock);
#pragma omp parallel for schedule(static) if (blocks > 1)
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::size_t begin = static_cast<std::size_t>(b) * kFillBlock;
    std::fill(data.begin() + begin, data.begin() + std::min(data.size(), begin + kFillBlock),
              value);
  }
}

}  // namespace

// NaN where the type has one; for i32 a value no product of i8 operands of a supported
// size reaches, so an unwritten entry fails the exact comparison.
void poison(OperandBuffer& buffer) {
  switch (buffer.dtype()) {
    case DType::f64: {
      auto d = buffer.as<double>();
      return fill_in_parallel(d, std::numeric_limits<double>::quiet_NaN());
    }
    case DType::f32:
    case DType::tf32: {
      auto d = buffer.as<float>();
      return fill_in_parallel(d, std::numeric_limits<float>::quiet_NaN());
    }
    case DType::bf16:
    case DType::f16: {
      auto d = buffer.as<std::uint16_t>();
      const std::uint16_t nan = buffer.dtype() == DType::bf16 ? 0x7fc0 : 0x7e00;
      return fill_in_parallel(d, nan);
    }
    case DType::i8: {
      auto d = buffer.as<std::int8_t>();
      return fill_in_parallel(d, std::numeric_limits<std::int8_t>::min());
    }
    case DType::i32: {
      auto d = buffer.as<std::int32_t>();
      return fill_in_parallel(d, std::numeric_limits<std::int32_t>::min());
    }
  }
}

void fill_operands(Operands& operands, const std::string& pattern, std::uint64_t seed) {
  for (auto& e : operands.entries()) {
    if (e.spec.role == OperandRole::output)
      poison(e.buffer);
    else
      fill_pattern(e.buffer, pattern, seed++);
  }
}

}  // namespace ridgeline
