#include "ridgeline/core/thresholds.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "json_fields.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/json_file.hpp"

namespace ridgeline {

std::string thresholds_to_json(const Thresholds& t) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : t.cases)
    cases.push_back({{"key", c.key},
                     {"name", c.name},
                     {"threshold", c.threshold},
                     {"noise_floor", c.noise_floor},
                     {"runs", c.runs}});
  const nlohmann::json doc = {{"ridgeline_thresholds", kThresholdsSchemaVersion},
                              {"default_threshold", t.default_threshold},
                              {"cases", cases}};
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

namespace {

double fraction(const detail::JsonFields& f, const char* key) {
  const double v = f.number(key);
  if (!(v > 0 && v < 1)) f.fail(key, fmt::format("expected a fraction between 0 and 1, got {}", v));
  return v;
}

}  // namespace

Thresholds read_thresholds_file(const std::filesystem::path& file) {
  const nlohmann::json doc = read_json_file(file);
  const detail::JsonFields top(doc, file.string(), "");
  if (!top.has("ridgeline_thresholds"))
    top.fail("ridgeline_thresholds",
             "missing: not a thresholds file written by compare --calibrate");
  const auto version = top.integer("ridgeline_thresholds");
  if (version != kThresholdsSchemaVersion)
    top.fail("ridgeline_thresholds", fmt::format("schema {} is not the one this build reads ({})",
                                                 version, kThresholdsSchemaVersion));
  Thresholds t;
  t.default_threshold = fraction(top, "default_threshold");
  const auto& cases = top.array("cases");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const detail::JsonFields c(cases[i], file.string(), fmt::format("cases[{}]", i));
    CaseThreshold ct;
    const auto& key = c.object("key").raw();
    for (const auto& [k, v] : key.items()) {
      if (!v.is_string()) c.fail("key", fmt::format("'{}' is not a string", k));
      ct.key[k] = v.get<std::string>();
    }
    ct.name = c.string("name");
    // A case's own threshold may pass 100%: a case whose A/A runs differed by 3x needs one.
    ct.threshold = c.number("threshold");
    if (!(ct.threshold > 0))
      c.fail("threshold", fmt::format("expected a positive fraction, got {}", ct.threshold));
    ct.noise_floor = c.number("noise_floor");
    ct.runs = static_cast<int>(c.integer("runs"));
    t.cases.push_back(std::move(ct));
  }
  return t;
}

}  // namespace ridgeline
