// Which model of this machine a run embeds: the cache's, or a probe made now.
#include <fmt/format.h>

#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/runner/probe.hpp"

namespace ridgeline {

MachineChoice this_machine(bool probe_if_missing, bool force) {
  std::string why;
  if (!force)
    if (auto m = cached_machine(why)) return {m, "this machine's cached probe (" + m->date + ")"};
  // --no-probe means no probe: the run goes on without a model (its rows keep their
  // measurements; a report places them with --machine later), saying why.
  if (!probe_if_missing && !force) {
    std::error_code ec;
    if (!std::filesystem::exists(machine_cache_path(), ec))
      return {std::nullopt, why + " and --no-probe given; run `ridgeline probe`"};
    return {std::nullopt, "the cached one is not used (" + visible_line(why, 400) +
                              ") and --no-probe given; run `ridgeline probe` to measure again"};
  }
  if (force)
    fmt::print(stderr, "probing this machine's ceilings (cached afterwards; about 15 s)\n");
  else
    fmt::print(stderr, "probing this machine's ceilings: {}; cached afterwards (about 15 s)\n",
               visible_line(why, 400));
  CacheOutcome outcome{};
  MachineModel m = cached_or_probed_machine(
      true, {}, [](const std::string& line) { fmt::print(stderr, "  {}\n", line); }, outcome);
  return {m, outcome == CacheOutcome::from_cache ? "this machine's cached probe (" + m.date + ")"
                                                 : "a probe made for this run"};
}
}  // namespace ridgeline
