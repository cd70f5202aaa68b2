// ridgeline compare BASE NEW: every case's verdict (analysis/run_comparison.hpp) in the
// terminal and as JSON, and an exit code a CI pipeline gates on (docs/compare.md).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "ridgeline/analysis/run_comparison.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/run_json.hpp"

namespace ridgeline::cli {

namespace {

struct CompareOptions {
  std::string base, head;
  std::string threshold = "5%";
  double alpha = 0.05;
  std::string fail_on = "regression";
  std::string json;
  bool all = false;
};

// "5%" or "0.05": a fraction in (0, 1).
double parse_threshold(const std::string& text) {
  const bool pct = !text.empty() && text.back() == '%';
  const std::string number = pct ? text.substr(0, text.size() - 1) : text;
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(number, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (pct) v /= 100;
  if (used == 0 || used != number.size() || !(v > 0 && v < 1))
    throw InputError(fmt::format(
        "--threshold: '{}' is not a fraction between 0 and 1 (write 5% or 0.05)", text));
  return v;
}

std::string upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return std::toupper(c); });
  return out;
}

std::string reps(const CaseComparison& c) {
  return fmt::format("{}/{}", c.base.size(), c.head.size());
}

void print_terminal(const RunComparison& cmp, const CompareOptions& opt, FailOn on) {
  fmt::print(
      "compare {} -> {}: on {}, threshold ±{:g}%, alpha {:g} (Holm over {} case{})\n", opt.base,
      opt.head, cmp.basis == "time" ? "time per call" : "efficiency (% of the roof)",
      cmp.settings.threshold * 100, cmp.settings.alpha, cmp.tested, cmp.tested == 1 ? "" : "s");
  for (const auto& n : cmp.notes) fmt::print("note: {}\n", n);
  // Largest effect first; cases without a ratio (broken, untested) at the top.
  std::vector<const CaseComparison*> rows;
  for (const auto& c : cmp.cases) rows.push_back(&c);
  std::stable_sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) {
    const double ea = a->tested ? std::abs(std::log(a->ratio)) : INFINITY;
    const double eb = b->tested ? std::abs(std::log(b->ratio)) : INFINITY;
    return ea > eb;
  });
  std::size_t folded = 0;
  fmt::print("{:<12} {:>6}  {:<13} {:>8} {:>6}  {}\n", "verdict", "ratio", "interval", "p(Holm)",
             "reps", "case");
  for (const auto* c : rows) {
    if (c->verdict == Verdict::same && !opt.all) {
      ++folded;
      continue;
    }
    const std::string ratio = c->tested ? fmt::format("{:.3f}", c->ratio) : "-";
    const std::string interval = c->tested ? fmt::format("{:.3f}-{:.3f}", c->low, c->high) : "-";
    const std::string p = c->tested ? fmt::format("{:.2g}", c->p_holm) : "-";
    fmt::print("{:<12} {:>6}  {:<13} {:>8} {:>6}  {}\n", upper(to_string(c->verdict)), ratio,
               interval, p, reps(*c), c->name);
    if (c->verdict != Verdict::same) fmt::print("{:13}{}\n", "", c->reason);
  }
  if (folded)
    fmt::print("({} case{} the same within ±{:g}%, folded; --all lists them)\n", folded,
               folded == 1 ? "" : "s", cmp.settings.threshold * 100);
  if (cmp.tested)
    fmt::print("geometric mean of the ratios: {:.3f} over {} case{}\n", cmp.geomean_ratio,
               cmp.tested, cmp.tested == 1 ? "" : "s");
  for (const auto& n : cmp.added) fmt::print("added (only in the new run): {}\n", n);
  for (const auto& n : cmp.removed) fmt::print("removed (only in the base run): {}\n", n);
  std::map<Verdict, int> count;
  for (const auto& c : cmp.cases) count[c.verdict] += 1;
  std::string tally;
  for (const auto& [v, n] : count)
    tally += fmt::format("{}{} {}", tally.empty() ? "" : ", ", n, to_string(v));
  fmt::print("gate (--fail-on {}): {} ({})\n", opt.fail_on,
             gate_fails(cmp, on) ? "FAILED" : "passed", tally.empty() ? "no cases" : tally);
}

nlohmann::json to_json(const RunComparison& cmp, const CompareOptions& opt, FailOn on) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : cmp.cases) {
    nlohmann::json j = {{"name", c.name},
                        {"key",
                         {{"op", c.key.op},
                          {"backend", c.key.backend},
                          {"device", c.key.device},
                          {"dtype", c.key.dtype},
                          {"params", c.key.params},
                          {"pattern", c.key.pattern},
                          {"fp_env", c.key.fp_env},
                          {"threads", c.key.threads}}},
                        {"verdict", to_string(c.verdict)},
                        {"reason", c.reason},
                        {"fails", fails(c, on)},
                        {"base_disposition", c.base_disposition},
                        {"new_disposition", c.head_disposition},
                        {"base_samples", c.base},
                        {"new_samples", c.head}};
    if (!c.key.foreign_name.empty()) j["key"] = {{"foreign_name", c.key.foreign_name}};
    if (c.tested)
      j.update({{"ratio", c.ratio},
                {"interval", {c.low, c.high}},
                {"confidence", c.confidence},
                {"p", c.p},
                {"p_holm", c.p_holm},
                {"smallest_p", c.smallest_p}});
    cases.push_back(std::move(j));
  }
  return {{"base", opt.base},
          {"new", opt.head},
          {"basis", cmp.basis},
          {"threshold", cmp.settings.threshold},
          {"alpha", cmp.settings.alpha},
          {"fail_on", opt.fail_on},
          {"gate_failed", gate_fails(cmp, on)},
          {"tested", cmp.tested},
          {"geomean_ratio", cmp.tested ? nlohmann::json(cmp.geomean_ratio) : nlohmann::json()},
          {"notes", cmp.notes},
          {"added", cmp.added},
          {"removed", cmp.removed},
          {"cases", cases}};
}

int run_compare(const CompareOptions& opt) {
  ComparisonSettings settings;
  settings.threshold = parse_threshold(opt.threshold);
  if (!(opt.alpha > 0 && opt.alpha < 1))
    throw InputError(fmt::format("--alpha: {} is not between 0 and 1", opt.alpha));
  settings.alpha = opt.alpha;
  const FailOn on = *parse_fail_on(opt.fail_on);  // CLI11 checked the choice
  if (!opt.json.empty()) check_output_file(opt.json);
  const Run base = read_run_file(opt.base);
  const Run head = read_run_file(opt.head);
  const RunComparison cmp = compare_runs(base, head, settings);
  if (cmp.cases.empty() && !cmp.added.empty() && !cmp.removed.empty())
    fmt::print(stderr,
               "ridgeline: note: no case of {} is in {}: are these runs of the same suite?\n",
               opt.head, opt.base);
  print_terminal(cmp, opt, on);
  if (!opt.json.empty()) {
    write_file_atomically(opt.json, to_json(cmp, opt, on).dump(2) + "\n");
    if (!resolve_output_file(opt.json).stream)
      fmt::print("{}\n", std::filesystem::absolute(opt.json).string());
  }
  return gate_fails(cmp, on) ? 1 : 0;
}

}  // namespace

Command add_compare_command(CLI::App& app) {
  auto opt = std::make_shared<CompareOptions>();
  CLI::App* sub = app.add_subcommand(
      "compare",
      "Compare two runs case by case and gate on regressions (exit 1 when the gate fails)");
  sub->add_option("base", opt->base,
                  "The base Run (or its .jsonl journal, or Google Benchmark JSON)")
      ->required();
  sub->add_option("new", opt->head, "The new Run to judge against it")->required();
  sub->add_option("--threshold", opt->threshold,
                  "Smallest change that counts, as 5% or 0.05 (default 5%)");
  sub->add_option("--alpha", opt->alpha,
                  "Family-wise significance level over all cases, Holm-corrected (default 0.05)");
  sub->add_option("--fail-on", opt->fail_on,
                  "regression (regressions and broken validation; the default), inconclusive "
                  "(also cases that could not be decided) or change (also improvements, added "
                  "and removed cases)")
      ->check(CLI::IsMember({"regression", "inconclusive", "change"}));
  sub->add_option("--json", opt->json, "Also write the comparison as JSON");
  sub->add_flag("--all", opt->all, "List the unchanged cases too");
  return {sub, [opt] { return run_compare(*opt); }};
}

}  // namespace ridgeline::cli
