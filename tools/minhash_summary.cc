#include "tools/minhash_summary.h"

#include <cstdio>
#include <cstdlib>

#include "simdex/front_end_text.h"
#include "simdex/minhash.h"

namespace simdex::tools {

Status CheckMinHashDedupFlags(const MinHashDedupOptions& args) {
  if (!(args.threshold > 0 && args.threshold <= 1)) return Status::InvalidArgument("--threshold is not in (0, 1]");
  if (!ValidSignatureBits(args.signature_bits)) {
    return Status::InvalidArgument("--signature-bits " + std::to_string(args.signature_bits) +
                                   " is not 1, 2, 4, 8, 16 or 32");
  }
  if (args.memory_bytes < kMinHashMinMemoryBytes) {
    return Status::InvalidArgument("--memory " + std::to_string(args.memory_bytes) + " is below the minimum of " +
                                   std::to_string(kMinHashMinMemoryBytes) + " bytes of --method minhash");
  }
  if (args.num_perm < 1 || args.num_perm > kMaxNumPerm) {
    return Status::InvalidArgument("--num-perm " + std::to_string(args.num_perm) + " is not 1.." +
                                   std::to_string(kMaxNumPerm));
  }
  const LshBands bands = args.bands.bands > 0 ? args.bands : DefaultLshBands(args.threshold, args.num_perm);
  if (Status s = CheckLshBands(bands, args.num_perm); !s.ok()) {
    return Status::InvalidArgument("--bands " + std::to_string(bands.bands) + " x --rows " +
                                   std::to_string(bands.rows) + " is more than --num-perm " +
                                   std::to_string(args.num_perm) + " values");
  }
  return Status::OK();
}

std::string FormatJ(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

bool ParseEstimateFilter(const std::string& spec, double* estimate_filter) {
  if (spec.empty()) return true;
  if (spec == "off") {
    *estimate_filter = 0;
    return true;
  }
  char* end = nullptr;
  const double j = std::strtod(spec.c_str(), &end);
  if (end == spec.c_str() || *end != '\0' || !(j >= 0 && j <= 1)) return false;
  *estimate_filter = j;
  return true;
}

void PrintMinHashSummary(const MinHashDedupOptions& args, const MinHashDedupStats& s, uint64_t skipped,
                         double seconds) {
  const std::string& confirm = args.confirm;
  const bool exact = args.exact;
  auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  std::fprintf(stderr,
               "simdex dedup: %s (%llu empty, %s skipped), %s; minhash %d values, %d bands x %d rows, threshold %s, "
               "estimate filter %s (%d-bit signatures): %s, %llu kept, %s, %s of %s, %s; %.2f s (self-join %.2f, "
               "filter %.2f)%s\n",
               Count(s.documents, "document").c_str(), u(s.empty), Count(skipped, "bad record").c_str(),
               Count(s.distinct_signatures, "distinct signature").c_str(), args.num_perm, s.bands.bands, s.bands.rows,
               FormatJ(args.threshold).c_str(), s.estimate_filter > 0 ? FormatJ(s.estimate_filter).c_str() : "off",
               args.signature_bits, Count(s.candidates, "candidate pair").c_str(), u(s.kept),
               Count(s.document_pairs, "document pair").c_str(), Count(s.clusters, "cluster").c_str(),
               Count(s.clustered_documents, "document").c_str(), Count(s.duplicates, "duplicate").c_str(), seconds,
               s.seconds_join, s.seconds_filter,
               s.bytes_spilled == 0 ? "" : ("; " + Count(s.bytes_spilled, "byte") + " spilled").c_str());
  if (!args.against.empty()) {
    std::fprintf(stderr, "simdex dedup: against %s: %s with a match\n",
                 Count(args.against.size(), "MinHash-LSH index", "MinHash-LSH indexes").c_str(),
                 Count(s.against_duplicates, "document").c_str());
  }
  if (exact && confirm.empty()) {
    // Without texts read again, the shingles came from the signing.
    char texts[64] = "shingles kept from the signing";
    if (s.confirm.texts_read_again > 0) std::snprintf(texts, sizeof texts, "texts read again in %.3f s", s.confirm.seconds_texts);
    std::fprintf(stderr,
                 "simdex dedup: exact check: %s, %llu at J >= %s by their word 5-shingles, %s (%llu removed); %s, "
                 "checked in %.3f s\n",
                 Count(s.confirm.candidates, "candidate pair").c_str(), u(s.confirm.confirmed),
                 FormatJ(args.threshold).c_str(), ShingleWordsName(args.Signing().shingles.words),
                 u(s.confirm.candidates - s.confirm.confirmed), texts, s.confirm.seconds_confirm);
  } else if (!confirm.empty()) {
    std::fprintf(stderr,
                 "simdex dedup: confirmation: %s, %llu accepted by %s; texts read again in %.3f s, confirmed in "
                 "%.3f s\n",
                 Count(s.confirm.candidates, "candidate pair").c_str(), u(s.confirm.confirmed), confirm.c_str(),
                 s.confirm.seconds_texts, s.confirm.seconds_confirm);
  }
}

}  // namespace simdex::tools
