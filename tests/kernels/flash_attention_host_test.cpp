// The flash attention kernel's launch choices, on the host
// (kernels/src/cuda/attention/flash_attention.cu): the head dims it is built for, and the warps per
// block at each (8 up to head_dim 64, 4 at 128, as measured on the H100; RIDGELINE_FLASH_WARPS
// overrides for tuning experiments).
#include <gtest/gtest.h>

#include <cstdlib>

#include "cuda/attention/attention_launchers.hpp"

namespace ridgeline {

TEST(FlashAttentionLaunch, HeadDimsAndWarpsPerBlock) {
  for (std::int64_t d : {32, 64, 128}) EXPECT_TRUE(flash_attention_head_dim(d)) << d;
  for (std::int64_t d : {0, 16, 48, 96, 256}) EXPECT_FALSE(flash_attention_head_dim(d)) << d;
  if (std::getenv("RIDGELINE_FLASH_WARPS"))
    GTEST_SKIP() << "RIDGELINE_FLASH_WARPS is set: the warps are the override's";
  EXPECT_EQ(flash_attention_warps(32), 8);
  EXPECT_EQ(flash_attention_warps(64), 8);
  EXPECT_EQ(flash_attention_warps(128), 4);
}

}  // namespace ridgeline
