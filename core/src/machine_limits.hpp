#pragma once
// What a machine model may hold. A model is an input like any other (a cache file anyone can
// edit, a --machine file, a run's context): every number is checked against what a machine
// can measure, every list against what a probe writes, so a model of 1e308 FLOP/s, -5 cores
// or a million memory levels is refused with one line naming the field, never used.
#include <fmt/format.h>

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "json_fields.hpp"

namespace ridgeline::detail {

// A probe writes tens of each list (ceilings, levels, sweeps, phases, GPUs) and a few hundred
// network points; sweeps have about 50 working sets and a few passes.
inline constexpr std::size_t kMaxModelEntries = 4096;
inline constexpr std::size_t kMaxSweepPasses = 256;
// A machine model file: a probe writes 30 to 100 KiB.
inline constexpr std::uintmax_t kMaxModelFileBytes = std::uintmax_t{16} << 20;
// Any rate a model holds (FLOP/s, OP/s, bytes/s) is below 1e18 per second: a whole node's
// fastest matrix engines are near 1e16.
inline constexpr double kMaxRate = 1e18;
// Threads, cores, ranks: far beyond any machine's, far below what would overflow.
inline constexpr std::int64_t kMaxThreads = std::int64_t{1} << 20;
// Sizes in bytes (caches, memory, working sets, messages): 1 PiB.
inline constexpr std::int64_t kMaxBytes = std::int64_t{1} << 50;
// A measured clock: 0 where none was measured, else 10 MHz to 100 GHz.
inline constexpr double kMinClockHz = 1e7, kMaxClockHz = 1e11;
// A time the probe measured (a call's overhead, a phase, a whole probe): up to a day.
inline constexpr double kMaxSeconds = 86400;

// The list under `key`, refused past kMaxModelEntries (or `most`) entries.
template <typename Fields>
decltype(auto) bounded_array(const Fields& f, const char* key,
                             std::size_t most = kMaxModelEntries) {
  decltype(auto) items = f.array(key);
  if (items.size() > most)
    f.fail(key,
           fmt::format("{} entries, more than any probe writes (at most {})", items.size(), most));
  return items;
}

// A finite rate above 0 and at most kMaxRate.
template <typename Fields>
double positive_rate(const Fields& f, const char* key) {
  const double x = f.number(key);
  if (!(x > 0) || x > kMaxRate)
    f.fail(key, fmt::format("expected a rate above 0 and at most {:g} per second, got {:g}",
                            kMaxRate, x));
  return x;
}

// A finite number in [0, most]: a rate, a ratio or a time that may be 0.
template <typename Fields>
double non_negative(const Fields& f, const char* key, double most = kMaxRate) {
  const double x = f.number(key);
  if (x < 0 || x > most)
    f.fail(key, fmt::format("expected a number from 0 to {:g}, got {:g}", most, x));
  return x;
}
template <typename Fields>
double non_negative_or(const Fields& f, const char* key, double most = kMaxRate) {
  return f.has(key) ? non_negative(f, key, most) : 0;
}

// An integer in [least, most].
template <typename Fields>
std::int64_t integer_in(const Fields& f, const char* key, std::int64_t least, std::int64_t most) {
  const std::int64_t x = f.integer(key);
  if (x < least || x > most)
    f.fail(key, fmt::format("expected an integer from {} to {}, got {}", least, most, x));
  return x;
}
template <typename Fields>
std::int64_t integer_in_or(const Fields& f, const char* key, std::int64_t least, std::int64_t most,
                           std::int64_t fallback) {
  return f.has(key) ? integer_in(f, key, least, most) : fallback;
}

// A thread (core, rank) count: 1 to kMaxThreads.
template <typename Fields>
int thread_count(const Fields& f, const char* key) {
  return static_cast<int>(integer_in(f, key, 1, kMaxThreads));
}

// A size in bytes, 0 (unknown) to kMaxBytes.
template <typename Fields>
std::int64_t bytes_or_zero(const Fields& f, const char* key) {
  return integer_in_or(f, key, 0, kMaxBytes, 0);
}

// A clock in Hz: 0 (not measured), or kMinClockHz to kMaxClockHz.
template <typename Fields>
double clock_hz_or_zero(const Fields& f, const char* key) {
  if (!f.has(key)) return 0;
  const double x = f.number(key);
  if (x != 0 && (x < kMinClockHz || x > kMaxClockHz))
    f.fail(key, fmt::format("expected 0 (not measured) or a clock from {:g} to {:g} Hz, got {:g}",
                            kMinClockHz, kMaxClockHz, x));
  return x;
}

}  // namespace ridgeline::detail
