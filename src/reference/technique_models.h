// CPU models of the technique rows (docs/CEILINGS.md "Technique comparisons", category algorithm):
// the deterministic inputs each row uploads and the results its kernels must produce.
//
// Every float input is chosen so that the kernels' arithmetic is exact in f32 (small multiples
// of a power of two), so a fused multiply-add or a reordered sum gives the same bits; only the
// tile rows' final × (1/9) rounds, once. Integer results are exact (wrapping modulo 2^32).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace refract::reference {

/// A 32-bit multiply–xorshift mix of `index` and `seed`; every technique input derives from it.
uint32_t TechniqueHash(uint32_t index, uint32_t seed);

// ---- workgroup-64 / -128 / -256 --------------------------------------------------------------

/// `count` f32 values k/256 with k in [0, 4096): at most 12 significant bits, so x × a + b with
/// a = 1.5 and b = 0.25 (ceil_workgroup.wgsl's parameters) is exact in f32.
std::vector<float> ScaleAddInput(size_t count);
/// y[i] = x[i] × a + b, each element on its own.
std::vector<float> ScaleAddModel(std::span<const float> x, float a, float b);

// ---- layout-aos / -soa / -aosoa --------------------------------------------------------------

/// Fields of one particle, in this order: px py pz vx vy vz mass age (f32 each).
inline constexpr uint32_t kParticleFields = 8;
/// Particles per block of the array-of-structs-of-arrays layout.
inline constexpr uint32_t kAosoaBlock = 32;

enum class ParticleLayout {
  kAos,    ///< particle p's field f at p × 8 + f
  kSoa,    ///< at f × count + p
  kAosoa,  ///< at ((p / 32) × 8 + f) × 32 + p % 32 (count a multiple of 32)
};

/// Where `field` of `particle` lives in a buffer of `count` particles stored in `layout`
/// [f32 elements].
size_t ParticleIndex(ParticleLayout layout, uint32_t count, uint32_t particle, uint32_t field);

/// `count` particles (a multiple of kAosoaBlock) in `layout`: positions k/256 in [0, 16),
/// velocities k/256 − 8 in [−8, 8), mass and age k/256.
std::vector<float> MakeParticles(ParticleLayout layout, uint32_t count);

/// One update of every particle, in place: p += v × dt per axis. Exact for dt = 1/64 and the
/// values of MakeParticles (plus a few thousand earlier updates).
void AdvanceParticles(ParticleLayout layout, uint32_t count, float dt, std::vector<float>& data);

// ---- tile-direct / -shared / -shared-padded --------------------------------------------------

/// A width × height image (row-major), pixels k/256 with k in [0, 4096).
std::vector<float> MakeImage(uint32_t width, uint32_t height);

/// The 3×3 box filter with clamp-to-edge borders: out = (sum of the 9 neighbours) × (1/9),
/// the sum exact in f32 for MakeImage's pixels, the product rounded once.
std::vector<float> BoxStencil3x3(std::span<const float> image, uint32_t width, uint32_t height);

// ---- reduction-serial / -workgroup / -subgroup -----------------------------------------------

/// `segments` × `length` u32 values in [0, 65536).
std::vector<uint32_t> MakeSegments(uint32_t segments, uint32_t length);

/// The wrapping sum of each consecutive run of `length` values.
std::vector<uint32_t> SegmentSums(std::span<const uint32_t> data, uint32_t length);

// ---- branch-vec4-select / -if ----------------------------------------------------------------

/// `lanes` f32 integers in [0, 2048).
std::vector<float> MakeBranchLanes(uint32_t lanes);

/// One conditional step: x < 1024 ? x × 2 + 1 : x × 2 − 2048. A bijection of the integers in
/// [0, 2048) (a twisted ring counter on 11 bits), exact in f32.
float BranchStep(float x);

/// Every lane after `steps` BranchSteps.
std::vector<float> BranchModel(std::span<const float> lanes, uint32_t steps);

// ---- atomic-direct / -workgroup / -sharded ---------------------------------------------------

inline constexpr uint32_t kHistogramBins = 32;

/// `count` keys in [0, 32): a key is 0 when a hash bit says so (half the keys on average),
/// else uniform over 1..31; so bin 0 gets about half.
std::vector<uint32_t> MakeHistogramKeys(uint32_t count);

/// Counts of each key, kHistogramBins bins.
std::vector<uint32_t> Histogram32(std::span<const uint32_t> keys);

// ---- read-dependent-chain --------------------------------------------------------------------

/// A permutation of [0, count) forming a single cycle (Sattolo's algorithm, driven by a
/// splitmix64 generator seeded with `seed`): next[i] is the index after i. count ≥ 2.
std::vector<uint32_t> SattoloPermutation(uint32_t count, uint64_t seed);

/// Where each of `chains` walks ends: chain t starts at t × start_stride and follows `next`
/// `hops` times.
std::vector<uint32_t> ChainEnds(std::span<const uint32_t> next, uint32_t chains,
                                uint32_t start_stride, uint32_t hops);

}  // namespace refract::reference
