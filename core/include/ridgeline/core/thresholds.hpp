#pragma once
// The thresholds file `compare --calibrate` writes and `compare --threshold FILE` reads: a
// threshold per case, measured from repeated runs of the same code (docs/compare.md).
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace ridgeline {

inline constexpr int kThresholdsSchemaVersion = 1;

struct CaseThreshold {
  // The case's identifying fields (op, backend, device, dtype, params, pattern, fp_env,
  // threads; or foreign_name), as compare matches cases.
  std::map<std::string, std::string> key;
  std::string name;        // for people reading the file
  double threshold = 0;    // the fraction a change must exceed to count
  double noise_floor = 0;  // the largest excursion of an A/A interval from 1 seen
  int runs = 0;            // runs of the case it was measured over
  bool operator==(const CaseThreshold&) const = default;
};

struct Thresholds {
  double default_threshold = 0.05;  // for cases the file does not list
  std::vector<CaseThreshold> cases;
  bool operator==(const Thresholds&) const = default;
};

std::string thresholds_to_json(const Thresholds& thresholds);
// InputError naming the file and the field on anything that is not a thresholds file.
Thresholds read_thresholds_file(const std::filesystem::path& file);

}  // namespace ridgeline
