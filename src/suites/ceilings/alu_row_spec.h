// Data that defines one raw-ALU ceilings row (docs/CEILINGS.md "Raw-ALU kernels"): its kernel,
// its op count and its CPU model. One generic runner (alu_row.h) times and verifies them all.
//
// Kernel contract (every src/kernels/ceil_*.wgsl of a raw-ALU row):
//   struct Params { threads: u32, iterations: u32 }
//   @group(0) @binding(0) var<uniform> params: Params;
//   @group(0) @binding(1) var<storage, read_write> out: array<T>;  // T = f32, u32 or i32
//   @compute @workgroup_size(W) fn main(@builtin(global_invocation_id) gid: vec3<u32>), W the
//   spec's workgroup_size (64 unless a row says otherwise)
//   one output word per thread, early return when gid.x >= params.threads; operands derive from
//   the thread index and the loop bound is params.iterations, so nothing folds or hoists.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/verification.h"
#include "bench/requirements.h"

namespace refract::suites::ceilings {

/// Element type of a kernel's `out` array.
enum class OutputType { kF32, kU32, kI32 };

struct AluRowSpec {
  std::string id;      ///< row id, e.g. "f32-fma-scalar"
  std::string kernel;  ///< embedded kernel name (file stem), e.g. "ceil_f32_fma_scalar"
  /// WGSL source to use instead of the embedded `kernel` (tests plant kernels this way).
  std::string source;
  std::string category = "compute";
  std::string unit;                 ///< "FLOP/s" or "OP/s"
  uint32_t ops_per_iteration = 0;   ///< counted ops per thread per loop iteration
  uint32_t default_iterations = 0;  ///< the work knob's maximum
  uint32_t min_iterations = 16;     ///< the work knob's minimum
  uint32_t threads = 1u << 20;      ///< threads of a timed dispatch
  uint32_t workgroup_size = 64;     ///< the kernel's @workgroup_size
  bench::Requirements needs;        ///< features and WGSL language features the kernel uses
  std::string description;          ///< one line for --list
  OutputType output = OutputType::kF32;
  /// CPU model: the expected output of each of `threads` threads after `iterations`.
  std::function<std::vector<double>(uint32_t threads, uint32_t iterations)> model;
  /// How far a GPU value may stray from the model's; exact (both 0) for integer rows.
  Tolerance tolerance;
};

}  // namespace refract::suites::ceilings
