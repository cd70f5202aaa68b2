#pragma once
#include <string>

#include "ridgeline/core/fp_env.hpp"
#include "ridgeline/core/problem.hpp"
#include "ridgeline/core/vocabulary.hpp"

namespace ridgeline {

// One case of a plan: a kernel on a problem with a thread count.
struct CaseSpec {
  std::string backend;
  Problem problem;
  int threads = 1;
  FpEnv fp_env = FpEnv::ieee;  // named in the case only when not ieee: ".../fp=ftz_daz/threads=1"
  CacheState cache = CacheState::warm;  // named only when cold: ".../cache=cold/threads=1"
  // "gemm/cpu.packed_avx512/f32/m=1024,n=1024,k=1024/layout=NN/pattern=normal/threads=1"
  // (the op's params label, core/op.hpp: params_label)
  std::string name() const;
};

}  // namespace ridgeline
