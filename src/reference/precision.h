// The float types the ceilings kernels compute in, and the models written once for both: an
// f16 kernel is its f32 twin with every operation rounded to f16.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace refract::reference {

enum class Precision { kF32, kF16 };

/// A model of a kernel written for both precisions: out[0 .. threads) of one dispatch of
/// `iterations` iterations.
using FloatModel = std::vector<double> (*)(Precision precision, uint32_t threads,
                                           uint32_t iterations);

/// `model` at `precision`, a model of (threads, iterations) as a row's spec holds one.
inline std::function<std::vector<double>(uint32_t threads, uint32_t iterations)> ModelAt(
    FloatModel model, Precision precision) {
  return [model, precision](uint32_t threads, uint32_t iterations) {
    return model(precision, threads, iterations);
  };
}

}  // namespace refract::reference
