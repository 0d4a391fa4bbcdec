// The CTest fixture of capi_lsh_test: writes OUT_DIR/signatures.txt (one
// document a line: its id, then its 32 signature values in hex, separated by
// spaces) and two MinHash-LSH indexes of those documents through
// LshIndexBuilder: lsh.sdx (numeric ids; 8 bands x 4 rows, 4-bit
// signatures, 64-byte blocks, so that queries cross block boundaries) and
// lsh_strings.sdx (the same documents under the string ids "doc-<id>").
// The signatures are drawn from a fixed SplitMix64 seed: clusters of one to
// four copies of a random signature, each copy with some values redrawn, and
// two empty signatures. Usage: capi_lsh_fixture OUT_DIR
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "base/split_mix.h"
#include "simdex/lsh_index.h"

namespace {

constexpr int kNumPerm = 32;
constexpr int kDocuments = 600;

simdex::Status Build(const std::string& path, bool string_ids, const std::vector<uint64_t>& ids,
                     const std::vector<uint32_t>& signatures) {
  simdex::LshBuildOptions options;
  options.minhash.num_perm = kNumPerm;
  options.bands = {8, 4};
  options.block_size = 64;
  options.string_ids = string_ids;
  std::unique_ptr<simdex::LshIndexBuilder> builder;
  SIMDEX_RETURN_IF_ERROR(simdex::LshIndexBuilder::Create(path, options, &builder));
  for (size_t i = 0; i < ids.size(); ++i) {
    const uint32_t* signature = signatures.data() + i * kNumPerm;
    if (string_ids) {
      SIMDEX_RETURN_IF_ERROR(builder->Add("doc-" + std::to_string(ids[i]), signature));
    } else {
      SIMDEX_RETURN_IF_ERROR(builder->Add(ids[i], signature));
    }
  }
  return builder->Finish();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: capi_lsh_fixture OUT_DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  uint64_t state = 21;
  std::vector<uint64_t> ids;
  std::vector<uint32_t> signatures;
  while (ids.size() < kDocuments - 2) {
    std::vector<uint32_t> base(kNumPerm);
    for (uint32_t& v : base) v = static_cast<uint32_t>(simdex::base::SplitMix64(&state));
    const int copies = 1 + static_cast<int>(simdex::base::SplitMix64(&state) % 4);
    for (int c = 0; c < copies; ++c) {
      const uint64_t redraw_per_64 = simdex::base::SplitMix64(&state) % 20;  // 0 to 30% of the values
      for (int i = 0; i < kNumPerm; ++i) {
        const bool redraw = simdex::base::SplitMix64(&state) % 64 < redraw_per_64;
        signatures.push_back(redraw ? static_cast<uint32_t>(simdex::base::SplitMix64(&state)) : base[i]);
      }
      ids.push_back(5000 + 7 * ids.size());
    }
  }
  ids.resize(kDocuments - 2);
  signatures.resize(ids.size() * kNumPerm);
  for (int e = 0; e < 2; ++e) {
    ids.push_back(5000 + 7 * ids.size());
    signatures.insert(signatures.end(), kNumPerm, simdex::kEmptyMinimum);
  }
  std::FILE* f = std::fopen((dir + "/signatures.txt").c_str(), "w");
  if (f == nullptr) {
    std::perror("signatures.txt");
    return 1;
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    std::fprintf(f, "%" PRIu64, ids[i]);
    for (int j = 0; j < kNumPerm; ++j) std::fprintf(f, " %08" PRIx32, signatures[i * kNumPerm + j]);
    std::fprintf(f, "\n");
  }
  if (std::fclose(f) != 0) return 1;
  for (bool string_ids : {false, true}) {
    const simdex::Status s = Build(dir + (string_ids ? "/lsh_strings.sdx" : "/lsh.sdx"), string_ids, ids, signatures);
    if (!s.ok()) {
      std::fprintf(stderr, "capi_lsh_fixture: %s\n", s.ToString().c_str());
      return 1;
    }
  }
  return 0;
}
