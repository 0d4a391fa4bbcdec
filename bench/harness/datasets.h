// The fingerprint sets and query sets simdex-bench measures on.
//
// Data sets (ids are positions: the id of fps[i] is i):
//   uniform   every fingerprint uniform random over 2^64.
//   clusters  planted near-duplicate clusters: a uniform random centre
//             followed by 0..kMaxClusterSize-1 members (uniform), each member
//             the centre with d distinct bits flipped, d uniform in
//             0..kMaxMemberDistance (d = 0: an exact duplicate of the centre).
//             Clusters hold 8.5 entries on average, and about 22% of all
//             entries (1.875 of 8.5) are exact duplicates of their centre.
//   skewed    every bit independently 1 with probability 1/4 (the AND of two
//             uniform words). Every block of every table is skewed toward 0,
//             so the per-table key distribution is far from the uniform one
//             interpolation search assumes, keys repeat (two entries share a
//             b-bit key with probability 0.625^b: at N = 10^7 and 28-bit keys
//             ~19 entries per probed key instead of ~0.04), and the Huffman
//             code sees long shared prefixes.
//   text      fingerprints of a real corpus, read from a fingerprint file
//             (scripts/bench_text_data.sh makes it): the first N records, so
//             N is capped at the corpus size.
//
// Queries:
//   near      a stored fingerprint (uniform position) with d distinct random
//             bits flipped, d uniform in 0..k: one set per k.
//   random    uniform random 64-bit values (almost never within k of
//             anything stored).
//
// Everything is a deterministic function of its arguments (the seed and,
// for text, the file's contents).
#ifndef SIMDEX_BENCH_HARNESS_DATASETS_H_
#define SIMDEX_BENCH_HARNESS_DATASETS_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/status.h"

namespace simdex::bench {

inline constexpr int kMaxClusterSize = 16;      // centre included
inline constexpr int kMaxMemberDistance = 3;    // bits between a member and its centre

struct Dataset {
  std::string name;            // "uniform", "clusters", "skewed" or "text"
  uint64_t requested_n = 0;    // the N asked for
  std::vector<uint64_t> fps;   // fps.size() < requested_n only for a capped text set
};

// The data set names MakeDataset knows, in the order simdex-bench lists them.
const std::vector<std::string>& DatasetNames();

// Fills *out with the data set `name` of n fingerprints. For "text", reads
// the first n records of the fingerprint file `text_path` (all of them if it
// holds fewer); other sets ignore text_path.
// Returns InvalidArgument for an unknown name or a text set without a path,
// and the reader's error (naming the file) for an unreadable text file.
Status MakeDataset(std::string_view name, uint64_t n, uint64_t seed, const std::string& text_path,
                   Dataset* out);

// The clusters set; if centre_of is not null, (*centre_of)[i] is set to the
// position of entry i's centre (i itself for a centre).
std::vector<uint64_t> GenerateClusters(uint64_t n, uint64_t seed,
                                       std::vector<uint64_t>* centre_of = nullptr);

// `count` near queries for distance k over `fps`. REQUIRES: !fps.empty(),
// 0 <= k <= 64.
std::vector<uint64_t> NearQueries(std::span<const uint64_t> fps, int k, size_t count, uint64_t seed);

// `count` uniform random queries.
std::vector<uint64_t> RandomQueries(size_t count, uint64_t seed);

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_DATASETS_H_
