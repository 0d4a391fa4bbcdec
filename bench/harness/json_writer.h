// A small JSON writer for simdex-bench's report: objects built field by field
// and written one per line (JSON Lines).
//
// The records simdex-bench writes, one object per line, in this order:
//
// {"type": "header", ...}: once, first.
//   tool "simdex-bench"; date (UTC, ISO 8601); git_commit, git_dirty (of the
//   source tree, null when git is unavailable); cpu_model (/proc/cpuinfo);
//   cores (online CPUs); mem_total_bytes; load_average_start [1, 5, 15 min];
//   compiler; build_type; cxx_flags; command (the argument list); config (the
//   grid: datasets, n, schemes, block_sizes, k, threads, baselines, queries,
//   cold, seconds_per_set, cold_queries, scan_queries (0 = automatic), repeat,
//   seed, memory_mib, build_threads, memory_limit_bytes, dir,
//   text_fingerprints).
//
// {"type": "point", ...}: one per (dataset, n, searcher, scheme, block_size,
// k, threads, cache, api) measurement.
//   dataset, n (fingerprints used), n_requested (differs for a capped text
//   set), seed; searcher ("simdex", "scan", "permuted", "faiss-hash",
//   "faiss-multihash"); scheme (its name, null for scan), tables (0 for
//   scan); block_size (bytes; null but for simdex); k; threads; cache
//   ("warm": after a warm-up pass; "cold": the index file evicted from the
//   page cache and reopened just before; "first-use": simdex, the first
//   near queries of the largest k on a reader opened just before, the file
//   in the page cache, one thread, with open_micros (the default Open()),
//   first_query_micros and open_verify_all_micros (an Open() with
//   ReaderOptions::verify_block_checksums); "warm-checksums", in files
//   written before first-use verification: warm, with the old
//   verify_block_checksums, which hashed every block a search decoded); api ("single": each thread issues
//   one query at a time, each timed; "batch": IndexReader's batch call over
//   all the queries at `threads` threads, timed as a whole).
//   Space: bytes (the structure: the index file for simdex, Searcher::Bytes()
//   otherwise), bytes_per_entry. Simdex only: table_bytes_per_entry [one per
//   table: block data + head index], tables_bytes_per_entry (their sum),
//   id_bytes_per_entry, rank_bytes_per_entry, entropy_bound_bits_per_entry
//   (log2 C(2^64, n)/n), ratio_to_bound [per table: its bits per entry / the
//   bound], worst_ratio_to_bound, codec (the BuildOptions::codec asked
//   for: "card", whose records name the searcher "simdex", or "ef" or
//   "auto", named "simdex-ef" and "simdex-auto"), table_codecs [per table:
//   the codec it got].
//   Baselines only: config (what the structure depends on besides k:
//   "16 bits" for faiss-hash, "4 x 16 bits" for faiss-multihash, the scheme
//   for permuted; a config already measured under another scheme is not
//   measured again), nflip (faiss: key bits flipped per probe).
//   Build: build_seconds (wall). Simdex only (built in a forked child):
//   build_peak_rss_bytes (the child's ru_maxrss), build_start_rss_bytes
//   (the child's RSS when it started: pages shared with the harness, such
//   as its input array, count in both), build_sort_seconds,
//   build_encode_seconds, spilled_runs.
//   Cold points only: readahead ("none": the mapping advised MADV_RANDOM,
//   so a fault reads its own page only; "default": the kernel's read-around,
//   read_ahead_kb of the device), resident_after_evict (fraction of the
//   file's pages still in the page cache after the eviction; 0 unless
//   something else holds them). The head indexes are evicted too: a cold
//   query faults in the head pages it probes as well as its blocks.
//   Queries, as objects "near" and "random" ("random" only for api "single";
//   cold points have "near" only): queries (count: the scan answers the
//   checked ones; the others as many as fit in config.seconds_per_set at
//   their warm-up's mean latency, at least the checked ones), checked (how many were
//   compared with the scan and agreed), seconds (wall), qps, p50_us, p90_us,
//   p99_us, max_us, mean_us (per query; null for batch), matches_per_query,
//   major_faults_per_query (process-wide ru_majflt delta / queries),
//   read_bytes_per_query (process-wide /proc/self/io read_bytes delta /
//   queries: what the queries fetched from storage, read-ahead included); simdex
//   only: blocks_per_query, entries_per_query, tables_probed_per_query,
//   id_lookups_per_query (SearchStats; blocks include those of table 0
//   decoded to find a match's ids, at least one per id lookup). With
//   --repeat R each of these figures is the median of the point's R runs
//   (the mean of the middle two for an even R), and so are first-use's
//   open_micros, first_query_micros and open_verify_all_micros; cold's
//   resident_after_evict is the largest of the R. Then runs (R, 1 without
//   --repeat) and spread: {"seconds": [min, max], "qps": [min, max], and for
//   api "single" "p50_us", "p90_us", "p99_us", "max_us", "mean_us"} over the
//   R runs.
//
// {"type": "skip", ...}: a measurement not taken: dataset, n, n_requested,
//   searcher, scheme, block_size, reason.
//
// {"type": "footer", ...}: once, last: load_average_end, wall_seconds.
//
// Numbers are written in the shortest form that reads back to the same
// double; NaN and infinities become null.
#ifndef SIMDEX_BENCH_HARNESS_JSON_WRITER_H_
#define SIMDEX_BENCH_HARNESS_JSON_WRITER_H_

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>

#include "simdex/status.h"

namespace simdex::bench {

// `s` as a JSON string literal, quotes included: '"', '\\' and control
// characters escaped; other bytes (UTF-8 included) copied as they are.
std::string JsonQuote(std::string_view s);

// One JSON object, built by appending fields in order. Keys are not checked
// for repeats. Thread safety: a value; not for concurrent mutation.
class JsonObject {
 public:
  JsonObject& AddString(std::string_view key, std::string_view value);
  JsonObject& AddNumber(std::string_view key, double value);
  JsonObject& AddInt(std::string_view key, int64_t value);
  JsonObject& AddUint(std::string_view key, uint64_t value);
  JsonObject& AddBool(std::string_view key, bool value);
  JsonObject& AddNull(std::string_view key);
  JsonObject& AddObject(std::string_view key, const JsonObject& value);
  JsonObject& AddNumbers(std::string_view key, std::span<const double> values);
  JsonObject& AddStrings(std::string_view key, std::span<const std::string> values);
  // Appends all of `other`'s fields.
  JsonObject& AddFields(const JsonObject& other);

  // The object's text, "{...}", on one line.
  std::string str() const { return "{" + body_ + "}"; }

 private:
  std::string& Key(std::string_view key);
  // Appends key: [text(values[0]), ...].
  template <typename T, typename TextFn>
  void AddArray(std::string_view key, std::span<const T> values, TextFn text) {
    std::string& out = Key(key);
    out += '[';
    for (size_t i = 0; i < values.size(); ++i) {
      if (i) out += ", ";
      out += text(values[i]);
    }
    out += ']';
  }
  std::string body_;
};

// Writes objects one per line to a file or standard output, flushing after
// each so that a run that stops early leaves every finished record.
// Thread safety: not for concurrent use.
class JsonLinesWriter {
 public:
  JsonLinesWriter() = default;
  ~JsonLinesWriter();
  JsonLinesWriter(const JsonLinesWriter&) = delete;
  JsonLinesWriter& operator=(const JsonLinesWriter&) = delete;

  // Opens `path` for writing (truncating it); "-" is standard output.
  Status Open(const std::string& path);
  Status Write(const JsonObject& object);

 private:
  std::FILE* file_ = nullptr;
  bool owned_ = false;
  std::string name_;
};

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_JSON_WRITER_H_
