#pragma once
// The Python module's C++ side (docs/python.md): thin bindings over the runner, the analysis
// and the reports. Documents cross as JSON text (a Run's rows, a machine model, placements),
// which the Python side reads with json.loads: one representation, the schema's.
#include <pybind11/pybind11.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/run.hpp"

namespace ridgeline::python {

// A work model as Python reads it: {"flops": ..., "bytes": {"dram": ...}}.
std::string work_json_text(const WorkModel& w);

// A Run file Python names (ridgeline.Run's path, ridgeline.run's output=): a .json file, one
// writer at a time, its journal beside it (NAME.jsonl), the previous pair set aside as
// NAME.prev, as `ridgeline run` leaves them. InputError naming `argument` otherwise.
struct RunOutput {
  RunOutput(const std::string& path, std::string_view argument, std::string_view writer);
  OutputFile file;
  std::filesystem::path journal;
  std::unique_ptr<OutputLock> lock;
};

// A Run held on the C++ side (loaded, run, or recorded), handed to Python as an object.
struct RunDocument {
  explicit RunDocument(Run r);
  static RunDocument from_rows(const std::string& rows_json);  // a measurement's rows
  std::string to_json_text() const;
  // Placements (JSON) under the Run's own model, else machine_json's; the same for fragment.
  std::string place(const std::optional<std::string>& machine_json) const;
  std::string fragment(const std::optional<std::string>& machine_json,
                       const std::string& origin) const;
  Run run;
};

void bind_measure(pybind11::module_& m);    // measure(): a callable timed by the harness
void bind_documents(pybind11::module_& m);  // work, machine, placement, Runs read and written
void bind_suites(pybind11::module_& m);     // run(): a suite planned and run as the CLI does

}  // namespace ridgeline::python
