// simdex-lsh-bench: MinHash-LSH index files (include/simdex/lsh_index.h) of
// N synthetic documents: build time and peak memory of the builder, bytes
// per document per part against the information in the band keys, and
// warm query latency, beside a baseline measured in the same run: the same
// band keys held uncompressed in RAM, one sorted (key, document) array per
// band searched by binary search (what an in-memory LSH with sorted
// buckets does; datasketch's dict of lists is larger and no faster).
//
// Documents: clusters of 1 to 4 copies of a random signature, each copy
// with about 15% of its values redrawn (J about 0.74 with its source:
// banded together often, not always), ids 0..N-1 in a scrambled order
// (document i has id (a i + b) mod N, a coprime with N; no array of N ids in
// the bench's memory). Queries:
// Q documents of the index (each finds at least itself), run once to warm
// the page cache and the CPU caches, then timed one at a time.
//
// Prints one JSON line. Usage:
//   simdex-lsh-bench [--n 1e6] [--queries 20000] [--bands 16] [--rows 8]
//                    [--codec ef] [--block-size 4096] [--dir /tmp] [--keep 0|1] [--baseline 1|0]
//                    [--memory 1G] [--tmpdir DIR] [--open FILE]
// --memory is the builder's budget (LshBuildOptions::memory_bytes; K, M, G
// suffixes), --tmpdir its scratch directory (default: --dir). The bound
// the sizes are held against: per banded document and band its key bits
// (64 - ordinal bits), and log2(N!) / N bits per id (a permutation).
// --open FILE skips the build and queries FILE, an index this bench wrote
// with the same --n (and --keep 1): the queries are the same documents, so
// that two builds of the reader can be timed on one file (build_s, sign_s
// and the build's memory are then 0).
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "simdex/lsh_index.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Args {
  double n = 1e6;
  size_t queries = 20000;
  int bands = 16, rows = 8;
  std::string codec = "ef";
  uint32_t block_size = 4096;
  std::string dir = "/tmp";
  bool keep = false;
  bool baseline = true;  // --baseline 0: skip it (320 bytes per document in RAM)
  size_t memory = size_t{1} << 30;
  std::string tmpdir;
  std::string open;  // --open: query this file instead of building one
};

size_t ParseBytes(const std::string& v) {
  size_t end = 0;
  const double x = std::stod(v, &end);
  const std::string unit = v.substr(end);
  const double scale = unit.empty() ? 1 : unit == "K" ? 1024.0 : unit == "M" ? 1048576.0 : unit == "G" ? 1073741824.0 : -1;
  if (scale < 0) {
    std::fprintf(stderr, "simdex-lsh-bench: --memory %s: not a size (K, M, G)\n", v.c_str());
    std::exit(1);
  }
  return static_cast<size_t>(x * scale);
}

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "simdex-lsh-bench: %s\n", what.c_str());
  std::exit(1);
}

Args Parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--n") a.n = std::stod(v);
    else if (k == "--queries") a.queries = std::stoul(v);
    else if (k == "--bands") a.bands = std::stoi(v);
    else if (k == "--rows") a.rows = std::stoi(v);
    else if (k == "--codec") a.codec = v;
    else if (k == "--block-size") a.block_size = static_cast<uint32_t>(std::stoul(v));
    else if (k == "--dir") a.dir = v;
    else if (k == "--keep") a.keep = v == "1";
    else if (k == "--baseline") a.baseline = v == "1";
    else if (k == "--memory") a.memory = ParseBytes(v);
    else if (k == "--tmpdir") a.tmpdir = v;
    else if (k == "--open") a.open = v;
    else Die("unknown option " + k);
  }
  return a;
}

double Seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

double PeakRssMb() {
  rusage u;
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(v.size())));
  return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
}

// Document i's signature: a source per cluster, values redrawn per copy.
class Documents {
 public:
  Documents(uint64_t n, int num_perm) : n_(n), num_perm_(num_perm) {}
  void Signature(uint64_t i, uint32_t* out) const {
    // Documents 4g .. 4g + size - 1 are copies of document 4g (size 1 to 4).
    const uint64_t cluster = i % 4 < 1 + Mix(i / 4) % 4 ? i / 4 * 4 : i;
    std::mt19937_64 source(Mix(cluster));
    std::mt19937_64 edits(Mix(i) ^ 0xabcdef);
    for (int v = 0; v < num_perm_; ++v) {
      const uint32_t original = static_cast<uint32_t>(source());
      out[v] = (i != cluster && edits() % 100 < 15) ? static_cast<uint32_t>(edits()) : original;
    }
  }
  static uint64_t Mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
  }

 private:
  uint64_t n_;
  int num_perm_;
};

}  // namespace

int main(int argc, char** argv) {
  using namespace simdex;
  const Args args = Parse(argc, argv);
  const uint64_t n = static_cast<uint64_t>(args.n);
  LshBuildOptions options;
  options.bands = {args.bands, args.rows};
  options.codec = args.codec;
  options.block_size = args.block_size;
  options.memory_bytes = args.memory;
  options.tmpdir = args.tmpdir.empty() ? args.dir : args.tmpdir;
  const int num_perm = options.minhash.num_perm;
  const Documents docs(n, num_perm);
  const std::string path = !args.open.empty() ? args.open : args.dir + "/simdex-lsh-bench-" + std::to_string(n) + ".sdx";

  // Ids: (a i + b) mod n, a bijection of 0..n-1 for a coprime with n.
  uint64_t id_mul = n > 1 ? Documents::Mix(n) % n : 1;
  while (n > 1 && std::gcd(id_mul, n) != 1) id_mul = (id_mul + 1) % n;
  const uint64_t id_add = n > 0 ? Documents::Mix(n + 1) % n : 0;
  __extension__ typedef unsigned __int128 Wide;  // (a i + b) mod n without overflow
  auto id_of = [&](uint64_t i) { return static_cast<uint64_t>((static_cast<Wide>(id_mul) * i + id_add) % n); };

  const double rss_before = PeakRssMb();
  auto start = Clock::now();
  Status s;
  std::vector<uint32_t> sig(num_perm);
  double seconds_sign = 0;
  LshBuildStats build_stats;
  if (args.open.empty()) {
    std::unique_ptr<LshIndexBuilder> builder;
    if (!(s = LshIndexBuilder::Create(path, options, &builder)).ok()) Die(s.ToString());
    for (uint64_t i = 0; i < n; ++i) {
      const auto t0 = Clock::now();
      docs.Signature(i, sig.data());
      seconds_sign += Seconds(t0);
      if (!(s = builder->Add(id_of(i), sig.data())).ok()) Die(s.ToString());
    }
    if (!(s = builder->Finish()).ok()) Die(s.ToString());
    build_stats = builder->stats();
  }
  const double seconds_build = args.open.empty() ? Seconds(start) - seconds_sign : 0;
  const double rss_build = args.open.empty() ? PeakRssMb() : 0;

  std::unique_ptr<LshIndexReader> reader;
  if (!(s = LshIndexReader::Open(path, ReaderOptions(), &reader)).ok()) Die(s.ToString());
  const LshIndexInfo info = reader->Info();
  if (info.documents != n) Die(path + " holds " + std::to_string(info.documents) + " documents, not --n's " + std::to_string(n));
  uint64_t table_bytes = 0, payload_bits = 0;
  for (const auto& t : info.tables) {
    table_bytes += t.bytes;
    payload_bits += t.payload_bits;
  }

  // Queries: documents of the index, spread over it.
  std::mt19937_64 rng(11);
  std::vector<uint64_t> picked(args.queries);
  for (auto& q : picked) q = rng() % n;
  std::vector<std::vector<uint32_t>> queries(args.queries, std::vector<uint32_t>(num_perm));
  for (size_t q = 0; q < args.queries; ++q) docs.Signature(picked[q], queries[q].data());

  std::vector<LshMatch> found;
  LshQueryOptions qo;
  for (const auto& q : queries) {
    if (!(s = reader->Query(q.data(), qo, &found)).ok()) Die(s.ToString());
  }
  std::vector<double> micros;
  LshQueryStats stats;
  uint64_t matches = 0;
  for (const auto& q : queries) {
    const auto t0 = Clock::now();
    s = reader->Query(q.data(), qo, &found, &stats);
    micros.push_back(Seconds(t0) * 1e6);
    if (!s.ok()) Die(s.ToString());
    matches += found.size();
  }

  // The baseline: per band a sorted array of (key, document), in RAM.
  start = Clock::now();
  const LshBands bands = options.bands;
  std::vector<std::vector<std::pair<uint64_t, uint32_t>>> arrays(bands.bands);
  const uint64_t nb = args.baseline ? n : 0;  // the baseline's documents
  for (auto& array : arrays) array.reserve(nb);
  std::vector<uint64_t> keys(bands.bands);
  std::vector<uint8_t> packed(nb * PackedSignatureBytes(num_perm, options.signature_bits));
  const size_t sb = PackedSignatureBytes(num_perm, options.signature_bits);
  for (uint64_t i = 0; i < nb; ++i) {
    docs.Signature(i, sig.data());
    BandKeys(sig.data(), bands, keys.data());
    PackSignature(sig.data(), num_perm, options.signature_bits, packed.data() + i * sb);
    for (int j = 0; j < bands.bands; ++j) arrays[j].emplace_back(keys[j], static_cast<uint32_t>(i));
  }
  for (auto& array : arrays) std::sort(array.begin(), array.end());
  const double seconds_baseline_build = Seconds(start);
  const double filter = DefaultEstimateFilter(options.threshold, num_perm);
  std::vector<double> base_micros;
  std::vector<uint32_t> cands;
  std::vector<uint8_t> qpacked(sb);
  uint64_t base_matches = 0;
  for (int pass = 0; pass < (args.baseline ? 2 : 0); ++pass) {
    base_micros.clear();
    base_matches = 0;
    for (const auto& q : queries) {
      const auto t0 = Clock::now();
      BandKeys(q.data(), bands, keys.data());
      PackSignature(q.data(), num_perm, options.signature_bits, qpacked.data());
      cands.clear();
      for (int j = 0; j < bands.bands; ++j) {
        auto it = std::lower_bound(arrays[j].begin(), arrays[j].end(), std::make_pair(keys[j], uint32_t{0}));
        for (; it != arrays[j].end() && it->first == keys[j]; ++it) cands.push_back(it->second);
      }
      std::sort(cands.begin(), cands.end());
      cands.erase(std::unique(cands.begin(), cands.end()), cands.end());
      for (uint32_t c : cands) {
        base_matches += EstimateJaccardPacked(qpacked.data(), packed.data() + c * sb, num_perm,
                                              options.signature_bits) >= filter;
      }
      base_micros.push_back(Seconds(t0) * 1e6);
    }
  }
  const double baseline_bytes = static_cast<double>(bands.bands) * 16 + static_cast<double>(sb);

  const double dn = static_cast<double>(n);
  const double key_bound_bytes = static_cast<double>(bands.bands) * static_cast<double>(info.banded) *
                                 (64 - info.ordinal_bits) / 8;
  const double id_bound_bytes = std::lgamma(dn + 1) / std::log(2.0) / 8;
  std::printf(
      "{\"memory\":%zu,\"spilled_runs\":%llu,\"spilled_bytes\":%llu,\"band_key_bound_bytes_per_doc\":%.2f,"
      "\"id_bound_bytes_per_doc\":%.2f,\"tables_and_ids_to_bound\":%.4f,",
      args.memory, static_cast<unsigned long long>(build_stats.spilled_runs),
      static_cast<unsigned long long>(build_stats.spilled_bytes), key_bound_bytes / dn, id_bound_bytes / dn,
      (static_cast<double>(table_bytes) + static_cast<double>(info.id_bytes)) / (key_bound_bytes + id_bound_bytes));
  std::printf(
      "\"n\":%llu,\"bands\":%d,\"rows\":%d,\"codec\":\"%s\",\"block_size\":%u,\"threads\":1,"
      "\"build_s\":%.2f,\"sign_s\":%.2f,\"peak_rss_mb_build\":%.0f,\"rss_mb_before\":%.0f,"
      "\"file_bytes\":%llu,\"bytes_per_doc\":%.2f,\"band_table_bytes_per_doc\":%.2f,"
      "\"band_table_bits_per_key\":%.2f,\"key_bits\":%d,\"ratio_to_key_bits\":%.4f,\"payload_ratio_to_key_bits\":%.4f,"
      "\"signature_bytes_per_doc\":%.2f,\"id_bytes_per_doc\":%.2f,"
      "\"queries\":%zu,\"query_p50_us\":%.2f,\"query_p99_us\":%.2f,\"query_mean_us\":%.2f,"
      "\"blocks_per_query\":%.2f,\"candidates_per_query\":%.2f,\"matches_per_query\":%.2f,"
      "\"baseline_build_s\":%.2f,\"baseline_bytes_per_doc\":%.1f,\"baseline_p50_us\":%.2f,\"baseline_p99_us\":%.2f,"
      "\"baseline_matches_per_query\":%.2f,\"p50_ratio_to_baseline\":%.2f}\n",
      static_cast<unsigned long long>(n), bands.bands, bands.rows, args.codec.c_str(), args.block_size, seconds_build,
      seconds_sign, rss_build, rss_before, static_cast<unsigned long long>(info.total_bytes),
      static_cast<double>(info.total_bytes) / dn, static_cast<double>(table_bytes) / dn,
      static_cast<double>(table_bytes) * 8 / dn / bands.bands, 64 - info.ordinal_bits,
      static_cast<double>(table_bytes) * 8 / dn / bands.bands / (64 - info.ordinal_bits),
      static_cast<double>(payload_bits) / dn / bands.bands / (64 - info.ordinal_bits),
      static_cast<double>(info.signature_bytes) / dn, static_cast<double>(info.id_bytes + info.id_map_bytes) / dn,
      args.queries, Percentile(micros, 0.5), Percentile(micros, 0.99),
      [&] {
        double t = 0;
        for (double m : micros) t += m;
        return t / static_cast<double>(micros.size());
      }(),
      static_cast<double>(stats.blocks_decoded) / static_cast<double>(args.queries),
      static_cast<double>(stats.candidates) / static_cast<double>(args.queries),
      static_cast<double>(matches) / static_cast<double>(args.queries), seconds_baseline_build, baseline_bytes,
      Percentile(base_micros, 0.5), Percentile(base_micros, 0.99),
      static_cast<double>(base_matches) / static_cast<double>(args.queries),
      args.baseline ? Percentile(micros, 0.5) / Percentile(base_micros, 0.5) : 0.0);
  if (!args.keep && args.open.empty()) std::filesystem::remove(path);
  return 0;
}
