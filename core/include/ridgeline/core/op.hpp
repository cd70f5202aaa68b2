#pragma once
// The op model: every computation the suite measures is an op registered in core
// (docs/adding-an-op.md). An op declares its named integer dimensions and attributes, its
// operands, the label its cases are named by, and its work model: FLOPs, the compulsory
// bytes of the fused computation, and the bytes of the same computation done the eager
// way, as a chain of separate passes that each read and write memory. Nothing outside an
// op's definition spells its dimensions: plans, names, analysis and reports ask here.
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ridgeline/core/dtype.hpp"
#include "ridgeline/core/op_reference.hpp"
#include "ridgeline/core/work_model.hpp"

namespace ridgeline {

struct Problem;

// A problem's named dimensions ("m" -> 1024) and attributes ("act" -> "gelu_tanh").
struct OpParams {
  std::map<std::string, std::int64_t> dims;
  std::map<std::string, std::string> attrs;
  bool operator==(const OpParams&) const = default;
  // The value; std::logic_error when absent (the op's definition guarantees it is there).
  std::int64_t dim(std::string_view name) const;
  const std::string& attr(std::string_view name) const;
};

struct DimSpec {
  std::string name;
  std::int64_t min = 1;
  std::optional<std::int64_t> default_value;  // a dim with a default may be left out
  std::string meaning;
  std::optional<std::int64_t> max;
};

struct AttrSpec {
  std::string name;
  // The accepted values, the first the default. A free-form attribute: its default, if any
  // (none: the attribute must be given).
  std::vector<std::string> values;
  std::string meaning;
  // A free-form attribute (an einsum equation, a list of activations) takes any text this
  // accepts: "" when it does, else the reason, which the error names. Written in double
  // quotes where it holds , / = " \ or a space: equation="bthr,bThr->bhtT".
  std::string (*check)(std::string_view value) = nullptr;
  bool free_form() const { return check != nullptr; }
};

enum class OperandRole { input, weight, output };
std::string_view to_string(OperandRole role);

// One buffer of a problem: `elements` values of `dtype`, with the dims that shape it.
struct OperandSpec {
  std::string name;
  OperandRole role = OperandRole::input;
  std::vector<std::string> dims;  // e.g. {"rows", "cols"}; a count of 1 for an empty list
  std::int64_t elements = 0;
  DType dtype = DType::f32;
};

// One pass of an unfused chain through memory, as the unfused kernels run it: the FLOPs it
// executes (masked entries included) and the bytes it reads and writes.
struct PassWork {
  std::string name;  // "exp", "scores_gemm": unique within the chain
  WorkModel work;
};

struct OpDefinition {
  std::string name;  // "softmax"
  std::string description;
  std::vector<DimSpec> dims;
  std::vector<AttrSpec> attrs;
  std::vector<DType> dtypes;  // what the op is defined for
  std::string example;        // a small problem's params, "rows=64,cols=64": availability checks
  // Small problems that reach a kernel's edge paths (one element, tails of every vector
  // width, blocks crossed, each attribute): every kernel of the op is tested on each
  // (tests/kernels/conformance_test.cpp).
  std::vector<std::string> awkward;
  std::vector<OperandSpec> (*operands)(const Problem& problem) = nullptr;
  // FLOPs and the compulsory bytes of the fused computation (each operand once).
  WorkModel (*work)(const Problem& problem) = nullptr;
  // The chain an eager framework runs, pass by pass in order; null for an op of one step.
  std::vector<PassWork> (*unfused_passes)(const Problem& problem) = nullptr;
  // A rule over the params together, checked after each one alone (einsum: every index of
  // the equation has an extent): "" where they hold, else the reason in one line.
  std::string (*consistent)(const OpParams& params) = nullptr;
  // Largest accepted error relative to the reference's scale (per op: a softmax or a
  // normalisation errs differently from a long dot product), for the problem's dtype.
  double (*tolerance)(const Problem& problem) = nullptr;
  // Its reference check, which validation runs on every case before timing it
  // (op_reference.hpp): a shipped check's kind, or an op's own function.
  OpReference reference;
  // An op only a caller measures (callable: a Python function's case): no kernel, no
  // reference, no awkward problems; the checks of the suite's ops pass it by.
  bool measured_by_caller = false;
};

// Every registered op, in a fixed order (core/src/op_definitions/registry.cpp), then any added by
// register_op. A deque: references to an op stay valid when one is added.
const std::deque<OpDefinition>& op_registry();
// Adds an op after the shipped ones: a test's own op (tests/runner/worked_example_test.cpp),
// registered before any case of it is built. InputError when the name is taken.
void register_op(OpDefinition op);
const OpDefinition* find_op(std::string_view name);
// The definition, or InputError "unknown op 'x' (known: gemm, softmax, ...)".
const OpDefinition& op_definition(std::string_view name);

// The params completed with defaults and checked against the op: an unknown or missing
// dimension, a dimension below its minimum, an unknown attribute or value is InputError
// with one line naming the op and the parameter.
OpParams checked_params(const OpDefinition& op, const OpParams& given);

// "m=1024,n=1024,k=1024/layout=NN": the dims (those equal to their default left out), then
// each attribute as its own segment, a free-form value quoted where it must be. Case names
// and tables use it; parse_params reads it back.
std::string params_label(const Problem& problem);
std::string params_label(const OpDefinition& op, const OpParams& params);
// The value as the params grammar writes it: as is, or in double quotes with '"' and '\'
// escaped where it holds a separator, '=', a quote, a backslash or white space, or is empty.
std::string quoted_param(std::string_view value);
// Parses "rows=4096,cols=4096/causal=1" (or with ',' between attributes too) for `op`,
// then checks it: InputError on anything the op does not declare. A quoted value
// (equation="ij,jk->ik") may hold the separators.
OpParams parse_params(const OpDefinition& op, std::string_view text);
// Applies "name=value,..." to the problem when its op declares every name in it, and says
// so; false, the problem unchanged, when it does not. InputError on a value the op refuses.
bool apply_params(Problem& problem, std::string_view overrides);

// The op's small example problem in `dtype` (pattern normal).
Problem example_problem(const OpDefinition& op, DType dtype);

// The op's work model for the problem: fused (compulsory bytes) and as a chain of passes
// (the op's FLOPs, the useful work, and the bytes of every pass together; op_work for an
// op of one step).
WorkModel op_work(const Problem& problem);
WorkModel op_unfused_work(const Problem& problem);
// The work a kernel of `role` records: op_unfused_work for an unfused chain (every
// intermediate through memory), op_work for any other; one byte count per pass, whether the
// kernel ran or not.
WorkModel role_work(const Problem& problem, KernelRole role);
// The unfused chain's passes; empty for an op of one step.
std::vector<PassWork> op_unfused_passes(const Problem& problem);
// The bytes a call of the unfused chain touches at least: its operands (op_work's bytes) or,
// where more, half the largest pass's bytes (a pass reads and writes at most one buffer in
// place): attention's scores. The working set that decides which level an unfused case's
// bytes stream from. op_work's bytes for an op of one step.
double op_unfused_footprint(const Problem& problem);
// The name of the metric that holds a pass's seconds per call: "pass_time.3.exp" for the
// pass at `index` 2 (the name counts from 1), so a reader finds it from the op's passes.
std::string pass_time_metric(std::size_t index, const std::string& pass);
// Beside each pass's time, its work as the kernel modelled it (analytic): "pass_bytes.3.exp"
// (bytes at main memory) and "pass_flops.3.exp", so a reader places a lowering's own passes
// without knowing its kernel.
std::string pass_bytes_metric(std::size_t index, const std::string& pass);
std::string pass_flops_metric(std::size_t index, const std::string& pass);

// Bytes of every operand together: what a case allocates.
std::uint64_t operand_bytes(const Problem& problem);

}  // namespace ridgeline
