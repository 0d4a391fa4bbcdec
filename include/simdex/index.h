// The compressed fingerprint index: build it once, offline; search it from
// any number of threads and processes through a read-only memory map.
//
//   IndexBuilder: Add() (id, fingerprint) pairs in any order, then Finish()
//     writes the file (to a temporary name, fsynced, then renamed).
//   IndexReader: Open() maps and validates a file; Search() finds every
//     entry within Hamming distance k (inclusive) of each query.
//
// The file format is specified in docs/format.md.
#ifndef SIMDEX_INDEX_H_
#define SIMDEX_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/index_file.h"
#include "simdex/scheme.h"
#include "simdex/status.h"

namespace simdex {

struct BuildOptions {
  Scheme scheme = Scheme::Default();
  // Bytes per block: a power of two in 64..65536. With restart points a query
  // decodes about half a segment (block_size / (restarts + 1) bytes) per
  // probed table; larger blocks spend fewer bits per entry on block heads,
  // checksums and padding, and a block of at most 4 KiB is one page of a
  // cold file. The default, 4 KiB with 6 restart points, is the fastest
  // setting measured that keeps every t10 table within 1.06 x the entropy
  // bound at N = 10^7 and 10^8 (docs/benchmarks.md, "Block size and restart
  // points").
  uint32_t block_size = 4096;
  // The block codec (docs/format.md, "Codecs"): "auto" (the default), per
  // table whichever of "card" and "ef" takes fewer blocks, "ef" when they
  // tie; "card", the card's h(n) + suffix delta code with a Huffman code per
  // table, which a query decodes from a restart point on; "ef", Elias-Fano,
  // where a query jumps to its key's place in the block. On uniform
  // fingerprints auto writes ef (3.4 % smaller than card, near queries 1.4x
  // (10^8) to 1.7x (10^7) faster); on near-duplicate clusters and real-text
  // fingerprints it writes card (24-30 % smaller than ef, 2-3x slower
  // queries); "ef" buys ef's speed there at ef's size. auto cuts each table
  // with both codecs before encoding it with one. docs/benchmarks.md,
  // "The default codec (issue 39, item 1)", has the figures.
  std::string codec = "auto";
  // Restart points per block, 0..15 (card-coded tables): entries coded against the block's head
  // at the block's 1/(R+1) marks, so that a query decodes about half of one
  // segment (block_size / (R + 1) bytes) instead of half the block, for
  // about 28 bits each in 4 KiB blocks (docs/format.md "Restart points";
  // docs/benchmarks.md, session 4, measures R = 6, 11 and 15).
  int restarts = 6;
  // Bound on the builder's own buffers (sorting and encoding). When the input
  // does not fit, sorted runs are spilled to tmpdir and merged.
  size_t memory_bytes = size_t{1} << 30;
  // Directory for spill files; "" means the directory of the output file.
  std::string tmpdir;
  // Threads for sorting and for encoding tables in parallel (memory allowing).
  int threads = 1;
  // Keep ids as strings (URLs, article ids) even if only numbers are
  // added: the index keeps them in an id map (docs/format.md) and
  // Match::id numbers them; numeric ids are kept as their decimal strings.
  // A build also switches to string ids by itself at the first string id
  // added. The distinct ids are held in memory, about 64 bytes plus their
  // length each, within half of memory_bytes; past it they are spilled to
  // sorted runs in tmpdir and merged back (the same file either way).
  bool string_ids = false;
  // The fingerprint profile of the entries (FingerprintProfile() in
  // include/simdex/fingerprint.h, or a fingerprint file's profile()): stored
  // in the index so that queries and merges made under another profile are
  // refused (CheckSameProfile). "" records none (fingerprints from
  // elsewhere). At most 4096 bytes of printable ASCII.
  std::string profile;
};

struct BuildStats {
  uint64_t entries = 0;
  uint64_t distinct_fingerprints = 0;
  uint64_t spilled_runs = 0;     // sorted runs written to tmpdir (0: in memory)
  uint64_t spilled_bytes = 0;
  uint64_t id_map_runs = 0;      // string ids: sorted runs of ids written to tmpdir (0: in memory)
  uint64_t file_bytes = 0;
  double seconds_sorting = 0;
  double seconds_encoding = 0;
};

// Builds one index file.
//
// Thread safety: not safe for concurrent use; call from one thread.
// After the first error every call returns that error and nothing is left
// under the output name.
class IndexBuilder {
 public:
  // Validates options and prepares to write `path` (through a temporary file
  // in the same directory; a device or FIFO such as /dev/null is written in
  // place, a symbolic link's target is replaced, as OutputWriter does).
  static Status Create(const std::string& path, const BuildOptions& options,
                       std::unique_ptr<IndexBuilder>* out);

  // Deletes temporary files; if Finish() did not succeed, nothing is written
  // under the output name.
  ~IndexBuilder();

  // Adds one entry. Order does not matter; the same (id, fingerprint) pair
  // added twice is stored twice.
  Status Add(uint64_t id, uint64_t fingerprint);
  Status Add(std::span<const uint64_t> ids, std::span<const uint64_t> fingerprints);
  // Adds an entry with a string id. The first one turns a build of numeric
  // ids into a build of string ids: the numeric ids added before are kept
  // as their decimal strings (one more pass over what was added). An id must
  // be 1 to 4096 bytes of UTF-8 without control characters (docs/format.md,
  // "Id map"); any other is InvalidArgument and adds nothing.
  Status Add(std::string_view id, uint64_t fingerprint);

  // Sorts, encodes and writes the index, fsyncs it and renames it to the
  // output name. The same entries and options always give the same bytes.
  Status Finish();
  // Gives up: removes temporary files; Finish() may not be called after.
  void Abandon();

  const BuildStats& stats() const;

  // Replaces BuildOptions::profile before Finish(), for a caller that learns
  // the profile from its inputs while adding them. InvalidArgument (and the
  // builder failed) when CheckProfileText refuses it.
  Status SetProfile(std::string_view profile);

  // Called by Finish() with a short description of the current stage and the
  // fraction of the work done, at most a few times a second (may be empty).
  void SetProgressCallback(std::function<void(const char* stage, double fraction)> callback);

  // Called by Finish() once, with the number of entries added, before
  // anything is sorted or written: it may change the options' scheme, block
  // size, restart points and codec (`simdex build --scheme auto` plans them
  // from the count with PlanIndex, simdex/plan.h). The builder checks them as
  // Create() does; an error from the callback or the check fails Finish().
  // The other options stay as Create() got them.
  void SetLayoutChooser(std::function<Status(uint64_t entries, BuildOptions* options)> choose);

 private:
  struct Rep;
  explicit IndexBuilder(std::unique_ptr<Rep> rep);
  Status FinishImpl();
  Status SwitchToStringIds();
  std::unique_ptr<Rep> rep_;
};

// One entry within distance of a query.
struct Match {
  uint64_t id;
  uint64_t fingerprint;
  int distance;

  friend bool operator==(const Match&, const Match&) = default;
};

// Results of a batch search in the offset-array form (faiss
// RangeSearchResult): lims has nq + 1 entries; the matches of query i are
// matches[lims[i], lims[i+1]), ordered by distance, then id, then fingerprint.
struct SearchResults {
  std::vector<size_t> lims;
  std::vector<Match> matches;
};

// Counters for tuning; added to by each search.
struct SearchStats {
  uint64_t queries = 0;
  uint64_t tables_probed = 0;
  uint64_t blocks_decoded = 0;
  uint64_t entries_scanned = 0;    // values decoded from blocks (heads included)
  uint64_t candidates = 0;         // values whose key matched, before the distance check
  uint64_t id_lookups = 0;         // searches of table 0 to find the ids of a match
  uint64_t blocks_asked = 0;       // blocks asked for ahead (ReaderOptions::cold_reads)
  std::vector<uint64_t> candidates_per_table;

  void Add(const SearchStats& other);
};

// Statistics of an open index, for `simdex inspect` and evaluators.
struct IndexInfo {
  uint64_t entries = 0;
  uint64_t distinct_fingerprints = 0;
  std::string scheme;
  std::vector<int> widths;
  int k = 0;
  uint32_t block_size = 0;
  int restarts = 0;  // restart points per block
  struct Table {
    std::vector<int> leading_blocks;
    int key_bits = 0;
    uint64_t blocks = 0;
    uint64_t bytes = 0;         // block data + head index
    uint64_t payload_bits = 0;  // bits of the blocks' streams alone (the codec's payload, without padding)
    std::string codec;          // the table's block codec ("card", "ef")
  };
  std::vector<Table> tables;
  uint64_t rank_bytes = 0;
  uint64_t id_bytes = 0;
  int id_width = 0;
  bool string_ids = false;      // the index has an id map
  uint64_t id_map_strings = 0;  // distinct string ids
  uint64_t id_map_bytes = 0;    // the id map section
  uint32_t format_version = 0;
  std::string profile;  // the fingerprint profile; "" when unrecorded (and in format versions 1-3)
  uint64_t total_bytes = 0;
  // log2 C(2^64, N) / N: the fewest bits per entry any encoding of a set of
  // N distinct 64-bit values can use on average.
  double entropy_bound_bits_per_entry = 0;
};

// log2 C(2^64, n) / n: the entropy bound in bits per entry for a set of n
// distinct 64-bit values (0 for n = 0).
double EntropyBoundBitsPerEntry(uint64_t n);

// A read-only view of one index file.
//
// Thread safety: all const methods may be called concurrently from any number
// of threads. Processes that open the same file share its pages through the
// page cache.
namespace simhash {
class TableCursor;
class EntryIds;
}  // namespace simhash

class IndexReader final : public IndexFile {
 public:
  // Maps the file and validates header, footer, metadata, section bounds and
  // (by default) the head index, rank index and id map checksums before
  // anything else is read (ReaderOptions says what else is checked when). A
  // truncated, foreign or damaged file is an error, never a crash.
  static Status Open(const std::string& path, const ReaderOptions& options,
                     std::unique_ptr<IndexReader>* out);
  static Status Open(std::unique_ptr<RandomAccessFile> file, const ReaderOptions& options,
                     std::unique_ptr<IndexReader>* out);
  ~IndexReader() override;

  const Scheme& scheme() const;
  uint64_t entries() const;
  IndexInfo Info() const;
  // The fingerprint profile recorded at build (BuildOptions::profile); ""
  // when none was recorded, as in files of format versions 1-3.
  const std::string& profile() const override;

  // String ids. An index built from string ids keeps them in an id map, in
  // sorted (bytewise) order, and an entry's Match::id is the number of its
  // string there: IdString() gives it back. Numeric-id indexes have no map.
  bool has_string_ids() const override;
  // The string of id number `number`, pointing into the mapped file (valid
  // while the reader lives). O(1). The map has been checked once a Search()
  // of this reader found something, or by Open() (verify_heads_on_open); a
  // damaged map read before that gives an empty view, never a read outside
  // the file. REQUIRES: has_string_ids(); number < the map's size (every
  // Match::id of this index is).
  std::string_view IdString(uint64_t number) const override;
  // The number of strings in the id map (0 for an index of numeric ids).
  uint64_t IdStringCount() const override;
  // The number of string id `id`: OK, NotFound when no entry has it, or
  // InvalidArgument for an index of numeric ids. O(log K).
  Status FindIdString(std::string_view id, uint64_t* number) const override;

  // Every entry whose fingerprint is within Hamming distance k (inclusive)
  // of `query`, ordered by distance, then id. An entry is reported once even
  // if several tables find it. REQUIRES: 0 <= k <= scheme().k() (a larger k
  // is InvalidArgument). Damage in what the search reads is Corruption
  // naming the file (when opened from a path), then the part: "x.sdx: block
  // 12 of table 3: checksum mismatch", "x.sdx: id section (byte offset
  // 4096): checksum mismatch"; never an answer from damaged bytes.
  Status Search(uint64_t query, int k, std::vector<Match>* out, SearchStats* stats = nullptr) const;

  // The batch form: results for queries[i] are out->matches[out->lims[i],
  // out->lims[i+1]). Runs on up to `threads` threads. On error the first
  // error (in query order) is returned ("x.sdx: query 7: ...") and *out is
  // unspecified.
  Status Search(std::span<const uint64_t> queries, int k, SearchResults* out, int threads = 1,
                SearchStats* stats = nullptr) const;

  // For servers that want the index resident: reads every page of the file
  // into memory (MADV_WILLNEED, then a read of each page), so that no
  // query waits for the disk; with lock, also mlock()s the pages so that
  // the kernel never evicts them. A lock the system refuses (RLIMIT_MEMLOCK,
  // privileges) is not an error: result->lock_error says why, and the pages
  // are read all the same. Processes that preload one file share its pages.
  Status Preload(bool lock, PreloadResult* result) const override;

  // Checks every rule of docs/format.md "When a file is considered
  // corrupted" and returns the first problem found (section, table, block,
  // byte offset). Reads the whole file and checks every checksum again,
  // whatever was checked before.
  Status Verify() const override;

  // IndexFile: kSimHash; entries(); "<entries> entries, <tables> tables";
  // `simdex inspect`'s JSON of Info(); another scheme (widths or k) is
  // another layout.
  IndexKind kind() const override;
  uint64_t records() const override { return entries(); }
  std::string VerifySummary() const override;
  std::string InspectJson() const override;
  Status CheckSameLayout(const IndexFile& serving) const override;
  void Accept(IndexFileVisitor* visitor) const override { visitor->Visit(*this); }

  // The opened file's state (engine/simhash/index/reader_rep.h); opaque to users.
  // The engine's streaming consumers read it only through
  // simhash::TableCursor and simhash::EntryIds.
  struct Rep;

 private:
  friend class simhash::TableCursor;
  friend class simhash::EntryIds;
  const Rep& rep() const { return *rep_; }
  explicit IndexReader(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace simdex

#endif  // SIMDEX_INDEX_H_
