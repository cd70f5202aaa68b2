// gemm.vendor.onednn3: oneDNN 3's matmul, PyPI's newest build on GNU OpenMP loaded at run time
// (onednn3_api.hpp), on the operands as laid out: f32, bf16 (C f32) and int8 (C i32). Beside
// Debian's oneDNN 2.6 (gemm.vendor.onednn) the same problem runs through two releases; on an
// AMX core both name their brgemm kernels on the tiles.
#include <fmt/format.h>

#include <array>
#include <stdexcept>

#include "../omp_threads.hpp"
#include "onednn3_api.hpp"
#include "onednn3_kernels.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"

namespace ridgeline {

namespace {

using onednn3::Handle;

int onednn3_data_type(DType dtype) {
  switch (dtype) {
    case DType::bf16:
      return onednn3::kBf16;
    case DType::i8:
      return onednn3::kS8;
    case DType::i32:
      return onednn3::kS32;
    case DType::f16:
      return onednn3::kF16;
    default:
      return onednn3::kF32;
  }
}

// One problem's matmul: its descriptors, primitive and memories, released together.
class Onednn3Matmul {
 public:
  Onednn3Matmul() = default;
  Onednn3Matmul(const Onednn3Matmul&) = delete;
  Onednn3Matmul& operator=(const Onednn3Matmul&) = delete;
  ~Onednn3Matmul() {
    if (!onednn3::status()) return;
    const onednn3::Api& api = onednn3::api();
    for (Handle m : memories_)
      if (m) api.memory_destroy(m);
    if (primitive_) api.primitive_destroy(primitive_);
    if (pd_) api.primitive_desc_destroy(pd_);
    for (Handle d : descs_)
      if (d) api.memory_desc_destroy(d);
  }

  // The primitive descriptor for `problem`: "" or why oneDNN has none (its status named).
  std::string describe(const Problem& problem) {
    const onednn3::Api& lib = onednn3::api();
    const Shape s = gemm_shape(problem);
    const Layout layout = gemm_layout(problem);
    const std::int64_t lda = lda_of(problem), ldb = ldb_of(problem);
    // Row-major storage, a transposed operand read along its columns.
    const std::array<std::array<std::int64_t, 4>, 3> dims_strides{{
        {s.m, s.k, transposes_a(layout) ? 1 : lda, transposes_a(layout) ? lda : 1},
        {s.k, s.n, transposes_b(layout) ? 1 : ldb, transposes_b(layout) ? ldb : 1},
        {s.m, s.n, s.n, 1},
    }};
    for (int i = 0; i < 3; ++i) {
      const DType dtype = i == 2 ? output_dtype(problem.dtype) : problem.dtype;
      const auto& d = dims_strides[static_cast<std::size_t>(i)];
      const std::int64_t dims[2] = {d[0], d[1]}, strides[2] = {d[2], d[3]};
      if (int st = lib.memory_desc_create_with_strides(&descs_[i], 2, dims,
                                                       onednn3_data_type(dtype), strides);
          st != onednn3::kSuccess)
        return fmt::format("oneDNN 3 refused a {} memory descriptor (status {})", to_string(dtype),
                           st);
    }
    const int st = lib.matmul_primitive_desc_create(&pd_, lib.engine, descs_[0], descs_[1], nullptr,
                                                    descs_[2], nullptr);
    if (st == onednn3::kUnimplemented)
      return fmt::format("{} has no {} matmul implementation for this CPU", lib.description,
                         to_string(problem.dtype));
    if (st != onednn3::kSuccess)
      return fmt::format("{} refused the matmul (status {})", lib.description, st);
    const char* impl = nullptr;
    if (lib.primitive_desc_query(pd_, onednn3::kQueryImplInfoStr, 0, &impl) == onednn3::kSuccess &&
        impl)
      implementation_ = impl;
    return "";
  }

  // The primitive (JIT-compiled here) and its memories, on `threads`.
  void create(int threads) {
    const onednn3::Api& lib = onednn3::api();
    OmpThreads guard(threads);
    if (lib.primitive_create(&primitive_, pd_) != onednn3::kSuccess)
      throw std::runtime_error(lib.description + ": the matmul primitive was not created");
    for (int i = 0; i < 3; ++i)
      if (lib.memory_create(&memories_[i], descs_[i], lib.engine, nullptr) != onednn3::kSuccess)
        throw std::runtime_error(lib.description + ": a memory object was not created");
    threads_ = threads;
  }

  void execute(const void* a, const void* b, void* c) {
    const onednn3::Api& lib = onednn3::api();
    OmpThreads guard(threads_);
    lib.memory_set_data_handle(memories_[0], const_cast<void*>(a));
    lib.memory_set_data_handle(memories_[1], const_cast<void*>(b));
    lib.memory_set_data_handle(memories_[2], c);
    const onednn3::ExecArg args[3] = {{onednn3::kArgSrc, memories_[0]},
                                      {onednn3::kArgWeights, memories_[1]},
                                      {onednn3::kArgDst, memories_[2]}};
    if (lib.primitive_execute(primitive_, lib.stream, 3, args) != onednn3::kSuccess ||
        lib.stream_wait(lib.stream) != onednn3::kSuccess)
      throw std::runtime_error(lib.description + ": the matmul failed to run");
  }

  const std::string& implementation() const { return implementation_; }

 private:
  std::array<Handle, 3> descs_{}, memories_{};
  Handle pd_ = nullptr, primitive_ = nullptr;
  int threads_ = 1;
  std::string implementation_;
};

class Onednn3GemmKernel final : public Kernel {
 public:
  const KernelInfo& info() const override { return info_; }

  Support supports(const Problem& problem, int threads) const override {
    if (const Support s = onednn3::status(); !s) return Support::no(info_.id() + ": " + s.reason);
    if (Support s = check_gemm_support(info_, problem, threads); !s) return s;
    if (problem.op != info_.op) return Support::yes();
    // Whether oneDNN has an implementation for this CPU, from oneDNN itself (cheap: the
    // JIT compilation is the primitive's, in prepare()).
    Onednn3Matmul probe;
    if (std::string why = probe.describe(problem); !why.empty())
      return Support::no(info_.id() + ": " + why);
    return Support::yes();
  }

  void prepare(const Problem& problem, Operands& operands, int threads) override {
    matmul_ = std::make_unique<Onednn3Matmul>();
    if (std::string why = matmul_->describe(problem); !why.empty()) throw std::runtime_error(why);
    matmul_->create(threads);
    const GemmOperands g = gemm_view(operands);
    a_ = g.a.raw();
    b_ = g.b.raw();
    c_ = g.c.raw();
  }
  void run() override { matmul_->execute(a_, b_, c_); }

  ComputeUnit compute_unit(const Problem& problem) const override {
    if (matmul_ && matmul_->implementation().find("amx") != std::string::npos)
      return ComputeUnit::matrix;
    return default_compute_unit(info_.device, problem.op, problem.dtype);
  }

  std::map<std::string, std::string> notes() const override {
    std::map<std::string, std::string> n{{"library", onednn3::api().description}};
    if (matmul_ && !matmul_->implementation().empty())
      n["implementation"] = matmul_->implementation();
    return n;
  }

 private:
  KernelInfo info_{"gemm",
                   "vendor.onednn3",
                   Device::cpu,
                   {DType::f32, DType::bf16, DType::i8},
                   true,
                   "oneDNN 3's matmul (PyPI's onednn-cpu-gomp, loaded at run time) on the "
                   "operands as laid out",
                   KernelRole::vendor};
  std::unique_ptr<Onednn3Matmul> matmul_;
  const void* a_ = nullptr;
  const void* b_ = nullptr;
  void* c_ = nullptr;
};

}  // namespace

void add_onednn3_kernels(KernelCatalog& catalog) {
  catalog.add([] { return std::make_unique<Onednn3GemmKernel>(); });
}

}  // namespace ridgeline
