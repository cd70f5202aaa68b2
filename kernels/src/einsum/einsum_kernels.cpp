#include "einsum_kernels.hpp"

namespace ridgeline {

void add_einsum_kernels(KernelCatalog& catalog) {
  catalog.add(make_einsum_loops);
  catalog.add(make_einsum_ttgt);
  catalog.add(make_einsum_strided);
  catalog.add(make_einsum_gett);
  catalog.add(make_einsum_eigen);
  catalog.add(make_einsum_eigen_ttgt);
  catalog.add(make_einsum_onednn);
}

}  // namespace ridgeline
