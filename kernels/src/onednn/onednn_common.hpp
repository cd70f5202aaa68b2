#pragma once
// What the oneDNN ops share (built only with oneDNN): the OpenMP thread guard, argument
// checks, and turning oneDNN's exceptions into reasons (create) or runtime errors (execute).
#include <fmt/format.h>
#include <omp.h>
#include <oneapi/dnnl/dnnl_debug.h>

#include <cstdint>
#include <new>
#include <oneapi/dnnl/dnnl.hpp>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "../omp_threads.hpp"
#include "onednn_ops.hpp"

namespace ridgeline::ops::detail {

// The OpenMP thread guard (onednn_ops.hpp says why both creation and execution need it).
using ridgeline::OmpThreads;

inline dnnl::memory::data_type data_type(DType d) {
  switch (d) {
    case DType::bf16:
      return dnnl::memory::data_type::bf16;
    case DType::i8:
      return dnnl::memory::data_type::s8;
    case DType::i32:
      return dnnl::memory::data_type::s32;
    default:
      return dnnl::memory::data_type::f32;
  }
}

// The dtypes these ops take (f32 and bf16; the matmul on strided operands int8 too);
// anything else is refused before oneDNN sees it.
inline std::string dtype_refusal(DType d, bool int8_too = false) {
  if (d == DType::f32 || d == DType::bf16 || (int8_too && d == DType::i8)) return {};
  return fmt::format("{}: {}", to_string(d),
                     int8_too ? "oneDNN's matmul here takes f32, bf16 or i8"
                              : "the oneDNN ops here take f32 or bf16");
}

inline std::string describe(const dnnl::error& e) {
  return fmt::format("oneDNN: {} (status {})", e.what(), dnnl_status2str(e.status));
}

// Why the problem cannot be prepared before oneDNN is asked, or empty.
inline std::string check_positive(std::initializer_list<std::pair<const char*, std::int64_t>> dims,
                                  int threads) {
  for (const auto& [name, value] : dims)
    if (value < 1) return fmt::format("{} = {}: every dimension must be at least 1", name, value);
  if (threads < 1) return fmt::format("threads = {}: must be at least 1", threads);
  return {};
}

// Runs make() (which builds the Impl under the thread guard) and turns failures into the
// reason: what oneDNN refuses (unimplemented, out of memory) is "not supported", never an
// exception into the caller.
// oneDNN fixes its instruction set at its first primitive (or query) in the process, and a
// cap set after that is silently ignored: this process's record of both (isa_cap.cpp).
void note_isa_fixed();

template <class Op, class Make>
Prepared<Op> prepare(const std::string& what, Make&& make) {
  note_isa_fixed();
  try {
    return {make(), Support::yes()};
  } catch (const dnnl::error& e) {
    return {nullptr, Support::no(what + ": " + describe(e))};
  } catch (const std::bad_alloc&) {
    return {nullptr, Support::no(what + ": out of memory preparing the primitives")};
  }
}

using Args = std::unordered_map<int, dnnl::memory>;

inline void run(const dnnl::primitive& p, dnnl::stream& s, const Args& args) {
  try {
    p.execute(s, args);
    s.wait();
  } catch (const dnnl::error& e) {
    throw std::runtime_error(describe(e));
  }
}

inline std::string impl_name(const dnnl::primitive_desc_base& pd) {
  return pd.impl_info_str();
}

// A memory object for the caller's buffer, bound at each execute().
inline dnnl::memory unbound(const dnnl::memory::desc& md, const dnnl::engine& e) {
  return dnnl::memory(md, e, DNNL_MEMORY_NONE);
}

}  // namespace ridgeline::ops::detail
