// The GEMM suites as data (suite_rows.hpp): the CPU ladder's rungs and the GPU's GEMM kernels,
// each row the kernels it names and the shapes, dtypes and layouts they run. What each suite
// covers, in words, is its description in suites.cpp.
#include "gemm_suites.hpp"

#include "fusion_suites.hpp"
#include "ridgeline/kernels/gpu.hpp"
#include "suite_rows.hpp"

namespace ridgeline {

namespace {

// The rungs by name: the loops on one thread only; the other packed rung beside the best
// (x86-64: AVX2, what AVX-512 buys on an AVX-512 machine; AArch64: SVE beside NEON), its
// OpenMP variant on several.
constexpr KernelPick kNaive{KernelPick::Kind::named, "cpu.naive"},
    kReordered{KernelPick::Kind::named, "cpu.reordered"},
    kTiled{KernelPick::Kind::named, "cpu.tiled"},
#if defined(__x86_64__)
    kOtherPacked{KernelPick::Kind::named, "cpu.packed_avx2", "cpu.packed_avx2_omp"},
#else
    kOtherPacked{KernelPick::Kind::named, "cpu.packed_sve", "cpu.packed_sve_omp"},
#endif
    kEigen{KernelPick::Kind::named, "cpu.eigen", "cpu.eigen"};

// The ladder from the naive loop to the libraries: the loops, the packed rung this CPU runs
// best, Eigen and every BLAS library's GEMM.
const std::vector<KernelPick> kLadder{kNaive, kReordered, kTiled, kBestPacked, kEigen, kEveryBlas};
// The same with the other packed rung beside the best one (where it is the best, it is there
// once).
const std::vector<KernelPick> kLadderWithOther{kNaive,       kReordered, kTiled,    kBestPacked,
                                               kOtherPacked, kEigen,     kEveryBlas};

// The naive loop at 4096^3 takes minutes; the reference BLAS is a naive loop nest too.
const std::vector<SizeLimit> kSlowRungs{
    {"cpu.naive", 1024}, {"cpu.reordered", 2048}, {"blas.refblas", 1024}};

std::vector<Shape> cubes(const std::vector<std::int64_t>& sizes) {
  std::vector<Shape> shapes;
  for (std::int64_t n : sizes) shapes.push_back({n, n, n, 1});
  return shapes;
}

const std::vector<std::int64_t> kLadderSizes{256, 512, 1024, 2048, 4096};

// Every GEMM kernel of the GPU, f32 and f64 at `simt`, the tensor cores' dtypes at `tensor`;
// i8 also as C = A B^T (column-major TN), the form the libraries give the IMMA tensor cores
// (NN shows what a user who does not know that gets).
GemmRow gpu_gemm_row(Shape simt, Shape tensor) {
  return {{kEveryGpuGemm},
          {{DType::f32, {simt}},
           {DType::f64, {simt}},
           {DType::tf32, {tensor}},
           {DType::bf16, {tensor}},
           {DType::f16, {tensor}},
           {DType::i8, {tensor}, {Layout::NN, Layout::NT}}},
          {}};
}

// GPU rows, on a machine with a GPU only.
std::vector<CaseSpec> on_gpu(const KernelCatalog& catalog, const std::vector<GemmRow>& rows) {
  if (!gpu_probe().available()) return {};
  return expand_gemm_rows(catalog, rows, {1});
}

std::vector<CaseSpec> joined(std::vector<CaseSpec> cases, std::vector<CaseSpec> more) {
  cases.insert(cases.end(), std::make_move_iterator(more.begin()),
               std::make_move_iterator(more.end()));
  return cases;
}

}  // namespace

const std::vector<GemmRow>& gpu_gemm_rows() {
  static const std::vector<GemmRow> rows{
      gpu_gemm_row({4096, 4096, 4096, 1}, {8192, 8192, 8192, 1})};
  return rows;
}

std::vector<CaseSpec> smoke_suite(const KernelCatalog& catalog, int cpus) {
  static const std::vector<GemmRow> cpu{
      {kLadder, in_every_dtype({{64, 64, 64, 1}, {37, 53, 29, 1}}), kSlowRungs}};
  // Every GPU kernel and dtype at 256^3, and at an odd shape that needs the edge paths.
  static const std::vector<GemmRow> gpu{gpu_gemm_row({256, 256, 256, 1}, {256, 256, 256, 1}),
                                        gpu_gemm_row({100, 60, 36, 1}, {100, 60, 36, 1})};
  return joined(expand_gemm_rows(catalog, cpu, one_and_all(cpus)), on_gpu(catalog, gpu));
}

std::vector<CaseSpec> default_suite(const KernelCatalog& catalog, int cpus) {
  static const std::vector<GemmRow> cpu{{kLadder, in_every_dtype(cubes({512, 1024})), kSlowRungs}};
  static const std::vector<GemmRow> gpu{gpu_gemm_row({4096, 4096, 4096, 1}, {4096, 4096, 4096, 1})};
  std::vector<CaseSpec> cases = expand_gemm_rows(catalog, cpu, one_and_all(cpus));
  cases = joined(std::move(cases), fusion_sample(catalog, cpus));
  cases = joined(std::move(cases), on_gpu(catalog, gpu));
  return joined(std::move(cases), gpu_fusion_sample(catalog, cpus));
}

std::vector<CaseSpec> ladder_suite(const KernelCatalog& catalog, int cpus) {
  static const std::vector<GemmRow> rows{
      {kLadderWithOther, in_every_dtype(cubes(kLadderSizes)), kSlowRungs}};
  return expand_gemm_rows(catalog, rows, one_and_all(cpus));
}

std::vector<CaseSpec> blas_suite(const KernelCatalog& catalog, int cpus) {
  static const std::vector<GemmRow> rows{
      {{kBestPacked, kEveryBlas}, in_every_dtype(cubes(kLadderSizes)), kSlowRungs}};
  return expand_gemm_rows(catalog, rows, one_and_all(cpus));
}

std::vector<CaseSpec> gpu_suite(const KernelCatalog& catalog, int) {
  return on_gpu(catalog, gpu_gemm_rows());
}

}  // namespace ridgeline
