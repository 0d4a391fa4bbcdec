#include "bench/harness/datasets.h"

#include <memory>
#include <random>

#include "simdex/fingerprint_file.h"

namespace simdex::bench {
namespace {

// Each data set and query set draws from its own stream, so that adding a
// set or changing one's size never changes another's values.
enum Stream : uint64_t { kUniform = 1, kClusters, kSkewed, kNear, kRandom };

std::mt19937_64 StreamRng(uint64_t seed, uint64_t stream, uint64_t sub = 0) {
  std::seed_seq seq{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                    static_cast<uint32_t>(stream), static_cast<uint32_t>(sub)};
  return std::mt19937_64(seq);
}

// x with d distinct bits flipped, chosen uniformly.
uint64_t FlipDistinctBits(uint64_t x, int d, std::mt19937_64& rng) {
  uint64_t flipped = 0;
  while (__builtin_popcountll(flipped) < d) flipped |= uint64_t{1} << (rng() % 64);
  return x ^ flipped;
}

Status ReadText(const std::string& path, uint64_t n, std::vector<uint64_t>* fps) {
  if (path.empty()) {
    return Status::InvalidArgument(
        "the text data set needs a fingerprint file (--text-fingerprints; scripts/bench_text_data.sh makes one)");
  }
  std::unique_ptr<FingerprintFileReader> reader;
  SIMDEX_RETURN_IF_ERROR(FingerprintFileReader::Open(path, FingerprintFileReaderOptions(), &reader));
  std::vector<FingerprintRecord> buffer(1 << 16);
  while (fps->size() < n) {
    size_t got = 0;
    SIMDEX_RETURN_IF_ERROR(reader->Read(buffer.data(), buffer.size(), &got));
    if (got == 0) break;
    for (size_t i = 0; i < got && fps->size() < n; ++i) fps->push_back(buffer[i].fingerprint);
  }
  if (fps->empty()) return Status::InvalidArgument(path + ": no fingerprints for the text data set");
  return Status::OK();
}

}  // namespace

const std::vector<std::string>& DatasetNames() {
  static const std::vector<std::string> names = {"uniform", "clusters", "skewed", "text"};
  return names;
}

std::vector<uint64_t> GenerateClusters(uint64_t n, uint64_t seed, std::vector<uint64_t>* centre_of) {
  std::mt19937_64 rng = StreamRng(seed, kClusters);
  std::vector<uint64_t> fps;
  fps.reserve(n);
  if (centre_of) centre_of->clear();
  while (fps.size() < n) {
    const uint64_t centre_pos = fps.size();
    const uint64_t centre = rng();
    const int size = 1 + static_cast<int>(rng() % kMaxClusterSize);
    fps.push_back(centre);
    if (centre_of) centre_of->push_back(centre_pos);
    for (int m = 1; m < size && fps.size() < n; ++m) {
      const int d = static_cast<int>(rng() % (kMaxMemberDistance + 1));
      fps.push_back(FlipDistinctBits(centre, d, rng));
      if (centre_of) centre_of->push_back(centre_pos);
    }
  }
  return fps;
}

Status MakeDataset(std::string_view name, uint64_t n, uint64_t seed, const std::string& text_path,
                   Dataset* out) {
  out->name = std::string(name);
  out->requested_n = n;
  out->fps.clear();
  if (name == "uniform") {
    std::mt19937_64 rng = StreamRng(seed, kUniform);
    out->fps.resize(n);
    for (uint64_t& fp : out->fps) fp = rng();
  } else if (name == "clusters") {
    out->fps = GenerateClusters(n, seed);
  } else if (name == "skewed") {
    std::mt19937_64 rng = StreamRng(seed, kSkewed);
    out->fps.resize(n);
    for (uint64_t& fp : out->fps) {
      const uint64_t a = rng();
      fp = a & rng();
    }
  } else if (name == "text") {
    return ReadText(text_path, n, &out->fps);
  } else {
    return Status::InvalidArgument("unknown data set '" + std::string(name) +
                                   "' (uniform, clusters, skewed or text)");
  }
  return Status::OK();
}

std::vector<uint64_t> NearQueries(std::span<const uint64_t> fps, int k, size_t count, uint64_t seed) {
  std::mt19937_64 rng = StreamRng(seed, kNear, static_cast<uint64_t>(k));
  std::vector<uint64_t> queries(count);
  for (uint64_t& q : queries) {
    const uint64_t stored = fps[rng() % fps.size()];
    q = FlipDistinctBits(stored, static_cast<int>(rng() % (k + 1)), rng);
  }
  return queries;
}

std::vector<uint64_t> RandomQueries(size_t count, uint64_t seed) {
  std::mt19937_64 rng = StreamRng(seed, kRandom);
  std::vector<uint64_t> queries(count);
  for (uint64_t& q : queries) q = rng();
  return queries;
}

}  // namespace simdex::bench
