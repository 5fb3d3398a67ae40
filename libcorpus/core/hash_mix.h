// The one 64-bit mixing hash and seeded generator step of the project
// (splitmix64, Steele, Lea & Flood 2014, as Vigna publishes it).
//
// Everything seeded hashes with these: dropout masks, parameter
// initialisation, batch shuffles and the trainer's seeds (mt), the bootstrap
// resampler's seeding and the n-gram hash tables (eval). Checkpoints resume
// and bootstrap p-values repeat only while these numbers stay bit-identical,
// so the constants must never change.
#pragma once

#include <cstdint>

namespace corpus {

// splitmix64's increment, the 64-bit golden ratio.
inline constexpr uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ULL;

// A bijective mix of x: splitmix64's output for the state x + gamma. Good
// for counter-based randomness (hash of seed + i) and for hash tables.
inline uint64_t mix64(uint64_t x) {
  x += kGoldenGamma;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// splitmix64 as a generator: the next number of the stream in `state`
// (which advances by gamma), for seeding larger generators.
inline uint64_t splitmix64(uint64_t& state) {
  const uint64_t z = mix64(state);
  state += kGoldenGamma;
  return z;
}

}  // namespace corpus
