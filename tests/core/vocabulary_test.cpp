// The shared words: each spelled once, read back, and never compared as a string outside
// core's vocabulary (the old literals are looked for in every module's sources).
#include "ridgeline/core/vocabulary.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
#include <vector>

namespace ridgeline {
namespace {

TEST(Vocabulary, EveryWordReadsBackAsItself) {
  for (Device d : {Device::cpu, Device::gpu}) EXPECT_EQ(parse_device(to_string(d)), d);
  EXPECT_EQ(display_name(Device::gpu), "GPU");
  for (KernelRole r :
       {KernelRole::ladder, KernelRole::fused, KernelRole::unfused, KernelRole::vendor})
    EXPECT_EQ(parse_kernel_role(to_string(r)), r);
  for (Disposition d : {Disposition::passed, Disposition::incorrect, Disposition::not_supported,
                        Disposition::not_verified, Disposition::crashed, Disposition::timed_out,
                        Disposition::error, Disposition::skipped})
    EXPECT_EQ(parse_disposition(to_string(d)), d);
  for (ComputeUnit u :
       {ComputeUnit::vector, ComputeUnit::matrix, ComputeUnit::simt, ComputeUnit::tensor})
    EXPECT_EQ(parse_compute_unit(to_string(u)), u);
  EXPECT_EQ(display_name(ComputeUnit::matrix), "matrix engine");
  for (LoweringKind k :
       {LoweringKind::loop_nest, LoweringKind::ttgt, LoweringKind::strided, LoweringKind::gett})
    EXPECT_EQ(parse_lowering_kind(to_string(k)), k);
  for (StepKind k : {StepKind::permute, StepKind::gemm, StepKind::strided_view, StepKind::gathered,
                     StepKind::loop_nest})
    EXPECT_EQ(parse_step_kind(to_string(k)), k);
  EXPECT_EQ(to_string(LoweringKind::ttgt), "ttgt");
  EXPECT_EQ(to_string(StepKind::strided_view), "strided_view");
  EXPECT_FALSE(parse_lowering_kind("cpu.ttgt"));  // a backend is not a kind
  EXPECT_FALSE(parse_step_kind("permuted"));
  EXPECT_FALSE(parse_compute_unit("AMX"));
  // Without a kernel's word: a GPU's matrix products of tensor-core types on its tensor cores.
  EXPECT_EQ(default_compute_unit(Device::gpu, "gemm", DType::bf16), ComputeUnit::tensor);
  EXPECT_EQ(default_compute_unit(Device::gpu, "softmax", DType::bf16), ComputeUnit::simt);
  EXPECT_EQ(default_compute_unit(Device::gpu, "gemm", DType::f32), ComputeUnit::simt);
  EXPECT_EQ(default_compute_unit(Device::cpu, "gemm", DType::bf16), ComputeUnit::vector);
  EXPECT_FALSE(parse_device("GPU"));  // the JSON spelling only
  EXPECT_FALSE(parse_kernel_role("Fused"));
  EXPECT_FALSE(parse_disposition("ok"));
}

TEST(Vocabulary, MemoryLevelsAreNamedPerDeviceAndRankedFromTheCoreOutwards) {
  for (MemoryLevel l : kMemoryLevels)
    for (Device d : {Device::cpu, Device::gpu})
      EXPECT_EQ(parse_memory_level(display_name(l, d)), l);
  EXPECT_EQ(display_name(MemoryLevel::main, Device::cpu), "DRAM");
  EXPECT_EQ(display_name(MemoryLevel::main, Device::gpu), "HBM");
  EXPECT_EQ(parse_memory_level("dram"), MemoryLevel::main);
  EXPECT_FALSE(parse_memory_level("L3-DRAM"));  // a measured extra level keeps its own name
  EXPECT_FALSE(parse_memory_level("l2"));
  std::vector<int> ranks;
  for (const char* name : {"L1", "L2", "L3", "DRAM", "HBM", "L3-DRAM", "network (inter-node)"})
    ranks.push_back(level_rank(name));
  EXPECT_EQ(ranks, (std::vector<int>{0, 1, 2, 3, 4, 5, 5}));
  EXPECT_EQ(byte_metric_level("bytes.dram"), MemoryLevel::main);
  EXPECT_EQ(byte_metric_level("bytes.DRAM"), MemoryLevel::main);  // the old MEM groups' spelling
  EXPECT_EQ(byte_metric_level("bytes.L2"), MemoryLevel::l2);
  EXPECT_FALSE(byte_metric_level("bytes.HBM"));      // CUPTI writes bytes.dram
  EXPECT_FALSE(byte_metric_level("bytes.network"));  // analytic only: no counter reads it
  EXPECT_EQ(bytes_metric(MemoryLevel::main), "bytes.dram");
}

// A work model's bytes and their metrics: each level spelled once in JSON, read back only in
// that spelling (a file's "DRAM" is not the work model's "dram": it is kept as it was named).
TEST(Vocabulary, ByteLevelsAreSpelledOnceInJson) {
  const std::vector<std::string_view> json = {"L1", "L2", "L3", "dram", "network"};
  std::vector<std::string_view> spelled;
  for (MemoryLevel l : {MemoryLevel::l1, MemoryLevel::l2, MemoryLevel::l3, MemoryLevel::main,
                        MemoryLevel::network}) {
    spelled.push_back(to_string(l));
    EXPECT_EQ(parse_byte_level(to_string(l)), l);
  }
  EXPECT_EQ(spelled, json);
  EXPECT_FALSE(parse_byte_level("DRAM"));
  EXPECT_FALSE(parse_byte_level("network (inter-node)"));
  EXPECT_EQ(display_name(MemoryLevel::network, Device::gpu), "network");
  EXPECT_EQ(network_level("inter-node"), "network (inter-node)");
}

// A roof's level is typed by the vocabulary and keeps its name: the network in any scope is
// the network, a level the probe measured between two others is none of the known ones.
TEST(Vocabulary, ARoofsLevelIsTypedAndNamed) {
  EXPECT_EQ(RoofLevel::named("HBM"), (RoofLevel{MemoryLevel::main, "HBM"}));
  EXPECT_EQ(RoofLevel::named("L2").type, MemoryLevel::l2);
  EXPECT_EQ(RoofLevel::named(network_level("intra-node")).type, MemoryLevel::network);
  EXPECT_EQ(RoofLevel::named(network_level("a rack")).type, MemoryLevel::network);
  EXPECT_FALSE(RoofLevel::named("L3-DRAM").type);
  EXPECT_FALSE(RoofLevel::named("network").type);  // a work model's word, no roof's name
  EXPECT_FALSE(RoofLevel::named("networked (x)").type);
  EXPECT_FALSE(RoofLevel::named("network (x").type);
}

TEST(Vocabulary, ABoundIsSpelledAsReportsShowIt) {
  EXPECT_EQ(to_string(Bound::compute()), "compute");
  EXPECT_EQ(to_string(Bound::memory("L2")), "L2");
  EXPECT_EQ(to_string(Bound::memory("network (inter-node)")), "network (inter-node)");
  EXPECT_EQ(Bound::memory("network (inter-node)").level.type, MemoryLevel::network);
  EXPECT_EQ(Bound::memory("DRAM").level.type, MemoryLevel::main);
  EXPECT_EQ(to_string(Bound::call_overhead()), "call overhead");
  EXPECT_EQ(to_string(Bound{}), "");
  EXPECT_TRUE(Bound{}.empty());
  EXPECT_TRUE(Bound::memory("DRAM").is_memory());
  EXPECT_NE(Bound::memory("DRAM"), Bound::memory("L3"));
  EXPECT_NE(Bound::memory("DRAM"), Bound::memory("HBM"));
}

TEST(Vocabulary, OlderRunsRolesAndFamiliesAreInferredFromTheBackendsName) {
  EXPECT_EQ(inferred_role("cpu.fused"), KernelRole::fused);
  EXPECT_EQ(inferred_family("cpu.fused"), "cpu");
  EXPECT_EQ(inferred_role("cpu.avx2_unfused"), KernelRole::unfused);
  EXPECT_EQ(inferred_family("cpu.avx2_unfused"), "cpu.avx2");
  EXPECT_EQ(inferred_role("cpu.confused"), KernelRole::ladder);  // "fused" after '.' or '_'
  EXPECT_EQ(inferred_family("cpu.confused"), "");
  EXPECT_EQ(inferred_role("fused"), KernelRole::ladder);
  EXPECT_EQ(inferred_role("blas.openblas"), KernelRole::vendor);
  EXPECT_EQ(inferred_family("blas.openblas"), kBlasFamily);
  for (const char* vendor : {"vendor.onednn", "cuda.cublas", "cuda.cublaslt", "cpu.eigen"}) {
    EXPECT_EQ(inferred_role(vendor), KernelRole::vendor) << vendor;
    EXPECT_EQ(inferred_family(vendor), "") << vendor;
  }
  EXPECT_EQ(inferred_role("cpu.packed_avx512"), KernelRole::ladder);
  EXPECT_EQ(inferred_device("cuda.mma_128x256x64"), Device::gpu);
  EXPECT_EQ(inferred_device("cpu.naive"), Device::cpu);
}

// Einsum results from before the lowering was recorded: the kind from the backend's name as
// those builds spelled it, the steps from their notes (TTGT's permutes lapped on the CPU).
TEST(Vocabulary, OlderRunsEinsumLoweringsAreInferredFromTheBackendAndItsNotes) {
  const std::map<std::string, std::string> ttgt_notes{{"A", "permuted bthr -> bhtr"},
                                                      {"B", "used as stored"},
                                                      {"C", "permuted bhtT -> btTh"},
                                                      {"gemm", "8 products of 64x64x32: ..."}};
  const std::optional<Lowering> ttgt = inferred_lowering("einsum", "cpu.ttgt", ttgt_notes);
  ASSERT_TRUE(ttgt);
  EXPECT_EQ(ttgt->kind, LoweringKind::ttgt);
  EXPECT_EQ(ttgt->steps, (std::vector<LoweringStep>{{StepKind::permute, "A", "permute_A"},
                                                    {StepKind::gemm, "gemm", "gemm"},
                                                    {StepKind::permute, "C", "permute_C"}}));
  // The GPU's TTGT lapped nothing.
  const std::optional<Lowering> gpu = inferred_lowering("einsum", "cuda.cublas.ttgt", ttgt_notes);
  ASSERT_TRUE(gpu);
  EXPECT_EQ(gpu->steps.front(), (LoweringStep{StepKind::permute, "A", ""}));
  for (const char* strided :
       {"cpu.strided", "blas.openblas", "cpu.eigen", "vendor.onednn", "cuda.cublas"})
    EXPECT_EQ(inferred_lowering("einsum", strided, {})->kind, LoweringKind::strided) << strided;
  for (const char* ttgt_backend : {"blas.blis.ttgt", "cpu.eigen.ttgt"})
    EXPECT_EQ(inferred_lowering("einsum", ttgt_backend, {})->kind, LoweringKind::ttgt);
  const std::optional<Lowering> gett =
      inferred_lowering("einsum", "cpu.gett", {{"gemm", "8 products gathered"}});
  ASSERT_TRUE(gett);
  EXPECT_EQ(gett->steps, (std::vector<LoweringStep>{{StepKind::gathered, "gemm", ""}}));
  EXPECT_EQ(inferred_lowering("einsum", "cpu.loops", {})->kind, LoweringKind::loop_nest);
  EXPECT_FALSE(inferred_lowering("einsum", "cpu.mystery", {}));
  EXPECT_FALSE(inferred_lowering("gemm", "blas.openblas", {}));  // another op's kernel
}

// Each line of every C++ and CUDA source under the modules (except files named `skip`), its
// comment cut, with "file:line: text" for the failure message; the count of files read.
int for_each_code_line(std::initializer_list<const char*> modules, std::string_view skip,
                       const std::function<void(const std::string&, const std::string&)>& check) {
  namespace fs = std::filesystem;
  int files = 0;
  for (const char* module : modules)
    for (const auto& e :
         fs::recursive_directory_iterator(fs::path(RIDGELINE_SOURCE_DIR) / module)) {
      const std::string ext = e.path().extension().string();
      if (ext != ".cpp" && ext != ".hpp" && ext != ".cu") continue;
      if (e.path().filename() == skip) continue;
      ++files;
      std::ifstream in(e.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n)
        check(e.path().string() + ":" + std::to_string(n) + ": " + line,
              line.substr(0, line.find("//")));
    }
  return files;
}

// Every source file of every module but core's vocabulary: no device, role, disposition or
// bound compared with a string literal, no backend prefix read as a role, no memory level
// spelled as a literal, no network level read from its name, and no einsum lowering or step
// recognised by its backend's name or its text (a kernel declares them: LoweringKind,
// StepKind) (comments may name them).
TEST(Vocabulary, NoModuleComparesTheseWordsAsStrings) {
  const std::regex old_spelling(
      R"re((device|disposition|role|bound)\s*[!=]=\s*"|"\s*[!=]=\s*\w*(device|disposition)\b|)re"
      R"re(rfind\("(blas|cuda|vendor)\.", 0\)|fusion_role\(\w+\.backend\)|)re"
      R"re("(L1|L2|L3|DRAM|HBM|dram)"|find\("network"|[!=]=\s*"network"|"network \(|)re"
      R"re(find\("(permut|cpu\.(loops|ttgt|strided|gett)\b)|)re"
      R"re([!=]=\s*"[\w.]*\.(loops|ttgt|strided|gett)"|)re"
      R"re("(loop_nest|ttgt|strided|gett|permute|permuted|strided_view|gathered)"\s*[!=]=|)re"
      R"re([!=]=\s*"(loop_nest|ttgt|strided|gett|permute|permuted|strided_view|gathered)")re");
  const int files = for_each_code_line(
      {"core", "kernels", "collectors", "runner", "analysis", "reports", "gui", "cli", "cluster"},
      "vocabulary.cpp", [&](const std::string& where, const std::string& code) {
        EXPECT_FALSE(std::regex_search(code, old_spelling)) << where;
      });
  EXPECT_GT(files, 100);
}

// A kernel knows its op from where it is registered, a reference check from the op's
// definition that names it (OpDefinition::reference), so nothing in kernels reads the op back
// from a problem's name ("problem.op == ...").
TEST(Vocabulary, KernelsNeverDispatchOnAnOpsName) {
  const std::regex by_name(R"re(\bop\s*[!=]=\s*"|"\s*[!=]=\s*\w+\.op\b)re");
  const int files =
      for_each_code_line({"kernels"}, "", [&](const std::string& where, const std::string& code) {
        EXPECT_FALSE(std::regex_search(code, by_name)) << where;
      });
  EXPECT_GT(files, 50);
}

}  // namespace
}  // namespace ridgeline
