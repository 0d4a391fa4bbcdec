// The C interface's options init functions give the library's defaults:
// every field of simdex_minhash_dedup_options_init,
// simdex_simhash_dedup_options_init, simdex_lsh_query_options_init,
// simdex_merge_options_init and simdex_open_options_init against a
// default-constructed
// MinHashDedupOptions, SimHashDedupOptions (with its FingerprintOptions),
// LshQueryOptions, MergeOptions and ReaderOptions, so that no default is
// written twice (issue 38, item 4). Exits 0 when every check passes.
#include <cstdint>

#include "simdex/batch.h"
#include "simdex/fingerprint.h"
#include "simdex/index_file.h"
#include "simdex/lsh_index.h"
#include "simdex/merge.h"
#include "simdex/simdex_c.h"
#include "check.h"

namespace {

void CheckMinHash() {
  const simdex::MinHashDedupOptions o;
  simdex_minhash_dedup_options c;
  simdex_minhash_dedup_options_init(&c);
  CHECK(c.threshold == o.threshold && c.estimate_filter == o.estimate_filter && c.seed == o.seed);
  CHECK(c.memory_bytes == o.memory_bytes && o.confirm.empty() && c.confirm == nullptr && o.tmpdir.empty() &&
        c.tmpdir == nullptr);
  CHECK(c.against == nullptr && c.against_count == o.against.size());
  CHECK((c.exact != 0) == o.exact && c.num_perm == o.num_perm && c.bands == o.bands.bands && c.rows == o.bands.rows);
  CHECK(c.signature_bits == o.signature_bits && o.keep == simdex::KeepRule::kFirst && c.keep == SIMDEX_KEEP_FIRST);
  CHECK((c.keep_pairs != 0) == o.keep_pairs && (c.allow_duplicate_ids != 0) == o.allow_duplicate_ids);
  CHECK(c.threads == o.threads && !o.shingle_words.has_value() && c.shingles == SIMDEX_SHINGLES_AUTO);
}

void CheckSimHash() {
  const simdex::SimHashDedupOptions o;
  const simdex::FingerprintOptions& f = o.features;
  simdex_simhash_dedup_options c;
  simdex_simhash_dedup_options_init(&c);
  CHECK(c.seed == f.seed && c.memory_bytes == o.memory_bytes && c.max_idf == o.max_idf);
  CHECK(o.scheme.empty() && c.scheme == nullptr && o.confirm.empty() && c.confirm == nullptr && c.tmpdir == nullptr);
  CHECK(c.against == nullptr && c.against_count == o.against.size());
  CHECK(c.k == o.k && c.k_short == o.k_short && c.short_length == o.short_length);
  CHECK(f.tokenizer == simdex::Tokenizer::kWords && c.tokenizer == SIMDEX_TOKENIZER_WORDS && c.ngram == f.ngram);
  CHECK(f.weighting == simdex::Weighting::kTermFrequency && c.weighting == SIMDEX_WEIGHTING_TF);
  CHECK((c.normalize != 0) == f.normalize && (c.clean_text != 0) == f.clean_text &&
        (c.cap_numbers != 0) == f.cap_numbers);
  CHECK((c.stop_words != 0) == !f.stop_words.empty() && (c.learn_idf != 0) == o.learn_idf);
  CHECK(o.keep == simdex::KeepRule::kFirst && c.keep == SIMDEX_KEEP_FIRST && (c.keep_pairs != 0) == o.keep_pairs);
  CHECK((c.allow_duplicate_ids != 0) == o.allow_duplicate_ids && c.threads == o.threads);
  CHECK(o.against_strategy == simdex::AgainstStrategy::kAuto && c.against_strategy == SIMDEX_AGAINST_AUTO);
}

void CheckLshQuery() {
  const simdex::LshQueryOptions o;
  simdex_lsh_query_options c;
  simdex_lsh_query_options_init(&c);
  CHECK(c.min_estimate == o.min_estimate && c.top_k == o.top_k);
  CHECK(c.thresholds == nullptr && c.threshold_count == o.thresholds.size());
}

void CheckMerge() {
  const simdex::MergeOptions o;
  simdex_merge_options c;
  simdex_merge_options_init(&c);
  CHECK(c.memory_bytes == o.memory_bytes && o.tmpdir.empty() && c.tmpdir == nullptr && c.threads == o.threads);
  CHECK(o.existing_ids == simdex::ExistingIds::kKeep && c.existing_ids == SIMDEX_EXISTING_IDS_KEEP);
  CHECK(c.reserved[0] == 0 && c.reserved[1] == 0 && c.reserved[2] == 0);
}

void CheckOpen() {
  const simdex::ReaderOptions o;
  simdex_open_options c;
  simdex_open_options_init(&c);
  CHECK((c.verify_block_checksums != 0) == o.verify_block_checksums &&
        (c.verify_heads_on_open != 0) == o.verify_heads_on_open);
  CHECK(o.access == simdex::ReaderOptions::Access::kAuto && c.access == SIMDEX_ACCESS_AUTO);
  CHECK(o.cold_reads == simdex::ReaderOptions::ColdReads::kWhenMissing && c.cold_reads == SIMDEX_COLD_READS_WHEN_MISSING);
  CHECK(c.reserved[0] == 0 && c.reserved[1] == 0);
}

}  // namespace

int main() {
  CheckMinHash();
  CheckSimHash();
  CheckLshQuery();
  CheckMerge();
  CheckOpen();
  return finish("capi_defaults_test");
}
