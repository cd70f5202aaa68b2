// The documents Python reads and writes: an op's work model, this machine's model, the
// placement of rows on it, Runs loaded and recorded, the report's view of a Run.
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <memory>

#include "bindings.hpp"
#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/reports/overview.hpp"
#include "ridgeline/reports/report.hpp"
#include "ridgeline/runner/probe.hpp"
#include "ridgeline/runner/run_recording.hpp"

namespace py = pybind11;
using nlohmann::json;

namespace ridgeline::python {

namespace {

json work_json(const WorkModel& w) {
  json bytes = json::object();
  for (const auto& [level, b] : w.bytes) bytes[std::string(to_string(level))] = b;
  return {{"flops", w.flops}, {"bytes", bytes}};
}

// work("gemm", {"m": "512", ...}, "f32"): the op's model, as the native suite records it.
std::string work(const std::string& op_name, const std::map<std::string, std::string>& params,
                 const std::string& dtype) {
  const OpDefinition& op = op_definition(op_name);
  std::string text;
  for (const auto& [name, value] : params)
    text += fmt::format("{}{}={}", text.empty() ? "" : ",", name, quoted_param(value));
  Problem p;
  p.op = op.name;
  p.params = parse_params(op, text);
  const std::optional<DType> d = parse_dtype(dtype);
  if (!d)
    throw InputError(fmt::format("dtype={:?}: not a dtype (f64, f32, bf16, f16, i8, ...)", dtype));
  p.dtype = *d;
  json passes = json::array();
  for (const PassWork& pass : op_unfused_passes(p))
    passes.push_back({{"name", pass.name}, {"work", work_json(pass.work)}});
  json operands = json::array();
  for (const OperandSpec& o : op.operands(p))
    operands.push_back({{"name", o.name},
                        {"role", std::string(to_string(o.role))},
                        {"elements", o.elements},
                        {"dtype", std::string(to_string(o.dtype))}});
  return json{{"op", op.name},
              {"params", params_label(p)},
              {"dtype", dtype},
              {"fused", work_json(op_work(p))},
              {"unfused", work_json(op_unfused_work(p))},
              {"passes", passes},
              {"operands", operands}}
      .dump();
}

std::string ops() {
  json out = json::array();
  for (const OpDefinition& op : op_registry()) {
    json dims = json::array(), attrs = json::array(), dtypes = json::array();
    for (const DimSpec& d : op.dims)
      dims.push_back({{"name", d.name}, {"meaning", d.meaning}, {"required", !d.default_value}});
    for (const AttrSpec& a : op.attrs)
      attrs.push_back({{"name", a.name},
                       {"meaning", a.meaning},
                       {"values", a.values},
                       {"free_form", a.free_form()}});
    for (DType t : op.dtypes) dtypes.push_back(std::string(to_string(t)));
    out.push_back({{"name", op.name},
                   {"description", op.description},
                   {"dims", dims},
                   {"attrs", attrs},
                   {"dtypes", dtypes}});
  }
  return out.dump();
}

// This machine's model (the cache's, or probed now) and where it came from.
std::pair<std::optional<std::string>, std::string> machine(bool probe_if_missing, bool force) {
  const MachineChoice choice = this_machine(probe_if_missing, force);
  if (!choice.model) return {std::nullopt, choice.origin};
  return {to_json(*choice.model).dump(), choice.origin};
}

std::string machine_file(const std::string& path) {
  return to_json(read_machine_file(path)).dump();
}

std::optional<MachineModel> model_of(const std::optional<std::string>& machine_json) {
  if (!machine_json) return std::nullopt;
  return machine_from_json(json::parse(*machine_json), "the machine model", "");
}

json placement_json(const RooflinePlacement& p) {
  json notes = json::array();
  for (const Note& n : p.notes) notes.push_back(n.text);
  return {{"name", p.name},
          {"backend", p.backend},
          {"op", p.op},
          {"dtype", p.dtype},
          {"device", std::string(to_string(p.device))},
          {"role", std::string(to_string(p.role))},
          {"family", p.family},
          {"params", p.params},
          {"threads", p.threads},
          {"placeable", p.placeable},
          {"reason", p.reason},
          {"flops", p.flops},
          {"seconds", p.seconds},
          {"repetitions", p.repetitions.seconds.size()},
          {"cv", p.repetitions.cv},
          {"noisy", p.noisy},
          {"achieved", p.achieved},
          {"bytes", p.bytes},
          {"intensity", p.intensity},
          {"level", p.level},
          {"level_intensity", p.level_intensity},
          {"attainable", p.attainable},
          {"bound", to_string(p.bound)},
          {"efficiency", p.efficiency},
          {"above_roof", p.above_roof},
          {"disposition", std::string(to_string(p.disposition))},
          {"guidance", p.guidance},
          {"notes", notes}};
}

// The dtypes the machine has a compute roof for on `device`.
std::vector<std::string> roof_dtypes(const std::string& machine_json, const std::string& device) {
  const MachineModel m = *model_of(machine_json);
  std::vector<std::string> out;
  for (const ComputeCeiling& c : m.compute)
    if (std::string(to_string(c.device)) == device &&
        std::find(out.begin(), out.end(), c.dtype) == out.end())
      out.push_back(c.dtype);
  return out;
}

}  // namespace

std::string work_json_text(const WorkModel& w) {
  return work_json(w).dump();
}

RunOutput::RunOutput(const std::string& path, std::string_view argument, std::string_view writer)
    : file(check_output_file(path, argument)) {
  if (file.stream || file.named.extension() != ".json")
    throw InputError(fmt::format("{}={:?}: a Run is a .json file", argument, path));
  lock = std::make_unique<OutputLock>(file.target, writer);
  journal = std::filesystem::path(file.target).replace_extension(".jsonl");
  move_aside(file.target);
  move_aside(journal);
}

// A Run as the C++ side holds it (read once, never written back and read again): its JSON,
// its placements and the report's view of it.
RunDocument::RunDocument(Run r) : run(std::move(r)) {}

RunDocument RunDocument::from_rows(const std::string& rows_json) {
  const json rows = json::parse(rows_json);
  Run run;
  for (std::size_t i = 0; i < rows.size(); ++i)
    run.benchmarks.push_back(
        case_result_from_json(rows[i], "a measurement", fmt::format("[{}]", i)));
  return RunDocument(std::move(run));
}

std::string RunDocument::to_json_text() const {
  return to_json(run).dump();
}

// The rows placed under the Run's own model, else `machine_json`'s (neither: intensities and
// rates only).
std::string RunDocument::place(const std::optional<std::string>& machine_json) const {
  const std::optional<MachineModel> model =
      run.context.machine ? run.context.machine : model_of(machine_json);
  json out = json::array();
  for (const auto& p : place_results(run, model ? &*model : nullptr))
    out.push_back(placement_json(p));
  return out.dump();
}

// The report's first screen and its roofline, as one HTML fragment (a notebook's view).
std::string RunDocument::fragment(const std::optional<std::string>& machine_json,
                                  const std::string& origin) const {
  const std::optional<MachineModel> model =
      run.context.machine ? run.context.machine : model_of(machine_json);
  const ReportInput input = make_report_input(run, origin, model, "the run's own");
  return overview_html(input) + roofline_section_html(input);
}

namespace {

RunDocument load(const std::string& path) {
  return RunDocument(read_run_file(path));
}

// ridgeline.Run: rows journaled as each measurement finishes (NAME.jsonl beside NAME.json),
// the Run written atomically at the end, one writer per file.
class Recording {
 public:
  Recording(const std::string& path, const std::vector<std::string>& collect,
            std::vector<std::string> command_line)
      : out_(path, "path", "ridgeline.Run"), command_line_(std::move(command_line)) {
    RunSettings settings;
    settings.collect = collect;
    recording_ = std::make_unique<RunRecording>(settings);
  }
  std::string journal() const { return out_.journal.string(); }
  // A measurement's rows, journaled, numbered as the Run's next case.
  void record(const std::string& rows_json) {
    const json rows = json::parse(rows_json);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      CaseResult r = case_result_from_json(rows[i], "a measurement", fmt::format("[{}]", i));
      r.family_index = cases_;
      append_line_durably(out_.journal, to_json(r).dump());
      recording_->run().benchmarks.push_back(std::move(r));
    }
    ++cases_;
  }
  RunDocument close(const std::optional<std::string>& machine_json, bool interrupted) {
    if (!recording_) throw InputError("this Run is closed already");
    Run run = recording_->finish();
    recording_.reset();
    run.context.machine = model_of(machine_json);
    run.context.interrupted = interrupted;
    run.context.provenance.suite = "python";
    run.context.provenance.command_line = command_line_;
    write_run_file(out_.file.named, run);
    out_.lock.reset();
    return RunDocument(std::move(run));
  }

 private:
  RunOutput out_;
  std::vector<std::string> command_line_;
  std::unique_ptr<RunRecording> recording_;
  std::int64_t cases_ = 0;
};

}  // namespace

void bind_documents(py::module_& m) {
  m.def("work", &work, py::arg("op"), py::arg("params"), py::arg("dtype"));
  m.def("ops", &ops);
  m.def("machine", &machine, py::arg("probe_if_missing"), py::arg("force"));
  m.def("machine_file", &machine_file, py::arg("path"));
  m.def("roof_dtypes", &roof_dtypes, py::arg("machine"), py::arg("device"));
  m.def("load", &load, py::arg("path"));
  py::class_<RunDocument>(m, "RunDocument")
      .def_static("from_rows", &RunDocument::from_rows, py::arg("rows"))
      .def("json", &RunDocument::to_json_text)
      .def("place", &RunDocument::place, py::arg("machine"))
      .def("fragment", &RunDocument::fragment, py::arg("machine"), py::arg("origin"))
      .def_property_readonly("interrupted",
                             [](const RunDocument& d) { return d.run.context.interrupted; });
  py::class_<Recording>(m, "Recording")
      .def(
          py::init<const std::string&, const std::vector<std::string>&, std::vector<std::string>>(),
          py::arg("path"), py::arg("collect"), py::arg("command_line"))
      .def_property_readonly("journal", &Recording::journal)
      .def("record", &Recording::record, py::arg("rows"))
      .def("close", &Recording::close, py::arg("machine"), py::arg("interrupted"));
}

}  // namespace ridgeline::python
