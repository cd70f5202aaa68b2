#pragma once
// What a reader needs in the first ten seconds (#66), in the spirit of Nsight Compute's
// "speed of light" section and Advisor's summary: the machine's roofs, the best kernel of each
// op and dtype with its share of its roof, our kernels against the best vendor's (the biggest
// gaps first), what needs attention, and fusion's wins. Computed once from the placements and
// the analyses over them; the HTML, Markdown and terminal reports and the dashboard's opening
// view only print it.
#include <cstddef>
#include <string>
#include <vector>

#include "ridgeline/analysis/fusion.hpp"
#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/core/run.hpp"

namespace ridgeline {

// One roof of the machine: a dtype's peak on one unit, or a memory level's bandwidth, at the
// most threads it was measured with.
struct OverviewRoof {
  Device device = Device::cpu;
  std::string what;  // the dtype ("bf16") or the level ("DRAM")
  std::string unit;  // the compute unit's display name; "" for a level
  int threads = 1;
  double per_second = 0;     // FLOP/s (OP/s for integer dot products) or B/s
  std::string rate_unit;     // "FLOP/s", "OP/s" or "B/s"
  std::string instructions;  // the ISA that reached it ("avx512_bf16", "amx"); "" unrecorded
  std::string method;        // a memory roof's kernel ("copy", "read"); "" for a peak
  MetricSource source = MetricSource::timed;
};

struct OverviewMachine {
  bool known = false;    // a machine model placed the run
  std::string cpu;       // "Intel(R) Xeon(R) Processor, family 6 model 207 (0xcf), 2 cores"
  std::string clock;     // "2.10 GHz measured"
  std::string emulated;  // MachineModel::emulated: "" on the hardware itself
  std::vector<std::string> gpus;
  std::vector<OverviewRoof> compute, memory;
  std::string absent;  // why there are no roofs ("no machine model: ...")
};

// The op a case's table is of: its op, or a foreign result's benchmark (its name's first
// part, "BM_Sgemm" of "BM_Sgemm/512"), which has none.
std::string table_op(const RooflinePlacement& placement);

// The fastest case of one op (table_op) and dtype, not above its roof, with its share of its
// own roof.
struct OverviewBest {
  std::string op, dtype;
  Device device = Device::cpu;
  std::size_t placement = 0;  // the best case
  std::size_t cases = 0;      // placed cases of this op and dtype
  double achieved = 0;        // FLOP/s
  double efficiency = 0;      // of its roof; 0 where it has none
  std::string bound;          // "compute", "DRAM", "" without a roof
};

// Our fastest kernel (a rung of the ladder or a fused kernel) on one problem against the
// fastest vendor library's on the same problem (op, params, dtype, pattern, FP environment,
// threads, device, cache state).
struct OverviewGap {
  std::string problem;  // problem_label and where it ran: "gemm f32 m=512,..., 2 threads"
  std::size_t ours = 0, vendor = 0;  // placements
  double ratio = 0;  // the vendor's time over ours (timed): below 1 the vendor is faster
};

enum class ConcernKind {
  above_roof,     // a point above its roof: bytes or FLOPs undercounted, or a ceiling too low
  failed,         // validation failed, crashed, timed out or errored
  not_placeable,  // ran but could not be placed (a foreign result without FLOPs, ...)
  noisy,          // its timing was disturbed
  throttled,      // a GPU held down its clocks
  collector_off,  // a collector the user asked for did not run
};
std::string_view to_string(ConcernKind kind);

// One kind of problem and every case (or collector) it affects.
struct OverviewConcern {
  ConcernKind kind = ConcernKind::noisy;
  std::vector<std::string>
      what;  // the cases by compact_case_names over the run (collectors: names)
  std::vector<std::size_t> placements;
  std::string why;  // the reason, in words: the first case's, or what holds for all of them
};

// A fusion pair in one line: how much faster the fused kernel is, and the bytes it saves.
struct OverviewFusion {
  std::size_t pair = 0;  // index into FusionAnalysis::pairs
  std::string what;    // "softmax f32 rows=4096,cols=4096, 1 thread, cpu.fused" (", pattern=zeros")
  double speedup = 0;  // unfused / fused time (timed)
  double byte_ratio = 0;   // unfused / fused bytes (analytic); 0 unknown
  double bytes_saved = 0;  // per call, analytic
};

struct Overview {
  std::size_t cases = 0;  // every case of the run, placed or not
  OverviewMachine machine;
  std::vector<OverviewBest> best;         // by device, then op, each op's dtypes in run order
  std::vector<OverviewGap> gaps;          // smallest ratio first
  std::vector<OverviewConcern> concerns;  // in ConcernKind's order; none: nothing to look at
  std::vector<OverviewFusion> fusion;     // largest speedup first
};

Overview make_overview(const std::vector<RooflinePlacement>& placements,
                       const MachineModel* machine, const FusionAnalysis& fusion,
                       const RunContext& context);

// "gemm/cpu.naive/f32/m=512,n=512,k=512/layout=NN/pattern=normal/threads=1" in few words:
// the kernel, and only the parts of its name that vary among `names` (a table's rows), so
// that a table of one op at one size reads "cpu.naive 1t". The full name stays in the
// tooltip and the CSV.
std::vector<std::string> compact_case_names(const std::vector<std::string>& names);

}  // namespace ridgeline
