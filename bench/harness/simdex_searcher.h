// SimdexSearcher ("simdex"): the compressed on-disk index, built with
// IndexBuilder and searched through IndexReader over a memory map.
#ifndef SIMDEX_BENCH_HARNESS_SIMDEX_SEARCHER_H_
#define SIMDEX_BENCH_HARNESS_SIMDEX_SEARCHER_H_

#include <memory>
#include <span>
#include <string>

#include "bench/harness/searcher.h"
#include "simdex/index.h"

namespace simdex::bench {

// Build() writes an index of (i, fps[i]) to `path` with `build_options` and
// opens it with `reader_options`. Bytes() is the file's size; MaxK() is the
// scheme's k; Search() is IndexReader::Search.
//
// The file is removed by the destructor unless set_keep_file(true) was
// called.
//
// Thread safety: concurrent Search() calls are safe; Build(), Close() and
// Reopen() must not run concurrently with anything else.
class SimdexSearcher : public Searcher {
 public:
  SimdexSearcher(BuildOptions build_options, std::string path, ReaderOptions reader_options);
  ~SimdexSearcher() override;
  SimdexSearcher(const SimdexSearcher&) = delete;
  SimdexSearcher& operator=(const SimdexSearcher&) = delete;

  std::string Name() const override { return "simdex"; }
  Status Build(std::span<const uint64_t> fps) override;
  size_t Bytes() const override { return static_cast<size_t>(build_stats_.file_bytes); }
  int MaxK() const override { return build_options_.scheme.k(); }
  // REQUIRES: the index is open (Build() succeeded and Close() was not
  // called since the last Reopen()).
  Status Search(uint64_t q, int k, std::vector<Match>* out) const override;

  // Unmaps the file, so that the caller can evict it from the page cache
  // before a cold run. REQUIRES: Build() succeeded.
  void Close();
  // Maps and validates the file again (with the same ReaderOptions).
  Status Reopen();

  // REQUIRES: the index is open.
  const IndexReader& reader() const { return *reader_; }
  // The builder's statistics. REQUIRES: Build() succeeded.
  const BuildStats& build_stats() const { return build_stats_; }
  const std::string& path() const { return path_; }

  // Keeps the index file after destruction (for inspection); default false.
  void set_keep_file(bool keep) { keep_file_ = keep; }

 private:
  BuildOptions build_options_;
  std::string path_;
  ReaderOptions reader_options_;
  std::unique_ptr<IndexReader> reader_;
  BuildStats build_stats_;
  bool built_ = false;
  bool keep_file_ = false;
};

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_SIMDEX_SEARCHER_H_
