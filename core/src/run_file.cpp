// Run files: a document or its journal read, a document written (run_json.hpp).
#include <fmt/format.h>

#include <exception>
#include <vector>

#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/json_file.hpp"
#include "ridgeline/core/run_json.hpp"

namespace ridgeline {

using nlohmann::json;

Run read_run_file(const std::filesystem::path& file) {
  const std::string text = read_text_file(file);
  const std::string origin = file.string();
  if (is_journal(file, text)) return run_from_journal(text, origin);
  // Each row becomes a CaseResult as it is read, so the whole document never exists as JSON
  // at once. Our writer puts "benchmarks" before "context": a row's error is kept until the
  // context has been read, whose errors (an unsupported schema) come first, as they would
  // reading the document whole.
  std::vector<CaseResult> rows;
  std::exception_ptr row_error;
  const JsonArraySink sink{
      "benchmarks", [&](json&& row, std::size_t i) {
        if (row_error) return;
        try {
          rows.push_back(case_result_from_json(row, origin, fmt::format("benchmarks[{}]", i)));
        } catch (const InputError&) {
          row_error = std::current_exception();
        }
      }};
  Run run = run_from_json(parse_json_text(text, origin, &sink), origin);
  if (row_error) std::rethrow_exception(row_error);
  run.benchmarks = std::move(rows);  // the document's array was handed to the sink, empty
  return run;
}

void write_run_file(const std::filesystem::path& file, const Run& run) {
  write_file_atomically(file, to_json(run).dump(2) + "\n");
}

}  // namespace ridgeline
