#include "ridgeline/runner/collector_validation.hpp"

#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <nlohmann/json.hpp>

#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/collectors/counter_group.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/json_file.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/core/system_memory.hpp"
#include "ridgeline/core/vocabulary.hpp"
#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/ceilings.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"
#include "ridgeline/kernels/patterns.hpp"
#include "ridgeline/runner/probe.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline {

namespace {

// Known work: a function doing it and the count it must produce.
struct Workload {
  std::string description;
  double expected;
  std::function<void()> run;
  // For time counters: an independent clock read around start() and stop(); its
  // difference (in the counter's unit) replaces `expected`, so a preempted spin does not
  // look like a wrong counter.
  std::function<double()> reference_clock = nullptr;
  // Runs before the counters start: puts the data where the workload expects it.
  std::function<void()> prepare = nullptr;
};

double clock_reading(clockid_t id, double per_second) {
  timespec t{};
  clock_gettime(id, &t);
  return (static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec)) * per_second;
}

Workload touch_pages(std::size_t pages) {
  return {fmt::format("touch {} new pages", pages), static_cast<double>(pages), [pages] {
            const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
            void* p = ::mmap(nullptr, pages * page, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) return;
            for (std::size_t i = 0; i < pages; ++i) static_cast<volatile char*>(p)[i * page] = 1;
            ::munmap(p, pages * page);
          }};
}

// One thread busy for `seconds`: its CPU time (ns) equals the wall time.
Workload spin(double seconds) {
  return {fmt::format("one thread busy for {:.0f} ms", seconds * 1e3), seconds * 1e9, [seconds] {
            const auto end =
                std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
            while (std::chrono::steady_clock::now() < end) {
            }
          }};
}

// `iterations` turns of a two-instruction loop (x86-64: dec, jnz; AArch64: subs, b.ne).
Workload instruction_loop(std::uint64_t iterations) {
#if defined(__x86_64__)
  constexpr const char* kPair = "dec/jnz";
#else
  constexpr const char* kPair = "subs/b.ne";
#endif
  return {fmt::format("a loop of {} M {} pairs", iterations / 1000000, kPair),
          2.0 * static_cast<double>(iterations), [iterations] {
            std::uint64_t n = iterations;
#if defined(__x86_64__)
            asm volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
#else
            asm volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
#endif
          }};
}

// The naive reference GEMM at n = 128: 2 n^3 FLOPs (an FMA counts two).
Workload reference_gemm(DType dtype) {
  constexpr std::int64_t n = 128;
  auto state = std::make_shared<std::pair<std::unique_ptr<Kernel>, Operands>>();
  const Problem problem = gemm_problem({n, n, n, 1}, Layout::NN, dtype);
  state->first = KernelCatalog::with_builtin_kernels({}).create("cpu.naive");
  state->second = allocate_operands(problem);
  fill_pattern(state->second.at("A"), "normal", 1);
  fill_pattern(state->second.at("B"), "normal", 2);
  state->first->prepare(problem, state->second, 1);
  return {fmt::format("cpu.naive {} gemm n=128", to_string(dtype)), 2.0 * n * n * n,
          [state] { state->first->run(); }};
}

// `passes` read-only sweeps over a buffer of `bytes` (one load per 64-byte line would
// do, but every element is summed so the loop is what a kernel does): a buffer sized for
// one cache level is first swept once so that the counted sweeps find it there. The
// analytic traffic into the level above is `passes * bytes`; a read-only sweep writes
// nothing back, so groups that add write-backs see the same.
// The buffer is made when the check first sweeps it: a check skipped for want of a counter
// (every one, in a VM) allocates nothing.
Workload read_sweep(const std::string& level, std::int64_t bytes, int passes) {
  auto buffer = std::make_shared<std::vector<double>>();
  auto sweep = [buffer, bytes] {
    if (buffer->empty()) buffer->assign(static_cast<std::size_t>(bytes / 8), 1.0);
    double sum = 0;
    for (double x : *buffer) sum += x;
#if defined(__x86_64__)
    asm volatile("" : : "x"(sum));  // keep the sum, so the loads stay
#else
    asm volatile("" : : "w"(sum));  // keep the sum, so the loads stay
#endif
  };
  Workload w{fmt::format("{} read-only sweep{} of {} KiB from {}", passes, passes == 1 ? "" : "s",
                         bytes / 1024, level),
             static_cast<double>(bytes) * passes, [sweep, passes] {
               for (int i = 0; i < passes; ++i) sweep();
             }};
  w.prepare = sweep;  // a DRAM-sized buffer is larger than every cache: sweeping it evicts itself
  return w;
}

// The SIMT f32 GEMM at n = 1024 on the GPU: 2 n^3 FLOPs, all FFMA instructions. The
// device is touched only in prepare(), after the collector's probe, and this is the last
// check: a process that has initialised CUDA must not fork CUDA work afterwards.
Workload gpu_gemm() {
  constexpr std::int64_t n = 1024;
  struct State {
    std::unique_ptr<Kernel> kernel;
    Operands operands;
  };
  auto state = std::make_shared<State>();
  Workload w{"cuda.simt_vec4_128x128x8_8x8 f32 gemm n=1024", 2.0 * n * n * n, [state] {
               state->kernel->run();
               state->kernel->finish();
             }};
  w.prepare = [state] {
    if (state->kernel) return;
    const Problem problem = gemm_problem({n, n, n, 1});
    state->kernel = KernelCatalog::with_builtin_kernels({}).create("cuda.simt_vec4_128x128x8_8x8");
    if (!state->kernel) throw std::runtime_error("this build has no CUDA kernels");
    state->operands = allocate_operands(problem);
    fill_pattern(state->operands.at("A"), "normal", 1);
    fill_pattern(state->operands.at("B"), "normal", 2);
    state->kernel->prepare(problem, state->operands, 1);
    state->kernel->run();  // creates the context the counters attach to
    state->kernel->finish();
  };
  return w;
}

std::unique_ptr<Collector> collector_for(const std::string& item) {
  const auto colon = item.find(':');
  const CollectorDescriptor* d = find_collector(item.substr(0, colon));
  if (!d) return nullptr;
  return d->factory(colon == std::string::npos ? std::vector<std::string>{}
                                               : std::vector<std::string>{item.substr(colon + 1)});
}

std::optional<double> find_metric(const std::vector<Metric>& metrics, const std::string& name) {
  for (const auto& m : metrics)
    if (m.name == name || m.name == name + ".scaled") return m.value;
  return std::nullopt;
}

// A check before it runs: skipped until a value is read.
CollectorCheck unjudged(const std::string& collector, const std::string& item,
                        const std::string& metric, const Workload& w, double tolerance) {
  return {collector, item, metric, w.description, w.expected, 0, tolerance, "skipped", ""};
}

// The verdict of a check from the value read, or why there is none.
CollectorCheck judged(CollectorCheck c, const std::optional<double>& value,
                      const std::string& why_missing) {
  if (!value) {
    c.reason = why_missing.empty() ? c.metric + " was not read" : why_missing;
    return c;
  }
  c.counted = *value;
  c.verdict = std::abs(c.counted / c.expected - 1) <= c.tolerance ? "trusted" : "untrusted";
  return c;
}

// One collector item around one workload.
CollectorCheck check_item(const std::string& item, const std::string& metric, const Workload& w,
                          double tolerance) {
  CollectorCheck c = unjudged(item.substr(0, item.find(':')), item, metric, w, tolerance);
  auto collector = collector_for(item);
  const Availability a = collector->probe();
  if (!a.available) {
    c.reason = a.reason;
    return c;
  }
  try {
    if (w.prepare) w.prepare();
  } catch (const std::exception& e) {
    c.reason = std::string("the workload could not run: ") + e.what();
    return c;
  }
  const double before = w.reference_clock ? w.reference_clock() : 0;
  collector->start();
  w.run();
  collector->stop();
  if (w.reference_clock) c.expected = w.reference_clock() - before;
  return judged(c, find_metric(collector->read(), metric), a.reason);
}

// A counter group's metric computed by its formulas around one workload.
CollectorCheck check_group(const std::string& group_name, const std::string& metric,
                           const Workload& w, double tolerance) {
  CollectorCheck c = unjudged("group:" + group_name, "--group " + group_name, metric, w, tolerance);
  CounterGroup group;
  try {
    const CpuIdentity cpu = cpu_identity();
    group = load_counter_group(counter_groups_dir(),
                               counter_group_arch(cpu.vendor, cpu.family, cpu.model), group_name);
  } catch (const InputError& e) {
    c.reason = e.what();
    return c;
  }
  std::vector<std::string> items;
  for (const auto& e : group.events) items.push_back(e.collect_item());
  std::vector<std::unique_ptr<Collector>> collectors;
  std::string why;
  for (auto& col : make_collectors(items)) {
    bool used = false;  // make_collectors gives every collector; keep the group's own
    for (const auto& e : group.events) used = used || e.collector == col->name();
    if (!used) continue;
    const Availability a = col->probe();
    if (a.available)
      collectors.push_back(std::move(col));
    else if (!a.reason.empty())
      why += (why.empty() ? "" : "; ") + col->name() + ": " + a.reason;
  }
  if (collectors.empty()) {  // nothing to count: the workload is not run
    c.reason = why.empty() ? "none of the group's collectors can count here" : why;
    return c;
  }
  if (w.prepare) w.prepare();
  const auto start = std::chrono::steady_clock::now();
  for (auto& col : collectors) col->start();
  w.run();
  for (auto& col : collectors) col->stop();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<Metric> readings;
  for (auto& col : collectors)
    for (auto& m : col->read()) readings.push_back(std::move(m));
  std::vector<std::string> missing;
  return judged(c, find_metric(evaluate_group(group, readings, seconds, 1, missing), metric), why);
}

}  // namespace

CollectorValidation validate_collectors() {
  CollectorValidation v;
  v.fingerprint = machine_fingerprint();
  v.date = current_context().date;
  const Workload pages = touch_pages(4096);
  const Workload busy = spin(0.1);
  const Workload loop = instruction_loop(50'000'000);
  const Workload gemm64 = reference_gemm(DType::f64);
  const Workload gemm32 = reference_gemm(DType::f32);
  // Tolerances: page faults may include a few of the process's own; the clocks are read
  // by another path around the same interval; instruction and FLOP counts are exact up to the few
  // instructions of start/stop.
  Workload wall = busy, cpu = busy;
  wall.description += " (CLOCK_MONOTONIC_RAW)";
  wall.reference_clock = [] { return clock_reading(CLOCK_MONOTONIC_RAW, 1); };
  cpu.description += " (CLOCK_PROCESS_CPUTIME_ID)";
  cpu.reference_clock = [] { return clock_reading(CLOCK_PROCESS_CPUTIME_ID, 1e9); };
  v.checks.push_back(check_item("timer", "wall_time", wall, 0.01));
  v.checks.push_back(check_item("perf:page-faults", "perf.page-faults", pages, 0.05));
  v.checks.push_back(check_item("perf:task-clock", "perf.task-clock", cpu, 0.05));
  v.checks.push_back(check_item("perf:instructions", "perf.instructions", loop, 0.02));
  v.checks.push_back(check_item("papi:perf::PAGE-FAULTS", "papi.perf::PAGE-FAULTS", pages, 0.05));
  v.checks.push_back(check_item("papi:PAPI_TOT_INS", "papi.PAPI_TOT_INS", loop, 0.02));
  v.checks.push_back(check_item("papi:PAPI_DP_OPS", "papi.PAPI_DP_OPS", gemm64, 0.05));
  v.checks.push_back(check_item("papi:PAPI_SP_OPS", "papi.PAPI_SP_OPS", gemm32, 0.05));
  v.checks.push_back(check_group("FLOPS_DP", "flops", gemm64, 0.05));
  v.checks.push_back(check_group("FLOPS_SP", "flops", gemm32, 0.05));
  // Bytes: a read-only sweep sized to sit in one level, counted at that level's group.
  // ±10%: hardware prefetchers fetch a few lines past the buffer's end, and the core's other
  // traffic (stack, page tables) lands on the same counters.
  const CacheSizes& caches = cache_sizes();
  const std::string l2(display_name(MemoryLevel::l2)), l3(display_name(MemoryLevel::l3));
  const Workload from_l2 = read_sweep(l2, caches.l2 / 2, 20);
  const Workload from_l3 = read_sweep(l3, std::min(caches.l2 * 4, caches.l3 / 2), 10);
  // Twice the last level is past it for a sequential sweep; bounded by 1 GiB and a quarter
  // of the memory available, whatever the OS says the L3 is (480 MiB in the AMX VM, which
  // made this 3.75 GiB).
  const std::int64_t available = static_cast<std::int64_t>(available_memory_bytes());
  const std::int64_t dram_bytes =
      std::min({std::max<std::int64_t>(caches.l3 * 2, std::int64_t{256} << 20),
                std::int64_t{1} << 30, available > 0 ? available / 4 : std::int64_t{1} << 30});
  const Workload from_dram =
      read_sweep(std::string(display_name(MemoryLevel::main)), dram_bytes, 1);
  v.checks.push_back(check_group(l2, bytes_metric(MemoryLevel::l2), from_l2, 0.10));
  v.checks.push_back(check_group(l3, bytes_metric(MemoryLevel::l3), from_l3, 0.10));
  v.checks.push_back(check_group("MEM", bytes_metric(MemoryLevel::main), from_dram, 0.10));
  // GPU counters: FFMA instructions of a SIMT GEMM (±1%, the bound). Last: see
  // gpu_gemm().
  v.checks.push_back(check_item("cupti", "flops", gpu_gemm(), 0.01));
  return v;
}

std::string validation_to_json(const CollectorValidation& v) {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : v.checks)
    checks.push_back({{"collector", c.collector},
                      {"item", c.item},
                      {"metric", c.metric},
                      {"workload", c.workload},
                      {"expected", c.expected},
                      {"counted", c.counted},
                      {"tolerance", c.tolerance},
                      {"verdict", c.verdict},
                      {"reason", c.reason}});
  return nlohmann::json{{"fingerprint", v.fingerprint}, {"date", v.date}, {"checks", checks}}.dump(
      2);
}

CollectorValidation validation_from_json(const std::string& text, const std::string& origin) {
  CollectorValidation v;
  try {
    const auto j = parse_json_text(text, origin);
    v.fingerprint = j.at("fingerprint").get<std::string>();
    v.date = j.at("date").get<std::string>();
    for (const auto& c : j.at("checks"))
      v.checks.push_back({c.at("collector"), c.at("item"), c.at("metric"), c.at("workload"),
                          c.at("expected"), c.at("counted"), c.at("tolerance"), c.at("verdict"),
                          c.at("reason")});
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: not a collector validation: {}", origin, e.what()));
  }
  return v;
}

std::filesystem::path validation_cache_path() {
  return machine_cache_path().parent_path() / ("validation-" + machine_fingerprint() + ".json");
}

void apply_validation(const CollectorValidation& v, std::vector<CollectorStatus>& statuses) {
  for (auto& s : statuses) {
    if (!s.available) continue;  // trust is about readings; an unavailable one gave none
    std::string trusted, untrusted;
    for (const auto& c : v.checks) {
      if (c.collector != s.name || c.verdict == "skipped") continue;
      const std::string line =
          fmt::format("{} on {}: {:.4g} counted, {:.4g} expected (±{:.0f}%)", c.metric, c.workload,
                      c.counted, c.expected, c.tolerance * 100);
      (c.verdict == "trusted" ? trusted : untrusted) += (line + "; ");
    }
    if (untrusted.empty() && trusted.empty()) continue;
    s.trust = untrusted.empty() ? "trusted" : "untrusted";
    s.validation = fmt::format(
        "{}{} (ridgeline collectors --validate, {})", untrusted.empty() ? "" : "off: " + untrusted,
        untrusted.empty() ? trusted.substr(0, trusted.size() - 2) : "", v.date);
  }
}

}  // namespace ridgeline
