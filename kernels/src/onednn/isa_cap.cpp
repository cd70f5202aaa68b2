// oneDNN's instruction set in this process (onednn_ops.hpp): whether it is fixed yet, and
// whether Ridgeline capped it below AMX. oneDNN 2.6 fixes the ISA at its first primitive or
// query and then ignores dnnl::set_max_cpu_isa without an error (seen on the Emerald Rapids
// VM: a capped matmul created after an uncapped one still chose brg:avx512_core_amx_bf16),
// so the record is kept here, by the only code that calls oneDNN.
#include <atomic>
#include <mutex>

#include "onednn_common.hpp"
#include "onednn_ops.hpp"

namespace ridgeline::ops {

namespace {
std::atomic<bool> isa_fixed{false};
std::atomic<bool> isa_capped{false};
std::mutex cap_mutex;
}  // namespace

void detail::note_isa_fixed() {
  isa_fixed.store(true);
}

std::string onednn_isa_refusal(bool capped) {
  if (auto r = onednn_unavailable_reason(); !r.empty()) return r;
  if (capped && isa_fixed.load() && !isa_capped.load())
    return "oneDNN already chose its instruction set in this process (an earlier oneDNN "
           "primitive), so it cannot be capped below AMX here: the capped row needs a process of "
           "its own (run without --no-isolation)";
  if (!capped && isa_capped.load())
    return "oneDNN's instruction set was capped below AMX earlier in this process (by the "
           "vendor.onednn_avx512 row): run without --no-isolation for the uncapped rows";
  return {};
}

std::string onednn_cap_isa_below_amx() {
  std::lock_guard<std::mutex> lock(cap_mutex);
  if (isa_capped.load()) return {};
  if (auto r = onednn_isa_refusal(true); !r.empty()) return r;
  try {
    dnnl::set_max_cpu_isa(dnnl::cpu_isa::avx512_core_bf16);
  } catch (const dnnl::error& e) {
    return "oneDNN refused to cap its ISA at avx512_core_bf16: " + detail::describe(e);
  }
  isa_capped.store(true);
  return {};
}

}  // namespace ridgeline::ops
