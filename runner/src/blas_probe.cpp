#include "ridgeline/runner/blas_probe.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "ridgeline/core/error.hpp"
#include "ridgeline/runner/isolation.hpp"

namespace ridgeline {

// Loading a CBLAS library takes milliseconds (OpenBLAS's buffers, BLIS's CPUID): one still
// loading after this long hangs in its initialisation, and is not waited on for a minute.
constexpr double kBlasLoadSeconds = 10;

BlasProbe probe_blas(const BlasLibrarySpec& spec) {
  BlasProbe probe;
  probe.spec = spec;
  ChildOutcome out = run_isolated(
      [&] {
        nlohmann::json j;
        try {
          auto lib = load_blas_library(spec);
          j = {{"ok", true},
               {"version", lib->version()},
               {"thread_setter", lib->thread_setter()},
               {"kernel_set", lib->kernel_set()},
               {"threading", lib->threading()},
               {"bf16_gemm", lib->gemm_bf16_symbol()},
               {"i8_gemm", lib->gemm_s8u8s32_symbol()}};
        } catch (const std::exception& e) {
          j = {{"ok", false}, {"error", e.what()}};
        }
        return j.dump();
      },
      kBlasLoadSeconds);
  if (out.status != ChildOutcome::Status::completed) {
    probe.error = "BLAS library " + spec.path.string() + ": loading it " + out.detail;
    // BLIS aborts at initialisation on a sub-configuration it was not built with; other
    // libraries do not read the variable.
    const char* arch = std::getenv("BLIS_ARCH_TYPE");
    if (arch && spec.path.filename().string().find("blis") != std::string::npos)
      probe.error += fmt::format(
          " (BLIS_ARCH_TYPE={} is set: BLIS aborts on a number it was "
          "not built with)",
          arch);
    return probe;
  }
  auto j = nlohmann::json::parse(out.payload);
  probe.loadable = j.value("ok", false);
  probe.version = j.value("version", "");
  probe.thread_setter = j.value("thread_setter", "");
  probe.kernel_set = j.value("kernel_set", "");
  probe.threading = j.value("threading", "");
  probe.error = j.value("error", "");
  if (probe.loadable) {
    probe.spec.has_thread_setter = !probe.thread_setter.empty();
    probe.spec.bf16_gemm = j.value("bf16_gemm", "");
    probe.spec.i8_gemm = j.value("i8_gemm", "");
  }
  return probe;
}

std::vector<BlasLibrarySpec> blas_libraries_for(const std::vector<std::string>& user_paths) {
  std::vector<BlasLibrarySpec> libs;
  for (const auto& spec : discover_blas_libraries()) {
    BlasProbe probe = probe_blas(spec);
    if (!probe.loadable) continue;  // `ridgeline list` shows why
    libs.push_back(probe.spec);
  }
  for (const auto& path : user_paths) {
    BlasProbe probe = probe_blas(user_blas_library(path, libs));
    if (!probe.loadable) throw InputError("--blas-lib: " + probe.error);
    libs.push_back(probe.spec);
  }
  return libs;
}

}  // namespace ridgeline
