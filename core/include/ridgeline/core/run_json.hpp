#pragma once
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "ridgeline/core/run.hpp"

namespace ridgeline {

nlohmann::json to_json(const CaseResult& result);
nlohmann::json to_json(const Run& run);

// Parse a document; errors are InputErrors naming `origin` (a file name) and the field,
// e.g. "run.json: benchmarks[2].ridgeline.dtype: unknown dtype 'f16'".
CaseResult case_result_from_json(const nlohmann::json& json, const std::string& origin,
                                 const std::string& path);
Run run_from_json(const nlohmann::json& json, const std::string& origin);

// A Run document, any Google Benchmark JSON, or a journal (below).
Run read_run_file(const std::filesystem::path& file);
// The same, each row handed to `each_row` in the file's order as it is read and not kept:
// the Run returned has the context and no rows. Errors are those of read_run_file; a row's
// error comes after the context's (an unsupported schema first), and no row after a bad
// one is handed on.
Run read_run_file(const std::filesystem::path& file,
                  const std::function<void(CaseResult&& row)>& each_row);

// The journal `ridgeline run` appends while it runs: one benchmark entry per line. A
// last line cut short (a kill mid-write) is left out with a note in `Run::notes`; any other
// bad line is an InputError naming the line. The Run has no context (machine, collectors):
// the journal does not hold one.
bool is_journal(const std::filesystem::path& file, std::string_view text);
Run run_from_journal(std::string_view text, const std::string& origin);

// Written atomically: a temporary file beside it, then rename.
void write_run_file(const std::filesystem::path& file, const Run& run);

}  // namespace ridgeline
