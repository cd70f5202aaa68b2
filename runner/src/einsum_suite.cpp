// The einsum suite as data (suite_rows.hpp): contractions practitioners write, at sizes the
// direct loop nest finishes in well under a second per call, f32 and f64, 1 and all threads;
// and each step of a chain's contraction paths, f32 on one thread. Every einsum kernel of
// the catalog's ladder and every vendor runs each, the GPU's too where there is one.
#include "einsum_suite.hpp"

#include <algorithm>
#include <string>

#include "ridgeline/core/ops/einsum_path.hpp"
#include "ridgeline/kernels/gpu.hpp"
#include "suite_rows.hpp"

namespace ridgeline {

namespace {

// Every step of the networks' paths in f32 (the paths depend on the element size through
// their bytes) as the op's params, kept for the suite rows' pointers: the optimal, greedy
// and left-to-right paths, no runners-up (the suite's time; `ridgeline einsum` runs them).
const std::vector<std::string>& f32_network_steps() {
  static const std::vector<std::string> steps = [] {
    std::vector<std::string> out;
    for (const EinsumNetworkRun& r : einsum_suite_networks()) {
      const EinsumNetwork n = einsum_network(r.equation, r.extents);
      for (std::string& p : einsum_step_params(n, einsum_paths(n, size_of(DType::f32), 0)))
        if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
    }
    return out;
  }();
  return steps;
}

}  // namespace

const std::vector<EinsumNetworkRun>& einsum_suite_networks() {
  // A chain whose order decides the FLOPs (100x between the optimal path and the order
  // written), each step small; and a batched bilinear form x_b^T A y_b, one path (a GEMM,
  // then a batched dot product).
  static const std::vector<EinsumNetworkRun> networks{
      {"ij,jk,kl->il", "i=1000,j=10,k=1000,l=10"},
      {"bi,ij,bj->b", "b=64,i=512,j=512"},
  };
  return networks;
}

std::vector<CaseSpec> einsum_suite(const KernelCatalog& catalog, int cpus) {
  // Each a 2^27-2^28 FLOP contraction but the outer product (memory-bound: 64 MiB out) and
  // the 1x1 convolutions (2^25.6, about 8 FLOP per compulsory byte in f32: memory-bound
  // where TTGT's copies count).
  static const std::vector<const char*> contractions{
      R"(equation="ij,jk->ik"/extents="i=512,j=512,k=512")",                    // a GEMM
      R"(equation="bij,bjk->bik"/extents="b=8,i=256,j=256,k=256")",             // batched
      R"(equation="bhqd,bhkd->bhqk"/extents="b=2,h=8,q=256,k=256,d=64")",       // attention scores
      R"(equation="bhqk,bhkd->bhqd"/extents="b=2,h=8,q=256,k=256,d=64")",       // attention values
      R"(equation="bthr,bThr->bhtT"/extents="b=2,t=256,h=8,r=64,T=256")",       // heads last
      R"(equation="btd,hdk->bthk"/extents="b=2,t=256,d=512,h=8,k=64")",         // a projection
      R"(equation="bhtd,hdk->btk"/extents="b=2,h=8,t=256,d=64,k=512")",         // heads merged
      R"(equation="nchw,oc->nohw"/extents="n=8,c=32,h=56,w=56,o=32")",          // 1x1 conv
      R"(equation="nhwc,oc->nhwo"/extents="n=8,c=32,h=56,w=56,o=32")",          // channels last
      R"(equation="abcd,cdef->abef"/extents="a=24,b=24,c=24,d=24,e=24,f=24")",  // 4 indices
      R"(equation="i,j->ij"/extents="i=4096,j=4096")",                          // outer product
  };
  const std::vector<KernelRole> roles{KernelRole::ladder, KernelRole::vendor};
  std::vector<SuiteRow> rows;
  for (DType dtype : {DType::f32, DType::f64})
    rows.push_back({{"einsum"}, {{dtype, contractions}}, roles});
  std::vector<CaseSpec> cases =
      expand_suite_rows(catalog, {Device::cpu, ""}, rows, one_and_all(cpus));
  // The chain's steps in f32 on one thread: each step takes microseconds, so its cases cost
  // their fixed overhead (about 0.4 s each with the timing); in both dtypes and thread counts
  // they took the suite from 3 min 46 s to 4 min 58 s here, over its 4-minute budget.
  std::vector<const char*> steps;
  for (const std::string& step : f32_network_steps()) steps.push_back(step.c_str());
  for (CaseSpec& c : expand_suite_rows(catalog, {Device::cpu, ""},
                                       {{{"einsum"}, {{DType::f32, steps}}, roles}}, {1}))
    cases.push_back(std::move(c));
  // With a GPU, its lowerings (cuBLAS's strided batched GEMM) on the same contractions and
  // steps, beside the CPU's.
  if (gpu_probe().available()) {
    rows.push_back({{"einsum"}, {{DType::f32, steps}}, roles});
    for (CaseSpec& c : expand_suite_rows(catalog, {Device::gpu, "cuda"}, rows, {1}))
      cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace ridgeline
