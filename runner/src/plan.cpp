#include "ridgeline/runner/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <set>

#include "request_problems.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/system_memory.hpp"
#include "ridgeline/core/user_pattern.hpp"
#include "ridgeline/kernels/core_pinning.hpp"
#include "ridgeline/kernels/gpu.hpp"
#include "ridgeline/kernels/patterns.hpp"
#include "ridgeline/runner/suites.hpp"

namespace ridgeline {

namespace {

constexpr int kThreadsPerCpu = 4;  // --threads' bound (plan_cases)

std::int64_t parse_dimension(const std::string& text, const std::string& whole) {
  std::int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc::result_out_of_range && ptr == text.data() + text.size())
    throw InputError(
        fmt::format("--shape {}: {} exceeds the 32-bit size BLAS interfaces take", whole, text));
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty())
    throw InputError(fmt::format("--shape {}: '{}' is not a whole number", whole, text));
  if (v <= 0) throw InputError(fmt::format("--shape {}: sizes must be positive, got {}", whole, v));
  if (v > (std::int64_t{1} << 31) - 1)
    throw InputError(
        fmt::format("--shape {}: {} exceeds the 32-bit size BLAS interfaces take", whole, v));
  return v;
}

template <typename T>
std::vector<T> keep_if_listed(std::vector<T> items, const std::vector<std::string>& wanted,
                              std::string (*key)(const T&)) {
  if (wanted.empty()) return items;
  std::erase_if(items, [&](const T& item) {
    return std::find(wanted.begin(), wanted.end(), key(item)) == wanted.end();
  });
  return items;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

void check_names(const std::vector<std::string>& given, const std::vector<std::string>& known,
                 const char* what, RequestProblems& problems) {
  for (const auto& g : given)
    if (std::find(known.begin(), known.end(), g) == known.end())
      problems.add(fmt::format("--{}: unknown {} '{}' (known: {})", what, what, g, join(known)));
}

}  // namespace

std::string parse_shape(const std::string& text) {
  std::vector<std::string> parts;
  std::string current;
  for (char c : text) {
    if (c == 'x' || c == 'X' || c == ',') {
      parts.push_back(current);
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  parts.push_back(current);
  if (parts.size() == 1) {
    const std::int64_t n = parse_dimension(parts[0], text);
    return fmt::format("m={},n={},k={}", n, n, n);
  }
  if (parts.size() != 3) throw InputError(fmt::format("--shape {}: expected N or MxNxK", text));
  return fmt::format("m={},n={},k={}", parse_dimension(parts[0], text),
                     parse_dimension(parts[1], text), parse_dimension(parts[2], text));
}

std::vector<CaseSpec> plan_cases(const KernelCatalog& catalog, const PlanRequest& req) {
  RequestProblems problems;
  const SuiteDefinition* suite = find_suite(req.suite);
  if (!suite) {
    std::vector<std::string> names;
    for (const auto& s : suites()) names.push_back(s.name);
    problems.add(fmt::format("--suite: unknown suite '{}' (known: {})", req.suite, join(names)));
  }
  std::vector<std::string> backends;
  for (const auto& k : catalog.kernels())  // one name may serve several ops (cpu.fused)
    if (std::find(backends.begin(), backends.end(), k.backend) == backends.end())
      backends.push_back(k.backend);
  std::vector<std::string> wanted_backends;
  for (const auto& b : req.backends) {
    // "cpu.packed" and "cpu.packed_omp" name the packed rung this CPU runs best.
    if (b == "cpu.packed" || b == "cpu.packed_omp") {
      auto best = best_packed_backend(b == "cpu.packed_omp");
      if (!best)
        problems.add(fmt::format("--backend {}: this CPU has neither AVX-512 nor AVX2+FMA", b));
      else
        wanted_backends.push_back(*best);
    } else {
      wanted_backends.push_back(b);
    }
  }
  check_names(wanted_backends, backends, "backend", problems);
  std::vector<std::string> dtypes;
  for (DType d : all_dtypes()) dtypes.emplace_back(to_string(d));
  check_names(req.dtypes, dtypes, "dtype", problems);
  for (const auto& p : req.patterns)
    if (!is_known_pattern(p))
      problems.add(
          fmt::format("--pattern: unknown pattern '{}' (known: {}; sparseP takes P from 1 to 99, "
                      "mantissaK takes K from 0 to 52)",
                      p, join(known_patterns())));
  check_names(req.fp_envs, {"ieee", "ftz_daz"}, "fp-env", problems);
  check_names(req.caches,
              {std::string(to_string(CacheState::warm)), std::string(to_string(CacheState::cold))},
              "cache", problems);
  check_names(req.layouts, {"NN", "NT", "TN", "TT"}, "layout", problems);
  // Up to four threads a CPU: oversubscription stays something to look at; 100,000 threads
  // exhausted the memory for their stacks and the case died (SIGSEGV) before measuring.
  const int most_threads = kThreadsPerCpu * usable_cpus();
  for (int t : req.threads) {
    if (t <= 0) problems.add(fmt::format("--threads {}: thread counts must be positive", t));
    if (t > most_threads)
      problems.add(fmt::format(
          "--threads {}: more than {} threads for the {} CPU{} this process may run on ({} a "
          "CPU at most: past that a case measures the scheduler, not its kernel)",
          t, most_threads, usable_cpus(), usable_cpus() > 1 ? "s" : "", kThreadsPerCpu));
  }
  // As --benchmark_filter: a leading '-' keeps the cases that do NOT match the rest.
  std::optional<UserPattern> filter;
  const bool exclude = req.filter && !req.filter->empty() && req.filter->front() == '-';
  if (req.filter)
    problems.check(
        [&] { filter.emplace(std::string_view(*req.filter).substr(exclude ? 1 : 0), "--filter"); });
  problems.throw_if_any();  // the names: the suite's cases are expanded only with all of them

  const int cpus = usable_cpus();
  std::vector<CaseSpec> base = suite->expand(catalog, cpus);
  if (base.empty() && suite->name.rfind("gpu", 0) == 0)
    throw InputError(fmt::format("suite '{}' has no cases on this machine: no GPU: {}", suite->name,
                                 gpu_probe().reason));

  // Overrides replace a dimension of the suite; the rest of the suite stays.
  std::vector<CaseSpec> cases;
  std::set<std::string> seen;
  std::set<std::string> applied;  // the params overrides some case's op took
  auto emit = [&](CaseSpec c) {
    if (seen.insert(c.name()).second) cases.push_back(std::move(c));
  };
  for (const CaseSpec& c : base) {
    std::vector<CaseSpec> variants{c};
    auto expand = [&](auto&& values, auto&& apply) {
      if (values.empty()) return;
      std::vector<CaseSpec> next;
      for (const auto& v : variants)
        for (const auto& value : values) {
          CaseSpec x = v;
          apply(x, value);
          next.push_back(x);
        }
      variants = std::move(next);
    };
    expand(req.params, [&](CaseSpec& x, const std::string& o) {
      if (apply_params(x.problem, o)) applied.insert(o);
    });
    expand(req.dtypes,
           [](CaseSpec& x, const std::string& d) { x.problem.dtype = *parse_dtype(d); });
    expand(req.layouts,
           [](CaseSpec& x, const std::string& l) { apply_params(x.problem, "layout=" + l); });
    expand(req.patterns, [](CaseSpec& x, const std::string& p) { x.problem.pattern = p; });
    expand(req.fp_envs, [](CaseSpec& x, const std::string& e) { x.fp_env = *parse_fp_env(e); });
    expand(req.caches, [](CaseSpec& x, const std::string& s) { x.cache = *parse_cache_state(s); });
    // A GPU case runs on one host thread whatever --threads says (its kernels are not
    // threaded): it stays at 1, once.
    const KernelInfo* kernel = catalog.find(c.backend, c.problem.op);
    if (!kernel || kernel->device != Device::gpu)
      expand(req.threads, [](CaseSpec& x, int t) { x.threads = t; });
    for (auto& v : variants) emit(std::move(v));
  }
  for (const auto& o : req.params)
    if (!applied.count(o)) {
      std::set<std::string> ops;
      for (const CaseSpec& c : base) ops.insert(c.problem.op);
      problems.add(
          fmt::format("--params {}: no op of suite '{}' has these parameters (its ops: {})", o,
                      suite->name, join({ops.begin(), ops.end()})));
    }
  // A backend named explicitly but absent from the suite's rungs still runs on its shapes.
  for (const auto& b : wanted_backends) {
    bool present =
        std::any_of(cases.begin(), cases.end(), [&](const CaseSpec& c) { return c.backend == b; });
    if (present) continue;
    std::vector<CaseSpec> extra;
    for (const KernelInfo& k : catalog.kernels()) {  // the ops this backend implements
      if (k.backend != b) continue;
      for (const CaseSpec& c : cases) {
        const bool gpu = k.device == Device::gpu;  // one host thread, whatever --threads says
        if (c.problem.op != k.op || (c.threads > 1 && !k.threaded && !gpu)) continue;
        CaseSpec x = c;
        x.backend = b;
        if (gpu) x.threads = 1;
        extra.push_back(x);
      }
    }
    for (auto& x : extra) emit(std::move(x));
  }
  if (!wanted_backends.empty())
    std::erase_if(cases, [&](const CaseSpec& c) {
      return std::find(wanted_backends.begin(), wanted_backends.end(), c.backend) ==
             wanted_backends.end();
    });
  if (filter)
    std::erase_if(cases, [&](const CaseSpec& c) { return filter->search(c.name()) == exclude; });

  // The first case that would not fit, and how many more: one line, however many.
  const std::uint64_t available = available_memory_bytes();
  std::string too_big;
  std::size_t more_too_big = 0;
  for (const CaseSpec& c : cases) {
    // Operands plus the packing buffers and the validator's vectors: at most 10% more.
    const double needed = static_cast<double>(operand_bytes(c.problem)) * 1.1;
    if (available == 0 || needed <= static_cast<double>(available)) continue;
    if (!too_big.empty()) {
      ++more_too_big;
      continue;
    }
    too_big = fmt::format("{}: needs {:.1f} GiB for its operands, only {:.1f} GiB available",
                          c.name(), needed / (1 << 30), static_cast<double>(available) / (1 << 30));
  }
  if (more_too_big > 0)
    too_big +=
        fmt::format(" (and {} more case{} too large)", more_too_big, more_too_big == 1 ? "" : "s");
  if (!too_big.empty()) problems.add(too_big);
  problems.throw_if_any();
  return cases;
}

}  // namespace ridgeline
