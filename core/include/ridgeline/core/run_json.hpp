#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "ridgeline/core/run.hpp"

namespace ridgeline {

nlohmann::json to_json(const CaseResult& result);
nlohmann::json to_json(const Run& run);

// Parse a document; errors are InputErrors naming `origin` (a file name) and the field,
// e.g. "run.json: benchmarks[2].ridgeline.dtype: unknown dtype 'f16'".
CaseResult case_result_from_json(const nlohmann::json& json, const std::string& origin,
                                 const std::string& path);
Run run_from_json(const nlohmann::json& json, const std::string& origin);

Run read_run_file(const std::filesystem::path& file);
// Written atomically: a temporary file beside it, then rename.
void write_run_file(const std::filesystem::path& file, const Run& run);

}  // namespace ridgeline
