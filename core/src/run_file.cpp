// Run files: a document or its journal read, a document written (run_json.hpp).
#include <fmt/format.h>

#include <exception>
#include <fstream>
#include <vector>

#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/json_file.hpp"
#include "ridgeline/core/run_json.hpp"
#include "run_rows_fast.hpp"

namespace ridgeline {

using nlohmann::json;

namespace {

// Whether `file` is a journal, from its first MiB: a journal's first line is one benchmark
// entry, far shorter. A pipe is read whole (it cannot be read twice), its text kept in `text`.
bool journal_file(const std::filesystem::path& file, std::string& text) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    text = read_text_file(file);
    return is_journal(file, text);
  }
  std::ifstream in = open_text_file(file);
  std::string head(std::size_t{1} << 20, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return is_journal(file, head);
}

}  // namespace

Run read_run_file(const std::filesystem::path& file,
                  const std::function<void(CaseResult&& row)>& each_row) {
  const std::string origin = file.string();
  std::string text;
  if (journal_file(file, text)) {
    Run run = run_from_journal(text.empty() ? read_text_file(file) : text, origin);
    for (auto& row : run.benchmarks) each_row(std::move(row));
    run.benchmarks.clear();
    return run;
  }
  // A regular file goes through simdjson first (run_rows_fast.hpp); where that gives up,
  // this reader reads it again, names the error (or the keys given twice), and skips the
  // rows already handed on.
  std::size_t delivered = 0;
  if (text.empty())
    if (auto run = detail::read_run_rows_fast(file, origin, each_row, delivered)) return *run;
  // Each row becomes a CaseResult as it is read, so the whole document never exists as JSON
  // at once (nor, from a regular file, as text). Our writer puts "benchmarks" before
  // "context": rows are handed on as they come, but a row's error is kept until the context
  // has been read, whose errors (an unsupported schema) come first, as they would reading
  // the document whole.
  std::exception_ptr row_error;
  const JsonArraySink sink{
      "benchmarks", [&](json&& row, std::size_t i) {
        if (row_error || i < delivered) return;
        try {
          each_row(case_result_from_json(row, origin, fmt::format("benchmarks[{}]", i)));
        } catch (const InputError&) {
          row_error = std::current_exception();
        }
      }};
  DuplicateKeys duplicates;
  Run run = run_from_json(text.empty() ? parse_json_file(file, &sink, &duplicates)
                                       : parse_json_text(text, origin, &sink, &duplicates),
                          origin);
  if (row_error) std::rethrow_exception(row_error);
  if (duplicates.count) run.notes.push_back(duplicates.note(origin));
  return run;  // the document's array was handed to the sink, empty
}

Run read_run_file(const std::filesystem::path& file) {
  std::vector<CaseResult> rows;
  Run run = read_run_file(file, [&](CaseResult&& row) { rows.push_back(std::move(row)); });
  run.benchmarks = std::move(rows);
  return run;
}

void write_run_file(const std::filesystem::path& file, const Run& run) {
  write_file_atomically(file, to_json(run).dump(2) + "\n");
}

}  // namespace ridgeline
