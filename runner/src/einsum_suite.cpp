// The einsum suite as data (suite_rows.hpp): contractions practitioners write, at sizes the
// direct loop nest finishes in well under a second per call, f32 and f64, 1 and all threads.
// Every einsum kernel of the catalog's ladder runs each.
#include "einsum_suite.hpp"

#include "suite_rows.hpp"

namespace ridgeline {

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
  std::vector<SuiteRow> rows;
  for (DType dtype : {DType::f32, DType::f64})
    rows.push_back({{"einsum"}, {{dtype, contractions}}, {KernelRole::ladder, KernelRole::vendor}});
  return expand_suite_rows(catalog, {Device::cpu, ""}, rows, one_and_all(cpus));
}

}  // namespace ridgeline
