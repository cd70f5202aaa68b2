#include "ridgeline/cluster/ranked_run.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <numeric>

#include "ridgeline/cluster/collective_watch.hpp"
#include "ridgeline/cluster/host_share.hpp"
#include "ridgeline/cluster/rank_runs.hpp"
#include "ridgeline/cluster/rank_world.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/runner/probe.hpp"

namespace ridgeline::cluster {

namespace {

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

// The rank's share of its host. A launcher that bound the rank already (mpirun's
// --bind-to core, srun's --cpu-bind) is left as it is; an unbound rank, which may run on
// every CPU of the host, is bound to its block of them.
std::vector<int> bind_to_share(const RankPlace& place, const RankedRun& job) {
  const std::vector<int> allowed = allowed_cpus();
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (allowed.empty() || static_cast<long>(allowed.size()) < online) return allowed;
  const std::vector<int> share = host_share(allowed, place.local_rank, place.local_ranks);
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : share) CPU_SET(c, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) {
    job.say(fmt::format("ridgeline run: rank {}: could not bind to CPUs {}: runs unbound",
                        place.rank, fmt::join(share, ",")));
    return allowed;
  }
  return share;
}

// One GPU per rank where the host has GPUs (its share of them, as of its CPUs), given through
// CUDA_VISIBLE_DEVICES before anything opens CUDA; where the launcher or the user set it, it
// is kept and nothing is recorded.
std::vector<int> give_gpus(const RankPlace& place) {
  if (std::getenv("CUDA_VISIBLE_DEVICES")) return {};
  const int count = nvidia_gpus();
  if (count == 0) return {};
  std::vector<int> all(static_cast<std::size_t>(count));
  std::iota(all.begin(), all.end(), 0);
  const std::vector<int> share = host_share(all, place.local_rank, place.local_ranks);
  ::setenv("CUDA_VISIBLE_DEVICES", fmt::format("{}", fmt::join(share, ",")).c_str(), 1);
  return share;
}

// Up to half a second for the other ranks, stopped too, to finish writing their Runs (a
// launcher kills what is left soon after).
void wait_for_rank_runs(const std::string& merged, int ranks) {
  for (int waited_ms = 0; waited_ms < 500; waited_ms += 10) {
    bool all = true;
    std::error_code ec;
    for (int r = 1; r < ranks && all; ++r)
      all = std::filesystem::exists(rank_output(merged, r), ec);
    if (all) return;
    ::usleep(10000);
  }
}

// Every rank's part from its files, where the gather cannot happen; `own` is this rank's
// where it has one in memory (rank 0 after its plan), else rank 0's is read too.
std::vector<RankRun> parts_from_files(const std::vector<RankRun>& ranks, const std::string& merged,
                                      const std::optional<RankRun>& own) {
  std::vector<RankRun> parts;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    if (r == 0 && own) {
      parts.push_back(*own);
      continue;
    }
    parts.push_back(rank_run_from_files(ranks[r].place, ranks[r].cpus, merged));
    parts.back().gpus = ranks[r].gpus;
  }
  return parts;
}

// Writes the merged Run, names each rank that failed and says what was written; the number of
// ranks without results.
std::size_t write_merged(const RankedRun& job, const Run& run, const std::vector<RankRun>& parts,
                         const RankPlace& place, bool from_files) {
  const std::string& merged = job.output;
  write_run_file(merged, run);
  std::size_t missing = 0;
  for (const RankRun& r : parts)
    if (!r.failure.empty()) {
      if (!r.run) ++missing;
      job.say(fmt::format("ridgeline run: rank {} on {}: {}", r.place.rank,
                          escape_visible(r.place.host), escape_visible(r.failure)));
    }
  job.say(fmt::format("wrote {}: {} results from {} ranks on {} host{}{}{}", escape_visible(merged),
                      run.benchmarks.size(), place.ranks, place.nodes, place.nodes == 1 ? "" : "s",
                      missing ? fmt::format(" ({} without results)", missing) : "",
                      from_files ? ", read from the ranks' files (the job was stopped)" : ""));
  return missing;
}

// How long rank 0 waits at the end for a rank that says nothing. A rank tells it after
// each case, and no case runs past the case time limit in a child that is killed there, nor
// inside a collective (CollectiveWatch): twice the limit and 10 s without a word is a hang.
// Before its first word a rank may still be probing its host: 10 minutes more. Without
// isolation nothing bounds a case, so rank 0 waits as long as it takes.
RankWorld::Silence silence_allowed(const RunRequest& request) {
  if (!runs_isolated(request)) return {};
  const double after = 2 * request.case_timeout_s + 10;
  return {after, after + 600};
}

// A rank rank 0 gave up on: what its files hold, and why the job ended.
RankRun silent_rank(const RankRun& known, const std::string& merged, RankWorld::Silence silence) {
  RankRun part = rank_run_from_files(known.place, known.cpus, merged);
  part.gpus = known.gpus;
  const std::string kept =
      part.run ? fmt::format("the {} results its journal kept", part.run->benchmarks.size())
               : part.failure;
  part.failure = fmt::format(
      "silent: no word from it (one is due after every case) for {:g} s while rank 0 waited "
      "at the end ({:g} s before its first): hung outside a collective, so rank 0 ended the "
      "job; {}",
      silence.after_word_s, silence.before_first_word_s, kept);
  return part;
}

// Ends this rank where it cannot leave a collective (it does not return), `why` being its
// outcome: rank 0 first writes the merged Run from every rank's files, its own included
// (the plan's Run is still being made), with this process's context. Exiting without
// MPI_Finalize makes the launcher end the job, stopping the other ranks, which a watch ends
// the same way where a call holds them.
[[noreturn]] void end_rank_in_collective(const RankedRun& job, const std::vector<RankRun>& ranks,
                                         const RankPlace& place, const std::string& why,
                                         int status) {
  if (place.rank == 0) {
    std::vector<RankRun> parts = parts_from_files(ranks, job.output, std::nullopt);
    if (RankRun& own = parts.front(); own.run) {
      own.failure =
          fmt::format("{}: the {} results its journal kept", why, own.run->benchmarks.size());
      own.run->context = current_context();
      std::string why_none;  // the cached model, as the plan had it; nothing is probed here
      own.run->context.machine = cached_machine(why_none);
    }
    write_merged(job, merge_rank_runs(parts), parts, place, true);
  }
  std::fflush(nullptr);
  std::_Exit(status);
}

}  // namespace

int run_ranked(const RankedRun& job) {
  if (const std::string why = mpi_off_reason(); !why.empty())
    throw InputError(
        fmt::format("started by {}, but {}: each process would run alone and write the same files",
                    job.launcher, why));
  if (job.output == "-" || job.output.rfind("/dev/", 0) == 0)
    throw InputError(fmt::format(
        "-o {}: under {} each rank writes its own Run beside the one named; name a file",
        escape_visible(job.output), job.launcher));
  const std::string& merged = job.output;
  RankWorld world;
  const RankPlace& place = world.place();
  const std::vector<int> cpus = bind_to_share(place, job);
  const std::vector<int> gpus = give_gpus(place);
  // The suites' thread counts follow the CPUs a rank has (one, and all of them): said once,
  // so that cases a lone run would have (threads=2 on a 2-CPU host) are not missed unsaid.
  if (place.rank == 0)
    job.say(fmt::format(
        "ridgeline run: {} ranks on {} host{}; each runs on its share of its host (rank 0: "
        "CPU{} {}), the suite's thread counts up to that share",
        place.ranks, place.nodes, place.nodes == 1 ? "" : "s", cpus.size() == 1 ? "" : "s",
        fmt::join(cpus, ",")));
  // A plan shown, not run: rank 0 shows it once, as this rank's share of the host makes it,
  // and no rank writes or moves a file.
  if (job.show_only) {
    if (place.rank != 0) return 0;
    Run shown;
    return job.run_plan(
        {merged, std::nullopt, &world, nullptr, [] { return std::optional<MachineModel>(); }},
        shown);
  }

  // One probe per host: its first rank probes (or reads the cache) while the others wait,
  // then they read what it cached.
  auto machine_for_run = [&]() -> std::optional<MachineModel> {
    if (place.local_rank != 0) world.host_barrier();
    std::string why_none;
    std::optional<MachineModel> machine =
        job.choose_machine(!job.no_probe && place.local_rank == 0, why_none);
    if (place.local_rank == 0) world.host_barrier();
    world.tell_progress();
    if (!machine && place.rank == 0) job.say(fmt::format("no machine model: {}", why_none));
    return machine;
  };
  // Every rank's place and CPUs at every rank, while all are alive: rank 0 can then name
  // each one from its files when the gather at the end cannot happen.
  std::vector<RankRun> ranks;
  {
    const std::vector<std::string> all =
        world.all_gather(encode_rank_run({place, cpus, std::nullopt, "", gpus}));
    for (std::size_t r = 0; r < all.size(); ++r)
      ranks.push_back(decode_rank_run(all[r], static_cast<int>(r)));
  }
  // A collective case this rank cannot leave ends it: past the case time limit (the case
  // journaled as timed out), stopped while held inside, or left part-way by a throw here.
  const std::string journal = rank_journal(merged, place.rank);
  const double limit_s = job.request->case_timeout_s;
  CollectiveWatch watch(limit_s, *job.stopped, [&](const CaseSpec& held_in, bool timed_out) {
    // Stopped: the launcher kills every rank a second after its SIGTERM; only rank 0 has
    // something to do first (the other ranks' journals hold what they finished).
    if (!timed_out && place.rank != 0) return;
    if (timed_out) {
      append_line_durably(
          journal,
          to_json(untimed_result(held_in, Disposition::timed_out,
                                 fmt::format("still inside the collective after {} s (the case "
                                             "time limit): another rank stopped answering (it "
                                             "hung, died or left a call part-way); this rank "
                                             "ended the job",
                                             limit_s)))
              .dump());
      job.say(fmt::format(
          "ridgeline run: rank {} on {}: {} timed out inside the collective after {} s: "
          "ending the job",
          place.rank, escape_visible(place.host), escape_visible(held_in.name()), limit_s));
    }
    end_rank_in_collective(
        job, ranks, place,
        timed_out ? fmt::format("ended the job: {} timed out inside the collective", held_in.name())
                  : fmt::format("stopped inside the collective of {}", held_in.name()),
        timed_out ? 1 : 130);
  });

  RankRun part{place, cpus, Run{}, "", gpus};
  int rc = 0;
  try {
    rc = job.run_plan({rank_output(merged, place.rank), RankOrigin{place.rank, place.host}, &world,
                       &watch, machine_for_run},
                      *part.run);
  } catch (const InputError&) {
    throw;  // every rank was given the same command line: all of them stop here
  } catch (const CollectiveLeft& left) {
    job.say(fmt::format("ridgeline run: rank {} on {}: {}: ending the job", place.rank,
                        escape_visible(place.host),
                        escape_visible(left.result.ridgeline->validation.message)));
    end_rank_in_collective(
        job, ranks, place,
        fmt::format("ended the job: {} was left part-way here", left.result.run_name), 1);
  } catch (const std::exception& e) {
    part.run.reset();
    part.failure = fmt::format("failed: {}", e.what());
    rc = 1;
  }
  std::optional<std::vector<std::optional<std::string>>> gathered;
  const RankWorld::Silence silence = silence_allowed(*job.request);
  const auto stopped = [&] { return job.stopped->load(); };
  if (!stopped()) gathered = world.gather_at_root(encode_rank_run(part), stopped, silence);
  if (place.rank != 0) return rc;
  std::vector<RankRun> decoded;
  std::size_t silent = 0;
  if (gathered) {
    for (std::size_t r = 0; r < gathered->size(); ++r)
      if (const auto& text = (*gathered)[r])
        decoded.push_back(decode_rank_run(*text, static_cast<int>(r)));
      else {
        decoded.push_back(silent_rank(ranks[r], merged, silence));
        ++silent;
      }
  } else {
    // Stopped (a rank died and the launcher is ending the job, or Ctrl-C): MPI is left alone
    // and each rank's part is read from its files. Merged at once from what they hold (the
    // launcher kills what is left a second after its SIGTERM, sooner than a loaded machine
    // may let the other ranks finish), then again once they have written their Runs.
    write_run_file(merged, merge_rank_runs(parts_from_files(ranks, merged, part)));
    wait_for_rank_runs(merged, place.ranks);
    decoded = parts_from_files(ranks, merged, part);
  }
  Run run = merge_rank_runs(decoded);
  const std::size_t missing = write_merged(job, run, decoded, place, !gathered);
  if (job.at_root) job.at_root(std::move(run));
  if (silent) {
    // MPI_Finalize would wait for the silent ranks: leaving without it ends the job.
    job.say(fmt::format("ridgeline run: {} rank{} silent: ending the job", silent,
                        silent == 1 ? "" : "s"));
    std::fflush(nullptr);
    std::_Exit(1);
  }
  if (!gathered) return rc == 0 ? 130 : rc;
  return missing ? std::max(rc, 1) : rc;
}

}  // namespace ridgeline::cluster
