#pragma once
// Intel AMX, the matrix engine of Sapphire Rapids and later Xeon cores: eight 1 KiB tile
// registers and a unit that multiplies them (TDPBF16PS: bf16 pairs into f32; TDPBSSD: int8
// quads into i32). Whether this process can use it, and if not, why: the CPUID bits, the
// OS's tile state (XCR0), the palette (a VM may advertise AMX with none), and the kernel's
// permission for the tile data, which Linux grants per process on request.
#include <string>

namespace ridgeline {

// Palette 1 as CPUID leaf 0x1D describes it.
struct AmxPalette {
  int total_tile_bytes = 0;  // 8192: eight tiles
  int bytes_per_tile = 0;    // 1024
  int bytes_per_row = 0;     // 64
  int max_names = 0;         // 8 tile registers
  int max_rows = 0;          // 16
};

struct AmxSupport {
  bool tile = false, bf16 = false, int8 = false, fp16 = false;  // CPUID's AMX bits
  AmxPalette palette;
  // Why the tiles cannot be used in this process ("" where they can): the first check that
  // failed, with what to do where something can be done.
  std::string reason;
  bool usable() const { return tile && reason.empty(); }
  // Why `dtype`'s AMX unit ("bf16", "i8", "f16") cannot run here; "" where it can.
  std::string reason_for(const std::string& dtype) const;
};

// Checked once per process, which also asks the kernel for permission to use the tile data
// (arch_prctl ARCH_REQ_XCOMP_PERM); a child forked afterwards inherits it.
const AmxSupport& amx_support();

// The 64-byte tile configuration LDTILECFG loads: palette 1, every tile 16 rows of 64 bytes
// (the full 1 KiB tiles the peak loop and the GEMM rung use).
struct alignas(64) AmxTileConfig {
  unsigned char palette_id = 1;
  unsigned char start_row = 0;
  unsigned char reserved[14] = {};
  unsigned short bytes_per_row[16] = {};
  unsigned char rows[16] = {};
  static AmxTileConfig full_tiles(int tiles = 8);
};

}  // namespace ridgeline
