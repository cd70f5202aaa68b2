// The einsum permute (kernels/src/einsum/einsum_permute.hpp) beside the probe's copy ceiling
// at the same working set, measured in this process, one after the other, so that the
// ratio in docs/einsum.md compares like with like:
//   warm: the permute called again and again on the same operands (so they stay in whatever
//         cache holds them), its stores as einsum_permute picks them (streamed past the
//         last-level cache), against the probe's copy sweep (measure_bandwidth) over the
//         same number of bytes;
//   cold: a pass over twice the last-level cache before every call, against a plain copy
//         of the same bytes in the same state; the permute with cached and with streaming
//         stores.
// Bytes are STREAM's (each element read once and written once). Usage:
//   ridgeline_permute_vs_copy [--threads N] [--calls N] [FROM->TO:i=..,j=..[:f64]]...
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cpu/packed_gemm.hpp"
#include "einsum/einsum_permute.hpp"
#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/kernels/ceilings.hpp"
#include "ridgeline/kernels/cpu_features.hpp"

namespace {

using ridgeline::EinsumSpec;
using ridgeline::PermuteOptions;

struct Case {
  std::string text, from, to;
  std::map<char, std::int64_t> extents;
  bool f64 = false;
};

Case parse(const std::string& text) {
  Case c{text, {}, {}, {}, false};
  const auto arrow = text.find("->"), colon = text.find(':');
  if (arrow == std::string::npos || colon == std::string::npos || colon < arrow) {
    std::fprintf(stderr, "ridgeline_permute_vs_copy: %s: want FROM->TO:i=..,j=..[:f64]\n",
                 text.c_str());
    std::exit(2);
  }
  c.from = text.substr(0, arrow);
  c.to = text.substr(arrow + 2, colon - arrow - 2);
  std::string dims = text.substr(colon + 1);
  if (const auto tail = dims.find(':'); tail != std::string::npos) {
    c.f64 = dims.substr(tail + 1) == "f64";
    dims.resize(tail);
  }
  for (std::size_t at = 0; at < dims.size();) {
    const std::size_t end = std::min(dims.find(',', at), dims.size());
    c.extents[dims[at]] = std::atoll(dims.c_str() + at + 2);
    at = end + 1;
  }
  return c;
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::vector<char> evict_buffer;
void evict() {
  for (std::size_t i = 0; i < evict_buffer.size(); i += 64) evict_buffer[i] += 1;
}

template <typename T>
void run(const Case& c, int threads, int calls) {
  EinsumSpec s;
  s.a = s.c = c.from;
  s.extents = c.extents;
  const std::int64_t n = s.elements(c.from);
  const double bytes = 2.0 * static_cast<double>(n) * sizeof(T);
  // 64-byte aligned, as the runner's operands and TTGT's buffers are.
  ridgeline::packed::AlignedArray<T> in_buffer, out_buffer;
  in_buffer.resize(static_cast<std::size_t>(n));
  out_buffer.resize(static_cast<std::size_t>(n));
  T* const in = in_buffer.data.get();
  T* const out = out_buffer.data.get();
  std::fill(in, in + n, T(1));
  std::fill(out, out + n, T(0));
  const auto timed = [&](bool cold, auto&& call) {
    std::vector<double> t;
    call();
    for (int i = 0; i < calls; ++i) {
      if (cold) evict();
      const double start = now();
      call();
      t.push_back(now() - start);
    }
    return bytes / median(t) / 1e9;
  };
  const auto permute = [&](PermuteOptions o) {
    return [&, o] { ridgeline::einsum_permute(s, c.from, in, c.to, out, threads, o); };
  };
  const auto copy = [&] {  // on as many threads as the permute, each its share
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int part = 0; part < threads; ++part) {
      const std::int64_t begin = n * part / threads, end = n * (part + 1) / threads;
      std::memcpy(out + begin, in + begin, static_cast<std::size_t>(end - begin) * sizeof(T));
    }
  };
  const auto& cpu = ridgeline::cpu_features();
  const double ceiling =
      ridgeline::measure_bandwidth(ridgeline::StreamKernel::copy, static_cast<std::int64_t>(bytes),
                                   threads, ridgeline::stream_isas(cpu), 0.3)
          .best /
      1e9;
  std::vector<bool> isas{false};
  if (cpu.has_avx512()) isas.push_back(true);
  const double cold_copy = timed(true, copy);
  for (bool avx512 : isas) {
    const char* isa = avx512 ? "avx512" : "avx2";
    const double warm = timed(
        false,
        permute({avx512, ridgeline::permute_options(static_cast<std::int64_t>(bytes)).stream}));
    const double cold = timed(true, permute({avx512, false}));
    const double streamed = timed(true, permute({avx512, true}));
    std::printf(
        "%-36s %-6s %7.1f MiB  warm %6.1f / copy ceiling %6.1f = %4.2f   cold %6.1f, streamed "
        "%6.1f / copy %6.1f = %4.2f, %4.2f\n",
        c.text.c_str(), isa, bytes / 2 / 1048576, warm, ceiling, warm / ceiling, cold, streamed,
        cold_copy, cold / cold_copy, streamed / cold_copy);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 1, calls = 21;
  std::vector<std::string> specs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--threads" && i + 1 < argc)
      threads = std::atoi(argv[++i]);
    else if (a == "--calls" && i + 1 < argc)
      calls = std::max(1, std::atoi(argv[++i]));
    else
      specs.push_back(a);
  }
  if (specs.empty())  // the einsum suite's permutes, and the same out of every cache
    specs = {"bthr->bhtr:b=4,t=512,h=8,r=64",
             "bThr->bhrT:b=4,T=512,h=8,r=64",
             "bthr->bhtr:b=4,t=512,h=8,r=64:f64",
             "bThr->bhrT:b=4,T=512,h=8,r=64:f64",
             "ij->ji:i=1024,j=1024",
             "ij->ji:i=1000,j=1040",
             "nchw->nhwc:n=8,c=32,h=56,w=56",
             "bthr->bhtr:b=32,t=512,h=8,r=64",
             "bThr->bhrT:b=32,T=512,h=8,r=64",
             "ij->ji:i=4096,j=4096"};
  evict_buffer.assign(static_cast<std::size_t>(2 * ridgeline::cache_sizes().l3), 0);
  std::printf("GB/s, medians of %d calls on %d thread(s); ratios: permute / copy\n", calls,
              threads);
  for (const std::string& text : specs) {
    const Case c = parse(text);
    if (c.f64)
      run<double>(c, threads, calls);
    else
      run<float>(c, threads, calls);
  }
}
