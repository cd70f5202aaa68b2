// The memory part of the probe (probe_memory.hpp): the hierarchy by measurement, then each
// level's ceilings.
#include "probe_memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "likwid_check.hpp"
#include "memory_sweep.hpp"
#include "ridgeline/kernels/cpu_features.hpp"

namespace ridgeline {

namespace {

// Beyond a working set, what its streams' page rounding and skew take (StreamArrays): reserved
// too, so no kernel re-maps (and re-faults) the arrays.
constexpr std::int64_t kArraySlack = std::int64_t{1} << 20;

std::string thread_text(int threads) {
  return fmt::format("{} thread{}", threads, threads > 1 ? "s" : "");
}

// The plateau of level `name` in this thread count's read sweep, or null where it showed none.
const MeasuredLevel* read_plateau(const MachineModel& m, const std::string& name, int threads) {
  const auto level = std::find_if(m.levels.begin(), m.levels.end(), [&](const MeasuredLevel& l) {
    return l.name == name && l.kernel == "read" && l.threads == threads;
  });
  return level == m.levels.end() ? nullptr : &*level;
}

}  // namespace

std::vector<std::pair<std::string, std::int64_t>> working_sets(const MachineModel& m, int threads,
                                                               const ProbeProgress& progress) {
  std::vector<std::pair<std::string, std::int64_t>> sets;
  std::int64_t largest_cache = 0;  // where the last cache level seen ends (its step, if found)
  for (const MemoryLevel l : kMemoryLevels) {
    const std::string name(display_name(l));
    const MeasuredLevel* level = read_plateau(m, name, threads);
    if (!level) {
      progress(fmt::format("{} on {}: no plateau in the read sweep, so no ceilings", name,
                           thread_text(threads)));
      continue;
    }
    std::int64_t bytes = std::llround(std::sqrt(static_cast<double>(level->first_bytes) *
                                                static_cast<double>(level->last_bytes)));
    if (l == MemoryLevel::main) {
      // Main memory at 4x the largest cache at least: at 128 MiB, twice the AMX VM's 64 MiB
      // L3, likwid-bench still read 21.7 GB/s against 15.2 at 512 MiB. Within the sweep's own
      // budget (512 MiB, a quarter of the memory).
      const std::int64_t budget =
          std::min<std::int64_t>(MemorySweepOptions{}.max_bytes,
                                 m.memory_bytes > 0 ? static_cast<std::int64_t>(m.memory_bytes / 4)
                                                    : MemorySweepOptions{}.max_bytes);
      // And never past the plateau's end: the sweep stops once main memory is flat (256 MiB
      // on the AMX VM, where 4x its two-thread L3 step is 287 MiB), and a ceiling is taken
      // only where the sweep saw the level.
      bytes = std::min(std::max(bytes, std::min(4 * largest_cache, budget)), level->last_bytes);
    } else {
      largest_cache = std::max(
          largest_cache, level->capacity_bytes > 0 ? level->capacity_bytes : level->last_bytes);
    }
    sets.emplace_back(name, bytes);
  }
  return sets;
}

namespace {

std::string size_text(std::int64_t bytes) {
  if (bytes >= (std::int64_t{1} << 20)) return fmt::format("{:.1f} MiB", bytes / 1048576.0);
  return fmt::format("{:.0f} KiB", bytes / 1024.0);
}

std::string level_text(const std::vector<MeasuredLevel>& levels, const std::string& name) {
  std::string spans, steps;
  for (const MeasuredLevel& l : levels) {
    if (l.name != name) continue;
    spans += fmt::format("{}{} {} to {} {:.1f} GB/s", spans.empty() ? "" : ", ", l.kernel,
                         size_text(l.first_bytes), size_text(l.last_bytes), l.bytes_per_s / 1e9);
    if (l.capacity_bytes > 0)
      steps +=
          fmt::format("{}{} {}", steps.empty() ? "" : ", ", l.kernel, size_text(l.capacity_bytes));
  }
  return spans + (steps.empty() ? "" : "; steps down at " + steps);
}

// The read and copy sweeps on each thread count, their passes interleaved (read, copy, read,
// copy, ...) so that a busy moment of the host falls on one pass of one kernel, and the levels
// in them. One set of arrays serves both kernels: what is resident stays within max_bytes.
void sweep_hierarchy(MachineModel& m, int threads, StreamIsa isa, const CacheSizes& caches,
                     bool verbose, PhaseTimer& phases, const ProbeProgress& progress) {
  MemorySweepOptions options;
  if (m.memory_bytes > 0)  // a quarter of the memory at most, on a small machine
    options.max_bytes =
        std::min<std::int64_t>(options.max_bytes, static_cast<std::int64_t>(m.memory_bytes / 4));
  StreamArrays arrays(threads, options.max_bytes / threads + kArraySlack);
  const StreamKernel kernels[] = {StreamKernel::read, StreamKernel::copy};
  std::vector<MemorySweep> sweeps;
  for (int pass = 1; pass <= options.passes; ++pass)
    for (std::size_t k = 0; k < 2; ++k) {
      auto last = std::chrono::steady_clock::now();
      const auto point = [&](std::int64_t bytes, double rate) {
        const auto now = std::chrono::steady_clock::now();
        if (verbose)
          progress(fmt::format("  {} pass {} {:>9}: {:7.1f} GB/s ({:.0f} ms)",
                               to_string(kernels[k]), pass, size_text(bytes), rate / 1e9,
                               std::chrono::duration<double, std::milli>(now - last).count()));
        last = now;
      };
      if (pass == 1)
        sweeps.push_back(sweep_memory(kernels[k], arrays, isa, options, point));
      else
        repeat_sweep(sweeps[k], kernels[k], isa, arrays, options, point);
    }
  const double seconds = phases.done(fmt::format("sweeps {}", thread_text(threads)));
  const std::vector<MeasuredLevel> levels = levels_of({&sweeps[0], &sweeps[1]}, caches);
  progress(fmt::format("sweeps on {}, {} passes of read and copy interleaved: {:.1f} s",
                       thread_text(threads), options.passes, seconds));
  for (const MemorySweep& sweep : sweeps)
    progress(fmt::format("  {}: {} points, {} to {}, noise {:.1f}% (the spread of the passes)",
                         sweep.kernel, sweep.working_set_bytes.size(),
                         size_text(sweep.working_set_bytes.front()),
                         size_text(sweep.working_set_bytes.back()), 100 * sweep.noise));
  for (const MeasuredLevel& l : levels) {
    if (l.kernel != levels.front().kernel) continue;  // one line per level
    progress(fmt::format("  {:<7} {}", l.name, level_text(levels, l.name)));
    if (l.reported_bytes > 0 || !l.why.empty())
      progress(fmt::format("          hwloc {}: {}{}", size_text(l.reported_bytes),
                           to_string(l.decision), l.why.empty() ? "" : " (" + l.why + ")"));
  }
  m.levels.insert(m.levels.end(), levels.begin(), levels.end());
  for (MemorySweep& sweep : sweeps) m.sweeps.push_back(std::move(sweep));
}

// Each ceiling from `first` on (of `threads`) that `check` covers, measured again by
// likwid-bench, taking turns with our kernel at the same width and working set on `arrays` (the
// ceiling's, or larger within its read plateau: likwid_check_working_set)
// (the best of each side over three rounds for `probe --check`, one round for the default
// probe's read and copy, each likwid-bench run costing a second of its clock calibration); a
// warning where the two differ by more than 5%. The
// first failure stops the checks and is kept as m.check_reason. Whether any ran.
bool check_ceilings(MachineModel& m, std::size_t first, int threads, ProbeCheck check,
                    StreamArrays& arrays, const ProbeProgress& progress) {
  constexpr double kSeconds = 0.1;
  const int rounds = check == ProbeCheck::all ? 3 : 1;
  bool ran = false;
  for (std::size_t i = first; i < m.memory.size() && check != ProbeCheck::none; ++i) {
    MemoryCeiling& c = m.memory[i];
    if (!m.check_reason.empty()) break;
    if (check == ProbeCheck::read_copy_one_thread &&
        (threads != 1 || (c.kernel != "read" && c.kernel != "copy")))
      continue;
    std::string why;
    const auto kernel = std::find_if(stream_kernels().begin(), stream_kernels().end(),
                                     [&](StreamKernel k) { return to_string(k) == c.kernel; });
    std::optional<StreamIsa> isa;
    for (StreamIsa width : stream_isas(cpu_features()))
      if (to_string(width) == c.isa) isa = width;
    const MeasuredLevel* plateau = read_plateau(m, c.level, threads);
    const std::int64_t bytes =
        plateau ? likwid_check_working_set(c.working_set_bytes, c.bytes_per_s, plateau->last_bytes)
                : c.working_set_bytes;
    std::function<double()> ours;
    if (kernel != stream_kernels().end() && isa)
      ours = [&, k = *kernel, width = *isa] {
        return measure_bandwidth(k, bytes, arrays, {width}, kSeconds, 1).best;
      };
    c.check = check_with_likwid_bench(c, bytes, kSeconds, rounds, why, ours);
    ran = true;
    if (!c.check) {
      m.check_reason = why;
      progress("no check against likwid-bench: " + why);
      break;
    }
    const bool off = !c.check->agrees();
    progress(fmt::format(
        "{}{} {} {} at {}: {:.1f} GB/s at {}, likwid-bench {} {:.1f} GB/s: {:.3f}x{}",
        off ? "warning: " : "check ", c.level, c.kernel, thread_text(threads), size_text(bytes),
        c.check->ratio * c.check->bytes_per_s / 1e9, c.isa, c.check->test,
        c.check->bytes_per_s / 1e9, c.check->ratio, off ? ", more than 5% apart" : ""));
  }
  return ran;
}

}  // namespace

void probe_memory(MachineModel& m, const std::vector<int>& thread_counts,
                  const std::vector<StreamIsa>& widths, const CacheSizes& caches,
                  const std::function<bool(const std::string&)>& wanted, const ProbeOptions& opt,
                  PhaseTimer& phases, const ProbeProgress& progress) {
  // The sweeps place the memory ceilings, so they run whenever one of those is wanted.
  bool any_memory = wanted("sweep");
  for (const MemoryLevel level : kMemoryLevels)
    for (StreamKernel k : stream_kernels())
      any_memory |= wanted(fmt::format("{}.{}", display_name(level), to_string(k)));
  // Each sweep and each thread count's ceilings get their own arrays, freed when done: the
  // pages of the largest working sets are faulted in again (a fraction of a second), but the
  // resident size stays within the 1 GiB budget (docs/roofline.md).
  for (int threads : thread_counts) {
    if (any_memory)
      sweep_hierarchy(m, threads, widths.back(), caches, opt.verbose, phases, progress);
    const auto sets = working_sets(m, threads, progress);
    std::int64_t largest = 0;
    for (const auto& set : sets) largest = std::max(largest, set.second);
    StreamArrays arrays(threads, largest / threads + kArraySlack);
    const std::size_t ceilings_before = m.memory.size();
    for (const auto& [level, bytes] : sets)
      for (StreamKernel k : stream_kernels()) {
        if (!wanted(fmt::format("{}.{}", level, to_string(k)))) continue;
        const BandwidthMeasurement b =
            measure_bandwidth(k, bytes, arrays, widths, opt.seconds_per_measurement, opt.trials);
        MemoryCeiling c;
        c.level = level;
        c.kernel = to_string(k);
        c.isa = to_string(b.best_isa);
        c.threads = threads;
        c.working_set_bytes = bytes;
        c.bytes_per_s = b.best;
        std::string each;
        for (const auto& [isa, bw] : b.per_isa) {
          c.widths.emplace_back(to_string(isa), bw);
          each += fmt::format(" {} {:.1f}", to_string(isa), bw / 1e9);
        }
        progress(fmt::format("{:<4} {:<5} {} thread{} {:>9} KiB: {:8.1f} GB/s ({})", level,
                             c.kernel, c.threads, c.threads > 1 ? "s" : " ", bytes / 1024,
                             c.bytes_per_s / 1e9, each.substr(1)));
        m.memory.push_back(c);
      }
    if (m.memory.size() > ceilings_before)
      phases.done(fmt::format("ceilings {}", thread_text(threads)));
    if (check_ceilings(m, ceilings_before, threads, opt.check, arrays, progress))
      phases.done(fmt::format("check {}", thread_text(threads)));
  }
  if (opt.check == ProbeCheck::read_copy_one_thread && m.check_reason.empty())
    m.check_reason =
        "the probe checks the 1-thread read and copy; probe --check checks every "
        "ceiling";
}

}  // namespace ridgeline
