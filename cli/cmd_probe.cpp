// ridgeline probe: measure (or load the cached) ceilings of this machine.
#include <fmt/format.h>

#include "commands.hpp"
#include "number_checks.hpp"
#include "ranked_probe.hpp"
#include "ridgeline/cluster/rank_world.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/runner/probe.hpp"
#include "terminal.hpp"

namespace ridgeline::cli {

namespace {

struct ProbeCommandOptions {
  std::string output;
  bool force = false;
  bool check = false;
  bool no_check = false;
  bool network = false;
  std::int64_t network_max_bytes = std::int64_t{64} << 20;
  ProbeOptions probe;
};

// probe --check: each memory ceiling beside likwid-bench's run of the same kernel and width;
// 1 where a 1-thread ceiling is more than 5% from it (or none could be checked).
int print_check(const MachineModel& m) {
  fmt::print(
      "\nchecked against likwid-bench (same kernel, instruction width and threads, at the "
      "ceiling's working set, or larger within its level where one sweep of it would take "
      "under 100 ns; ratio = ours / likwid-bench's):\n");
  int checked = 0, off = 0;
  for (const auto& c : m.memory) {
    if (!c.check) continue;
    ++checked;
    const bool outside = !c.check->agrees();
    off += outside && c.threads == 1 ? 1 : 0;
    fmt::print(
        "  {:<4} {:<5} {} thr {:>9} KiB  {:<6} {:8.1f} GB/s   {:<14} {:8.1f} GB/s   "
        "{:.3f}{}\n",
        c.level, c.kernel, c.threads,
        (c.check->working_set_bytes > 0 ? c.check->working_set_bytes : c.working_set_bytes) / 1024,
        c.isa, c.check->ratio * c.check->bytes_per_s / 1e9, c.check->test,
        c.check->bytes_per_s / 1e9, c.check->ratio, outside ? "  outside ±5%" : "");
  }
  if (!m.check_reason.empty()) fmt::print("  not checked: {}\n", m.check_reason);
  if (checked == 0) {
    fmt::print(stderr, "probe --check: no ceiling could be checked\n");
    return 1;
  }
  if (off > 0) {
    fmt::print("{} 1-thread ceiling{} more than 5% from likwid-bench\n", off, off > 1 ? "s" : "");
    return 1;
  }
  fmt::print("every 1-thread ceiling checked is within ±5% of likwid-bench\n");
  return 0;
}

int run_probe(const ProbeCommandOptions& opt) {
  if (!opt.output.empty()) check_output_file(opt.output);  // before measuring anything
  CacheOutcome outcome{};
  ProbeOptions probe = opt.probe;
  probe.check = opt.check      ? ProbeCheck::all
                : opt.no_check ? ProbeCheck::none
                               : ProbeCheck::read_copy_one_thread;
  MachineModel m = cached_or_probed_machine(
      opt.force || opt.check, probe,
      [](const std::string& line) { fmt::print(stderr, "  {}\n", line); }, outcome);
  if (!opt.probe.only.empty() && m.compute.empty() && m.memory.empty() && m.overhead.empty() &&
      m.sweeps.empty() && m.gpus.empty())
    throw InputError(fmt::format(
        "--only '{}': matches nothing the probe measures here (peak names as `ridgeline probe` "
        "prints them, sweep, L1.read ... DRAM.triad, call, gpu); nothing written",
        opt.probe.only));
  if (outcome == CacheOutcome::from_cache)
    fmt::print(stderr, "machine model from the cache ({}, probed {}); --force re-measures\n",
               machine_cache_path().string(), m.date);
  else if (!opt.probe.only.empty())
    fmt::print(stderr, "probed in {:.1f} s (partial: --only {}; not cached)\n", m.probe_seconds,
               visible_line(opt.probe.only, 200));
  else if (outcome == CacheOutcome::cached)
    fmt::print(stderr, "probed in {:.1f} s; cached as {}\n", m.probe_seconds,
               machine_cache_path().string());
  else
    fmt::print(stderr, "probed in {:.1f} s; not cached\n", m.probe_seconds);
  if (opt.probe.verbose && outcome != CacheOutcome::from_cache) {
    std::string each;
    for (const ProbePhase& p : m.phases) each += fmt::format(", {} {:.1f} s", p.name, p.seconds);
    if (!each.empty()) fmt::print(stderr, "phases: {}\n", each.substr(2));
  }
  if (!opt.output.empty()) {
    write_machine_file(opt.output, m);
    fmt::print(stderr, "wrote {}\n", escape_visible(opt.output));
  }
  fmt::print("{} ({} cores, {:.0f} MHz measured)\n", m.cpu_model, m.cores,
             m.measured_clock_hz / 1e6);
  if (!m.emulated.empty()) fmt::print("  {}\n", m.emulated);
  for (const auto& c : m.compute)
    fmt::print(
        "  {:<20} {} thr  {:9.1f} G{}{}\n", c.name, c.threads, c.per_second / 1e9, c.unit,
        c.theoretical_per_second > 0
            ? fmt::format("  {:5.1f}% of {:.1f}", 100 * c.per_second / c.theoretical_per_second,
                          c.theoretical_per_second / 1e9)
            : "");
  for (const auto& c : m.memory)
    fmt::print("  {:<4} {:<5} {:<10} {} thr  {:9.1f} GB/s   working set {} KiB\n", c.level,
               c.kernel, c.isa, c.threads, c.bytes_per_s / 1e9, c.working_set_bytes / 1024);
  for (const auto& o : m.overhead)
    fmt::print("  overhead.{:<15}      {:9.2f} ns\n", o.name, o.seconds * 1e9);
  return opt.check ? print_check(m) : 0;
}

}  // namespace

Command add_probe_command(CLI::App& app) {
  auto opt = std::make_shared<ProbeCommandOptions>();
  CLI::App* sub =
      app.add_subcommand("probe", "Measure this machine's ceilings (cached per machine)");
  sub->add_option("-o,--output", opt->output, "Also write the machine model here");
  auto* force = sub->add_flag("--force", opt->force, "Re-measure even if a cached model exists");
  auto* seconds = sub->add_option("--seconds", opt->probe.seconds_per_measurement,
                                  "Seconds per trial of each ceiling")
                      ->capture_default_str()
                      ->check(finite_between(0, 60, "seconds", true));
  auto* trials =
      sub->add_option("--trials", opt->probe.trials, "Trials per ceiling (the best is kept)")
          ->capture_default_str()
          ->check(finite_between(1, 1000, "trials"));
  sub->add_flag(
      "-v,--verbose", opt->probe.verbose,
      "Also print every point of the memory sweeps and each phase of the probe, with their times");
  auto* only =
      sub->add_option("--only", opt->probe.only,
                      "Measure only the ceilings whose names match this regex (f64.avx512.fma, "
                      "DRAM.copy, call); not cached");
  auto* check =
      sub->add_flag("--check", opt->check,
                    "Re-measure, check every memory ceiling against likwid-bench's run of the same "
                    "kernel and width (about a second each), print the comparison; exit 1 where a "
                    "1-thread ceiling is more than 5% from it");
  auto* no_check =
      sub->add_flag("--no-check", opt->no_check,
                    "Do not check the 1-thread read and copy ceilings against likwid-bench (saves "
                    "about 9 s)")
          ->excludes("--check");
  // The network probe measures none of the host's ceilings: their options contradict it.
  auto* network =
      sub->add_flag("--network", opt->network,
                    "Under mpirun or srun: measure the network between the ranks instead (latency, "
                    "bandwidth, bibw, allreduce, allgather, reduce_scatter, alltoall; 1 B to "
                    "--network-max-bytes), on this host's cached model; not cached")
          ->excludes(force)
          ->excludes(seconds)
          ->excludes(trials)
          ->excludes(only)
          ->excludes(check)
          ->excludes(no_check);
  sub->add_option("--network-max-bytes", opt->network_max_bytes,
                  "Largest message of --network (bytes)")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30))
      ->needs(network);
  return {sub, [opt] {
            const std::string launcher = cluster::mpi_launcher();
            if (opt->network)
              return run_network_probe(opt->output, opt->network_max_bytes, launcher);
            if (!launcher.empty()) {
              if (opt->check || !opt->probe.only.empty())
                throw InputError(fmt::format(
                    "probe --check and --only run on one machine, not under {}", launcher));
              ProbeOptions probe = opt->probe;
              probe.check = opt->no_check ? ProbeCheck::none : ProbeCheck::read_copy_one_thread;
              return run_ranked_probe(opt->output, opt->force, probe, launcher);
            }
            return run_probe(*opt);
          }};
}

}  // namespace ridgeline::cli
