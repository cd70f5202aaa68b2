// The comparison as JSON and as JUnit XML (comparison.hpp).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "ridgeline/reports/comparison_rows.hpp"
#include "ridgeline/reports/escape.hpp"

namespace ridgeline {

using namespace comparison_rows;

std::string comparison_json(const ComparisonView& view) {
  const RunComparison& cmp = view.comparison;
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : cmp.cases) {
    const nlohmann::json key = key_fields(c.key);
    nlohmann::json j = {{"name", c.name},
                        {"key", key},
                        {"verdict", to_string(c.verdict)},
                        {"reason", c.reason},
                        {"fails", fails(c, view.fail_on)},
                        {"base_disposition", to_string(c.base_disposition)},
                        {"new_disposition", to_string(c.head_disposition)},
                        {"base_samples", c.base},
                        {"new_samples", c.head},
                        {"noise", c.noise}};
    if (c.tested)
      j.update({{"ratio", c.ratio},
                {"interval", {c.low, c.high}},
                {"confidence", c.confidence},
                {"p", c.p},
                {"p_holm", c.p_holm},
                {"smallest_p", c.smallest_p}});
    cases.push_back(std::move(j));
  }
  const nlohmann::json doc = {
      {"base", view.base},
      {"new", view.head},
      {"basis", cmp.basis},
      {"threshold", cmp.settings.threshold},
      {"alpha", cmp.settings.alpha},
      {"fail_on", view.fail_on_name},
      {"gate_failed", gate_fails(cmp, view.fail_on, view.allow_empty)},
      {"tested", cmp.tested},
      {"geomean_ratio", cmp.tested ? nlohmann::json(cmp.geomean_ratio) : nlohmann::json()},
      {"notes", cmp.notes},
      {"added", cmp.added},
      {"removed", cmp.removed},
      {"cases", cases}};
  // Names from a document may hold bytes that are not UTF-8: replaced, never a throw.
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

namespace {

std::string property(const char* name, const std::string& value) {
  return fmt::format("        <property name=\"{}\" value=\"{}\"/>\n", name, escape_html(value));
}

}  // namespace

std::string comparison_junit(const ComparisonView& view) {
  const RunComparison& cmp = view.comparison;
  std::string body;
  std::size_t failures = 0, tests = 0;
  for (const auto* c : by_effect(cmp)) {
    ++tests;
    const std::string classname = c->key.foreign_name.empty()
                                      ? "ridgeline.compare." + c->key.op + "." + c->key.backend
                                      : "ridgeline.compare.foreign";
    body += fmt::format("    <testcase classname=\"{}\" name=\"{}\">\n", escape_html(classname),
                        escape_html(c->name));
    body += "      <properties>\n";
    body += property("verdict", std::string(to_string(c->verdict)));
    if (c->tested) {
      body += property("ratio", fmt::format("{:.6g}", c->ratio));
      body += property("interval_low", fmt::format("{:.6g}", c->low));
      body += property("interval_high", fmt::format("{:.6g}", c->high));
      body += property("p", fmt::format("{:.6g}", c->p));
      body += property("p_holm", fmt::format("{:.6g}", c->p_holm));
    }
    body += property("base_repetitions", std::to_string(c->base.size()));
    body += property("new_repetitions", std::to_string(c->head.size()));
    body += "      </properties>\n";
    if (fails(*c, view.fail_on)) {
      ++failures;
      body += fmt::format("      <failure type=\"{}\" message=\"{}\"/>\n", to_string(c->verdict),
                          escape_html(c->reason));
    } else if (c->verdict == Verdict::inconclusive) {
      body += fmt::format("      <skipped message=\"{}\"/>\n", escape_html(c->reason));
    }
    body += "    </testcase>\n";
  }
  const bool strict = view.fail_on == FailOn::change;
  for (const auto& [names, what] : {std::pair{&cmp.added, "added: only in the new run"},
                                    std::pair{&cmp.removed, "removed: only in the base run"}})
    for (const auto& n : *names) {
      ++tests;
      body += fmt::format("    <testcase classname=\"ridgeline.compare\" name=\"{}\">\n",
                          escape_html(n));
      if (strict) {
        ++failures;
        body += fmt::format("      <failure type=\"change\" message=\"{}\"/>\n", what);
      } else {
        body += fmt::format("      <skipped message=\"{}\"/>\n", what);
      }
      body += "    </testcase>\n";
    }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"ridgeline "
      "compare {} -&gt; {}\" tests=\"{}\" failures=\"{}\">\n{}  </testsuite>\n</testsuites>\n",
      escape_html(view.base), escape_html(view.head), tests, failures, body);
}

}  // namespace ridgeline
