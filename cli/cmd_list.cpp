// ridgeline list: ops, kernels, BLAS libraries found on this machine, suites.
#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "commands.hpp"
#include "ridgeline/cluster/collective_kernels.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/problem.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/core_pinning.hpp"
#include "ridgeline/kernels/gpu.hpp"
#include "ridgeline/reports/columns.hpp"
#include "ridgeline/runner/blas_probe.hpp"
#include "ridgeline/runner/suites.hpp"

namespace ridgeline::cli {

namespace {

struct ListOptions {
  bool json = false;
  std::vector<std::string> blas_libs;
};

// Each op of the registry with what --params accepts (dims with their minimum and default,
// attributes with their values, the first the default) and the backends that implement it.
nlohmann::json ops_json(const KernelCatalog& catalog) {
  nlohmann::json ops = nlohmann::json::array();
  for (const OpDefinition& op : op_registry()) {
    nlohmann::json dims = nlohmann::json::array(), attrs = nlohmann::json::array(),
                   dtypes = nlohmann::json::array(), backends = nlohmann::json::array();
    for (const DimSpec& d : op.dims) {
      nlohmann::json j{{"name", d.name}, {"min", d.min}, {"meaning", d.meaning}};
      j["default"] = d.default_value ? nlohmann::json(*d.default_value) : nlohmann::json();
      j["max"] = d.max ? nlohmann::json(*d.max) : nlohmann::json();
      dims.push_back(j);
    }
    for (const AttrSpec& a : op.attrs)
      attrs.push_back({{"name", a.name}, {"values", a.values}, {"meaning", a.meaning}});
    for (DType d : op.dtypes) dtypes.push_back(std::string(to_string(d)));
    for (const auto& k : catalog.kernels())
      if (k.op == op.name) backends.push_back(k.backend);
    ops.push_back({{"name", op.name},
                   {"description", op.description},
                   {"dims", dims},
                   {"attrs", attrs},
                   {"dtypes", dtypes},
                   {"example", op.example},
                   {"backends", backends}});
  }
  return ops;
}

// "m n k act=gelu_tanh|relu", a dim with a default as "batch=1".
std::string params_synopsis(const nlohmann::json& op) {
  std::string text;
  const auto add = [&](const std::string& item) {
    if (!text.empty()) text += ' ';
    text += item;
  };
  for (const auto& d : op["dims"])
    add(d["default"].is_null()
            ? d["name"].get<std::string>()
            : fmt::format("{}={}", d["name"].get<std::string>(), d["default"].get<std::int64_t>()));
  for (const auto& a : op["attrs"]) {
    std::string values;
    for (const auto& v : a["values"]) {
      if (!values.empty()) values += '|';
      values += v.get<std::string>();
    }
    // A free-form attribute with no listed value: its text, in quotes where it must be.
    add(fmt::format("{}={}", a["name"].get<std::string>(), values.empty() ? "\"…\"" : values));
  }
  return text.empty() ? "(none)" : text;  // an op of no params (callable): said, not blank
}

void print_ops(const nlohmann::json& ops) {
  fmt::print(
      "Ops (--params NAME=VALUE,...; a dim shown with =N has that default, the first "
      "attribute value is the default)\n");
  std::vector<TextRow> rows;
  for (const auto& op : ops)
    rows.push_back(
        {op["name"].get<std::string>(), params_synopsis(op), op["description"].get<std::string>()});
  fmt::print("{}", format_columns(rows));
}

int run_list(const ListOptions& opt) {
  std::vector<BlasLibrarySpec> specs = discover_blas_libraries();
  for (const auto& path : opt.blas_libs) specs.push_back(user_blas_library(path, specs));
  std::vector<BlasProbe> probes;
  for (auto& spec : specs) {
    probes.push_back(probe_blas(spec));
    spec = probes.back().spec;
  }
  KernelCatalog catalog = KernelCatalog::with_builtin_kernels(specs);
  cluster::add_collective_kernels(catalog, nullptr);  // listed; they run under mpirun
  const int cpus = usable_cpus();
  const GpuProbe& gpu = gpu_probe();

  // Each library that does not load, by the kernels the catalog adds for it (its GEMM, its
  // einsum lowerings, whatever comes next) rather than by spelling their backends.
  std::map<std::string, const BlasProbe*> unloadable;
  std::set<std::string> builtin;
  const KernelCatalog without = KernelCatalog::with_builtin_kernels({});
  for (const auto& k : without.kernels()) builtin.insert(k.id());
  for (const auto& p : probes) {
    if (p.loadable) continue;
    const KernelCatalog with = KernelCatalog::with_builtin_kernels({p.spec});
    for (const auto& k : with.kernels())
      if (!builtin.count(k.id())) unloadable[k.id()] = &p;
  }

  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : catalog.kernels()) {
    // Availability for a small problem in the kernel's first dtype: the op's example, else
    // any of its awkward problems (a kernel may refuse the example for what it is, as
    // TTGT refuses a product it has nothing to permute for, and still run here).
    const OpDefinition& op = op_definition(k.op);
    const auto kernel = catalog.create(k.backend, k.op);
    Support s = kernel->supports(example_problem(op, k.dtypes.at(0)), 1);
    for (const std::string& params : op.awkward) {
      if (s) break;
      Problem other = example_problem(op, k.dtypes.at(0));
      other.params = parse_params(op, params);
      if (kernel->supports(other, 1)) s = Support::yes();
    }
    if (!s && k.device == Device::gpu && !gpu.available()) s.reason = "no GPU (see GPU below)";
    // A library that could not be loaded (its constructor aborted, its symbols are missing):
    // its kernel is not usable either, whatever the catalog lists.
    if (const auto it = unloadable.find(k.id()); it != unloadable.end())
      s = Support::no("its library does not load: " + it->second->error);
    nlohmann::json dtypes = nlohmann::json::array();
    for (DType d : k.dtypes) dtypes.push_back(std::string(to_string(d)));
    kernels.push_back({{"id", k.id()},
                       {"backend", k.backend},
                       {"op", k.op},
                       {"device", to_string(k.device)},
                       {"dtypes", dtypes},
                       {"threaded", k.threaded},
                       {"role", to_string(k.role)},
                       {"family", k.family},
                       {"available", s.ok},
                       {"reason", s.reason},
                       {"description", k.description}});
  }
  nlohmann::json ops = ops_json(catalog);
  nlohmann::json blas = nlohmann::json::array();
  for (const auto& p : probes)
    blas.push_back({{"name", p.spec.name},
                    {"path", p.spec.path.string()},
                    {"user_given", p.spec.user_given},
                    {"loadable", p.loadable},
                    {"version", p.version},
                    {"thread_setter", p.thread_setter},
                    {"kernels", describe_kernel_set(p.version, p.kernel_set)},
                    {"threading", p.threading},
                    {"bf16_gemm", p.spec.bf16_gemm.value_or("")},
                    {"i8_gemm", p.spec.i8_gemm.value_or("")},
                    {"error", p.error}});
  nlohmann::json suite_list = nlohmann::json::array();
  for (const auto& s : suites())
    suite_list.push_back({{"name", s.name},
                          {"description", s.description},
                          {"cases", s.expand(catalog, cpus).size()}});

  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& d : gpu.devices)
    gpus.push_back({{"index", d.index},
                    {"name", d.name},
                    {"compute_capability", fmt::format("{}.{}", d.cc_major, d.cc_minor)},
                    {"multiprocessors", d.multiprocessors},
                    {"memory_bytes", d.memory_bytes},
                    {"l2_bytes", d.l2_bytes}});
  const nlohmann::json gpu_json{
      {"built", gpu.built}, {"devices", gpus}, {"reason", gpu.available() ? "" : gpu.reason}};

  if (opt.json) {
    fmt::print("{}\n", nlohmann::json{{"ops", ops},
                                      {"kernels", kernels},
                                      {"blas", blas},
                                      {"gpu", gpu_json},
                                      {"suites", suite_list}}
                           .dump(2));
    return 0;
  }
  print_ops(ops);
  fmt::print("\nKernels\n");
  std::vector<TextRow> rows;
  for (const auto& k : kernels) {
    std::string dt;
    for (const auto& d : k["dtypes"]) dt += (dt.empty() ? "" : ",") + d.get<std::string>();
    // A user library's name and path are in its id and description: made visible.
    rows.push_back({escape_visible(k["id"].get<std::string>()), k["role"].get<std::string>(), dt,
                    parse_device(k["device"].get<std::string>()) == Device::gpu
                        ? std::string(display_name(Device::gpu))
                    : k["threaded"].get<bool>() ? "threads"
                                                : "1 thread",
                    escape_visible(k["available"].get<bool>()
                                       ? k["description"].get<std::string>()
                                       : "unavailable: " + k["reason"].get<std::string>())});
  }
  fmt::print("{}", format_columns(rows));
  fmt::print("\nBLAS libraries (loaded at run time; add any CBLAS .so with --blas-lib PATH)\n");
  if (probes.empty()) fmt::print("  none found\n");
  for (const auto& p : probes) {
    fmt::print(  // names, versions and errors come from the library files: made visible
        "  {:<10} {}\n  {:<10} {}\n", escape_visible(p.spec.name),
        escape_visible(p.spec.path.string()), "",
        escape_visible(p.loadable ? fmt::format("{}; threads via {}{}{}",
                                                p.version.empty() ? "version unknown" : p.version,
                                                p.thread_setter.empty() ? "none" : p.thread_setter,
                                                p.threading.empty() ? "" : " on " + p.threading,
                                                p.kernel_set.empty()
                                                    ? ""
                                                    : "; kernels: " + describe_kernel_set(
                                                                          p.version, p.kernel_set))
                                  : "not loadable: " + p.error));
    if (p.loadable)
      fmt::print("  {:<10} {}; {}\n", "",
                 escape_visible(describe_low_precision_gemm(p.spec, DType::bf16)),
                 escape_visible(describe_low_precision_gemm(p.spec, DType::i8)));
  }
  fmt::print("\nGPU\n");
  if (!gpu.available()) fmt::print("  none: {}\n", gpu.reason);
  for (const auto& d : gpu.devices)
    fmt::print("  {}  {}  sm_{}{}, {} SMs, {:.0f} GiB, L2 {:.0f} MiB\n", d.index,
               escape_visible(d.name), d.cc_major, d.cc_minor, d.multiprocessors,
               static_cast<double>(d.memory_bytes) / (1 << 30),
               static_cast<double>(d.l2_bytes) / (1 << 20));
  fmt::print("\nSuites\n");
  rows.clear();
  for (const auto& s : suite_list)
    rows.push_back({s["name"].get<std::string>(), fmt::format("{} cases", s["cases"].get<int>()),
                    s["description"].get<std::string>()});
  fmt::print("{}", format_columns(rows, "  ", {1}));
  return 0;
}

}  // namespace

Command add_list_command(CLI::App& app) {
  auto opt = std::make_shared<ListOptions>();
  CLI::App* sub = app.add_subcommand(
      "list", "List ops and their params, kernels, BLAS libraries found, and suites");
  sub->add_flag("--json", opt->json, "Machine-readable output");
  sub->add_option("--blas-lib", opt->blas_libs, "Also list this CBLAS shared library")
      ->allow_extra_args(false);
  return {sub, [opt] { return run_list(*opt); }};
}

}  // namespace ridgeline::cli
