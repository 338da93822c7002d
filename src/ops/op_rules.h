// An op's rules as data (pure: no GPU): its axes, its default rule and its limit check, one table
// a family-variant. Generic code — benchmark rows, sweeps, the decode step — reads an op through
// its table; a family writes only what differs.
#pragma once

#include <cstdint>
#include <string>

#include "base/device_limits.h"
#include "ops/axis.h"
#include "ops/op_support.h"

namespace refract::ops {

/// A baseline's configuration: the seed's kernels have no tunable axes.
struct NoConfig {};
/// The empty axis table of NoConfig.
const AxisTable<NoConfig>& NoAxes();

/// The rules of one family-variant's op at problem `Shape` with configuration `Config`.
template <typename Shape, typename Config>
struct OpRules {
  const char* what;  ///< the op in messages: "the tuned GEMV"
  const AxisTable<Config>& (*axes)();
  /// The default for `shape` on a device with `limits`, with the axes `settings` names fixed.
  Config (*resolve)(const Shape& shape, const DeviceLimits& limits, const Settings& settings);
  /// Why `config` cannot run at `shape` on a device with `limits`, beyond its axes' own allowed
  /// values (Check tests those first), or nothing.
  Refusal (*check)(const Config& config, const Shape& shape, const DeviceLimits& limits);

  Config Resolve(const Shape& shape, const DeviceLimits& limits,
                 const Settings& settings = {}) const {
    return resolve(shape, limits, settings);
  }
  /// The first axis value its axis does not allow, then `check`.
  Refusal Check(const Config& config, const Shape& shape, const DeviceLimits& limits) const {
    if (auto problem = axes().Disallowed(config)) return std::string(what) + "'s " + *problem;
    return check(config, shape, limits);
  }
};

/// A family's two variants: seed 003's kernel (the baseline, no axes) and refract's tuned op.
template <typename Shape, typename Config>
struct FamilyRules {
  OpRules<Shape, NoConfig> baseline;
  OpRules<Shape, Config> tuned;
};

/// The problem of the element-wise families: which operation, over how many values.
template <typename Kind>
struct CountShape {
  Kind kind{};
  uint64_t count = 0;  ///< values [f32]
};

/// A tuned op whose default is its configuration's initial values, `settings` over them.
template <typename Shape, typename Config, const AxisTable<Config>& (*Axes)()>
Config ResolveFromDefaults(const Shape&, const DeviceLimits&, const Settings& settings) {
  return Axes().With(Config{}, settings);
}

/// A baseline's default: nothing to choose.
template <typename Shape>
NoConfig NoResolve(const Shape&, const DeviceLimits&, const Settings&) {
  return {};
}

}  // namespace refract::ops
