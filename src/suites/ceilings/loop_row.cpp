#include "suites/ceilings/loop_row.h"

#include <string>
#include <utility>

#include "base/error.h"

namespace refract::suites::ceilings {

LoopRow::LoopRow(bench::BenchmarkInfo info, uint32_t min_iterations, uint32_t max_iterations)
    : info_(std::move(info)),
      min_iterations_(min_iterations),
      max_iterations_(max_iterations),
      iterations_(max_iterations) {}

void LoopRow::SetWork(uint64_t work) {
  REFRACT_THROW_IF(work < min_iterations_ || work > max_iterations_, Error,
                   info_.id + ": iterations " + std::to_string(work) + " out of range");
  iterations_ = static_cast<uint32_t>(work);
  if (context_ && params_) WriteParams(*context_, params_);
}

void LoopRow::Release() {
  dispatch_ = {};
  params_ = {};
}

void LoopRow::SetPrepared(gpu::Context& context, gpu::Buffer params, gpu::Dispatch dispatch) {
  context_ = &context;
  params_ = std::move(params);
  dispatch_ = std::move(dispatch);
}

}  // namespace refract::suites::ceilings
