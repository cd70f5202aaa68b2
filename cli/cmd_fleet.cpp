// ridgeline fleet RUN.json...: which node (or rank) of a fleet is out of family
// (analysis/fleet.hpp), in the terminal, HTML, Markdown, JSON and JUnit, and exit 1 where one
// is (docs/cluster.md, "ridgeline fleet").
#include <fmt/format.h>

#include <filesystem>
#include <regex>

#include "commands.hpp"
#include "comparison_options.hpp"
#include "ridgeline/analysis/fleet.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/fleet.hpp"

namespace ridgeline::cli {

namespace {

struct FleetOptions {
  std::vector<std::string> files;
  std::string by = "node";
  std::string margin = "2%", ceiling_margin = "10%";
  double alpha = 0.05;
  std::string html, markdown, json, junit;
  bool all = false;
};

FleetSettings fleet_settings(const FleetOptions& opt) {
  FleetSettings s;
  s.margin = parse_fraction(opt.margin, "--margin");
  s.ceiling_margin = parse_fraction(opt.ceiling_margin, "--ceiling-margin");
  if (!(opt.alpha > 0 && opt.alpha < 1))
    throw InputError(fmt::format("--alpha: {} is not between 0 and 1", opt.alpha));
  s.alpha = opt.alpha;
  s.by_rank = opt.by == "rank";
  return s;
}

// A file given twice, or a rank's part beside the merged Run that holds it already
// (run.rank1.json with run.json), would count the same repetitions twice.
void check_each_result_once(const std::vector<std::string>& files) {
  const auto same = [](const std::string& a, const std::string& b) {
    std::error_code ec;
    return std::filesystem::equivalent(a, b, ec);
  };
  static const std::regex part(R"((.*)\.rank(\d+)\.jsonl?)");
  for (std::size_t i = 0; i < files.size(); ++i)
    for (std::size_t j = 0; j < files.size(); ++j) {
      if (j < i && same(files[i], files[j]))
        throw InputError(fmt::format("{} is given twice: its repetitions would count twice",
                                     escape_visible(files[i])));
      std::smatch m;
      if (i != j && std::regex_match(files[i], m, part) && same(m[1].str() + ".json", files[j]))
        throw InputError(fmt::format(
            "{} is rank {}'s part of {}, which holds its results already: give one or the other",
            escape_visible(files[i]), m[2].str(), escape_visible(files[j])));
    }
}

int run_fleet(const FleetOptions& opt) {
  const FleetSettings settings = fleet_settings(opt);
  using Printer = std::string (*)(const FleetView&);
  const std::tuple<const char*, const std::string*, Printer> outputs[] = {
      {"--html", &opt.html, &fleet_html},
      {"--markdown", &opt.markdown, &fleet_markdown},
      {"--json", &opt.json, &fleet_json},
      {"--junit", &opt.junit, &fleet_junit}};
  std::vector<NamedFile> named_outputs, inputs;
  for (const auto& [flag, path, print] : outputs)
    if (!path->empty()) {
      check_output_file(*path, flag);  // every output checked before any input is read
      named_outputs.push_back({flag, *path});
    }
  for (const auto& f : opt.files) inputs.push_back({"a run", f});
  check_distinct_files(inputs, named_outputs);
  check_each_result_once(opt.files);

  std::vector<std::string> notes;
  const std::vector<FleetMember> members =
      read_fleet_members(std::vector<std::filesystem::path>(opt.files.begin(), opt.files.end()),
                         settings.by_rank, notes);
  if (members.size() < 2)
    throw InputError(fmt::format(
        "fleet needs at least two {}s to compare, found {}{}{}", opt.by, members.size(),
        members.empty() ? "" : " (" + visible_line(members[0].name, 100) + ")",
        settings.by_rank ? ": give a run of several ranks"
                         : ": give runs of several nodes, or --by rank to compare the ranks of "
                           "one node"));
  Fleet fleet = analyse_fleet(members, settings);
  fleet.notes.insert(fleet.notes.begin(), notes.begin(), notes.end());
  const FleetView view{fleet, opt.files, opt.all, &members};
  fmt::print("{}", fleet_text(view));
  for (const auto& [flag, path, print] : outputs) {
    if (path->empty()) continue;
    write_file_atomically(*path, print(view));
    if (!resolve_output_file(*path).stream)
      fmt::print("{}\n", escape_visible(std::filesystem::absolute(*path).string()));
  }
  if (fleet.tested == 0) {  // nothing compared is not a pass
    fmt::print(stderr,
               "ridgeline fleet: no case was run by two {}s or more: nothing was compared, so "
               "nothing passed\n",
               opt.by);
    return 1;
  }
  if (fleet.underpowered && fleet.out_of_family == 0) {  // nor is a test that could not fail
    fmt::print(stderr,
               "ridgeline fleet: too few repetitions for any {} to be found out of family by its "
               "timings (the note above): nothing passed\n",
               opt.by);
    return 1;
  }
  return fleet.out_of_family > 0 ? 1 : 0;
}

}  // namespace

Command add_fleet_command(CLI::App& app) {
  auto opt = std::make_shared<FleetOptions>();
  CLI::App* sub = app.add_subcommand(
      "fleet",
      "Find the nodes of a fleet that are out of family: each node's cases against every other "
      "node's, its ceilings against the fleet's median (exit 1 when one is out)");
  sub->add_option("runs", opt->files,
                  "A merged Run from `mpirun ridgeline run`, or the Runs of separate nodes (or "
                  "their journals); a node met in several files pools them")
      ->required();
  sub->add_option("--by", opt->by,
                  "node (each host, the default) or rank (each process: the GPUs or sockets of "
                  "one node)")
      ->check(CLI::IsMember({"node", "rank"}));
  sub->add_option("--margin", opt->margin,
                  "A case within this of the rest is the same; beyond it, and significant, "
                  "slower or faster (default 2%)");
  sub->add_option("--alpha", opt->alpha,
                  "Family-wise significance over every node × case, Holm-corrected (default "
                  "0.05)");
  sub->add_option("--ceiling-margin", opt->ceiling_margin,
                  "A probed ceiling this far from the fleet's median is out of family (default "
                  "10%)");
  sub->add_option("--html", opt->html, "Also write the page: a node × case heatmap, the tables");
  sub->add_option("--markdown", opt->markdown, "Also write it as Markdown");
  sub->add_option("--json", opt->json, "Also write it as JSON");
  sub->add_option("--junit", opt->junit,
                  "Also write JUnit XML: one testcase per node, a failure where it is out of "
                  "family");
  sub->add_flag("--all", opt->all, "List the nodes in family too");
  return {sub, [opt] { return run_fleet(*opt); }};
}

}  // namespace ridgeline::cli
