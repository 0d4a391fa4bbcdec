// Decode-garbage fuzz target for the index readers of both kinds: the input
// is taken as a whole index file (an in-memory file) and opened by the
// SimHash reader, or, when that refuses it as another kind of index
// (InvalidArgument), by the MinHash-LSH reader; when Open() accepts it, it is
// searched (queried) and verified. Any crash, out-of-bounds read
// (AddressSanitizer), undefined behaviour, or error other than Corruption
// (or, from Open, NotSupported for another format version or kind) is a
// bug; so is a file that Verify() accepts and a search then rejects.
//
// Seed corpus: when a corpus directory named on the command line is empty,
// LLVMFuzzerInitialize writes a few small valid indexes into it (several
// schemes, both codecs, the smallest block size, 0 to 200 entries; and
// MinHash-LSH indexes of both codecs and id kinds), so that mutations start
// from real files. scripts/test.sh passes build-fuzz/corpus/fuzz_index_open.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "simdex/index.h"
#include "simdex/lsh_index.h"
#include "tests/index/test_data.h"

namespace {

using simdex::IndexReader;
using simdex::Status;

void Check(bool condition) {
  if (!condition) __builtin_trap();
}

bool OkOrCorruption(const Status& s) { return s.ok() || s.IsCorruption(); }

// Open() may also refuse a header that names another format version.
bool OpenedOrRefused(const Status& s) { return OkOrCorruption(s) || s.IsNotSupported(); }

void WriteSeeds(const std::string& dir) {
  using namespace simdex::testing;
  struct Seed {
    const char* scheme;
    const char* codec;
    std::vector<Entry> entries;
  };
  const Seed seeds[] = {
      {"t4", "card", AssignIds(ClusterFingerprints(20, 9, 1), IdStyle::kNearMax, 2)},
      {"t4", "ef", AssignIds(ClusterFingerprints(20, 9, 1), IdStyle::kNearMax, 2)},
      {"t10", "ef", AssignIds(UniformFingerprints(12, 3), IdStyle::kFullRange, 4)},
      {"32,32:1", "ef", AssignIds(LowBitsFingerprints(60, 10, 5), IdStyle::kAllEqual, 6)},
      {"t20", "card", {}},
      {"64:0", "card", AssignIds(UniformFingerprints(1, 7), IdStyle::kSequential, 8)},
  };
  for (const Seed& seed : seeds) {
    simdex::BuildOptions options;
    options.scheme = SchemeOrDie(seed.scheme);
    options.block_size = 64;
    options.codec = seed.codec;
    std::string name = std::string("seed_") + seed.scheme + "_" + seed.codec + ".sdx";
    for (char& c : name) {
      if (c == ',' || c == ':') c = '_';
    }
    Check(BuildIndex(dir + "/" + name, options, seed.entries).ok());
  }
  // MinHash-LSH indexes: 16 values, 4 bands x 4 rows, clusters of copies;
  // v = 0 and 2 with sketches of 6 hashes (version 6), from shingle sets of
  // 0 to 11 hashes (whole and cut).
  for (int v = 0; v < 3; ++v) {
    simdex::LshBuildOptions options;
    options.minhash.num_perm = 16;
    options.bands = {4, 4};
    options.block_size = 64;
    options.codec = v == 1 ? "card" : "ef";
    options.sketch_k = 6;
    std::unique_ptr<simdex::LshIndexBuilder> builder;
    const std::string name = dir + "/seed_lsh_" + std::to_string(v) + ".sdx";
    Check(simdex::LshIndexBuilder::Create(name, options, &builder).ok());
    std::vector<uint32_t> sig(16);
    std::vector<uint64_t> shingles;
    for (uint32_t d = 0; d < 40u * static_cast<uint32_t>(v); ++d) {
      for (uint32_t i = 0; i < 16; ++i) sig[i] = (d / 3) * 2654435761u + i * (d % 3 == 2 && i % 5 == 0 ? 7 : 1);
      shingles.clear();
      for (uint32_t i = 0; i < d % 12; ++i) shingles.push_back((d / 3 + i) * 0x9E3779B97F4A7C15ull);
      if (v == 2) {
        Check(builder->Add("doc" + std::to_string(d % 17), sig.data(), shingles).ok());
      } else {
        Check(builder->Add(d * 11, sig.data()).ok());
      }
    }
    if (v == 0) {
      sig.assign(16, 5);
      shingles.assign(3, 77);
      Check(builder->Add(1, sig.data(), shingles).ok());  // an index of one document, with sketches
    }
    Check(builder->Finish().ok());
  }
}

// The MinHash-LSH reader on the input, as the SimHash reader below.
void FuzzLsh(const uint8_t* data, size_t size, const simdex::ReaderOptions& options) {
  std::unique_ptr<simdex::LshIndexReader> reader;
  Status s = simdex::LshIndexReader::Open(simdex::NewMemoryFile(std::string(reinterpret_cast<const char*>(data), size)),
                                          options, &reader);
  Check(OpenedOrRefused(s));
  if (!s.ok()) return;
  Status vs = reader->Verify();
  Check(OkOrCorruption(vs));
  const bool valid = vs.ok();
  // Queries: signatures made of the input's own bytes (which include
  // stored values once the input is a real file), and the empty one; the
  // odd ones with shingle sets of its bytes too, which decide on the
  // sketches of a file that has them.
  const size_t num_perm = static_cast<size_t>(reader->minhash_options().num_perm);
  std::vector<uint32_t> sig(num_perm, simdex::kEmptyMinimum);
  std::vector<uint64_t> shingles;
  std::vector<simdex::LshMatch> out;
  for (int q = 0; q < 6; ++q) {
    for (size_t i = 0; i < num_perm && size >= 4; ++i) {
      std::memcpy(&sig[i], data + ((i * 131 + static_cast<size_t>(q) * 977) % (size - 3)), 4);
    }
    shingles.assign(static_cast<size_t>(q) * 3, 0);
    for (size_t i = 0; i < shingles.size() && size >= 8; ++i) {
      std::memcpy(&shingles[i], data + ((i * 61 + static_cast<size_t>(q) * 389) % (size - 7)), 8);
    }
    simdex::LshQueryOptions qo;
    qo.min_estimate = q % 2 == 0 ? -1 : 0;
    Status qs = q % 2 == 0 ? reader->Query(sig.data(), qo, &out) : reader->Query(sig.data(), shingles, qo, &out);
    Check(valid ? qs.ok() : OkOrCorruption(qs));
  }
  (void)reader->Info();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  // Positional arguments are corpus directories (or inputs to replay).
  for (int i = 1; i < *argc; ++i) {
    const char* arg = (*argv)[i];
    std::error_code ec;
    if (arg[0] != '-' && std::filesystem::is_directory(arg, ec) && std::filesystem::is_empty(arg, ec)) {
      WriteSeeds(arg);
    }
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Most permissive options, so that damaged heads and blocks reach the
  // search code instead of being rejected up front.
  simdex::ReaderOptions options;
  options.verify_heads_on_open = false;
  options.verify_block_checksums = false;
  std::unique_ptr<IndexReader> reader;
  Status s = IndexReader::Open(simdex::NewMemoryFile(std::string(reinterpret_cast<const char*>(data), size)),
                               options, &reader);
  if (s.IsInvalidArgument()) {  // another kind of index
    FuzzLsh(data, size, options);
    return 0;
  }
  Check(OpenedOrRefused(s));
  if (!s.ok()) return 0;

  // Queries: the extremes and 8-byte values of the input itself (which
  // include head index entries once the input is a real file).
  std::vector<uint64_t> queries = {0, ~uint64_t{0}};
  for (size_t i = 0; i < 6 && size >= 8; ++i) {
    uint64_t q;
    std::memcpy(&q, data + (size - 8) * i / 5, 8);
    queries.push_back(q);
  }
  Status vs = reader->Verify();
  Check(OkOrCorruption(vs));
  const bool valid = vs.ok();
  const int max_k = reader->scheme().k();
  for (int k : {0, max_k}) {
    for (uint64_t q : queries) {
      std::vector<simdex::Match> out;
      Status qs = reader->Search(q, k, &out);
      Check(valid ? qs.ok() : OkOrCorruption(qs));
    }
    simdex::SearchResults results;
    Status bs = reader->Search(queries, k, &results, 1);
    Check(valid ? bs.ok() : OkOrCorruption(bs));
  }
  (void)reader->Info();
  return 0;
}
