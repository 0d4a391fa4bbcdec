// The seam for index kinds, as format/codec.h is for block codecs: every
// index file, whatever it indexes, is an IndexFile, and the registry of
// kinds opens, verifies, inspects and merges a file by what its header says
// (docs/architecture.md, "Seam 2: index kinds").
//
//   std::unique_ptr<IndexFile> file;
//   SIMDEX_RETURN_IF_ERROR(OpenIndexFile("corpus.sdx", ReaderOptions(), &file));
//   file->kind();            // IndexKind::kSimHash: an IndexReader
//   file->Verify();          // every rule of docs/format.md for its kind
//   file->InspectJson();     // `simdex inspect`'s JSON
//   IndexFileMerger::Create(*file, "grown.sdx", MergeOptions(), &merger);
//
// The kinds are IndexReader (SimHash, include/simdex/index.h) and
// LshIndexReader (MinHash-LSH, include/simdex/lsh_index.h). Both derive from
// IndexFile and keep their typed searches; a caller that needs one reaches
// it through IndexFileVisitor, so that no caller asks `kind ==`.
//
// Adding a kind: a folder engine/<kind>/ with a reader deriving from
// IndexFile and a merger, an IndexFileKind for it, one line in the registry
// (engine/index_file/index_kinds.cc), a Visit() overload in
// IndexFileVisitor for the front ends' typed searches, and the Add() of its
// records in IndexFileMerger (include/simdex/merge.h).
//
// Thread safety: an IndexFile is immutable after it is opened; its const
// methods may be called from any number of threads. The kinds are
// immutable singletons.
#ifndef SIMDEX_INDEX_FILE_H_
#define SIMDEX_INDEX_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "simdex/status.h"

namespace simdex {

// What an index file holds.
enum class IndexKind : uint8_t {
  kSimHash = 0,     // fingerprints in the permuted tables of a scheme (IndexReader)
  kMinHashLsh = 1,  // MinHash signatures in band tables (LshIndexReader)
};
// "SimHash" or "MinHash-LSH".
const char* IndexKindName(IndexKind kind);

// Reads and checks the header and footer of the file at path and reports
// its kind; errors as IndexReader::Open's for a damaged or foreign file.
Status ReadIndexKind(const std::string& path, IndexKind* kind);

// Nothing a reader answers comes from bytes it has not checked against their
// checksums (docs/format.md): the header, footer and metadata in Open(); the
// head indexes, rank index and id map in Open() or on first use (below);
// each block the first time this reader decodes it (a bit per block
// remembers it, so a warm query pays one bit test per block); and the id
// section the first time an id is read. A damaged part is Corruption from
// the call that first needs it, naming the part (and the file, for a reader
// opened from a path). docs/benchmarks.md, "Checked reads", measures the cost.
struct ReaderOptions {
  // Check every block and every section in Open() (reads the whole file,
  // at about the speed of a hash of it; verify_heads_on_open does not
  // matter then), so that any damage fails Open() rather than the first
  // search that reads it. Searches then pay only the bit test.
  bool verify_block_checksums = false;
  // Check the head indexes, rank index and id map in Open() (reads them
  // whole: about 8 bytes per block of every table); false checks each the
  // first time a search or stream needs it, so that Open() reads only the
  // header, footer and metadata.
  bool verify_heads_on_open = true;
  // How a reader opened from a path (IndexReader, LshIndexReader) advises
  // the kernel about its mapping.
  // kReadAround: the kernel's default, where a page fault also reads its
  // neighbours (read_ahead_kb of them): a small index is in memory after a
  // few queries. kRandom (MADV_RANDOM): a fault reads its own page, so that
  // an index larger than memory does not fill the page cache with pages no
  // query asked for (on this project's machine, 8 MiB per fault); the
  // reader's own sequential reads (section checks, Verify(), the engine's
  // table streams) then ask for their pages ahead (MADV_WILLNEED). kAuto
  // takes kRandom for a file larger than half the machine's memory.
  enum class Access { kAuto, kReadAround, kRandom };
  Access access = Access::kAuto;
  // Whether a SimHash search asks the kernel for all the blocks it is about
  // to decode at once (MADV_WILLNEED, which starts their reads and returns),
  // so that a cold query waits for about one disk read instead of one per
  // table. kWhenMissing: under random access (above), when the reader's
  // last search waited for the disk in its block scan (timed: a warm query
  // makes no system call); the first search asks. kAlways: every query,
  // whatever the access. kNever: no query. A batch Search() asks likewise
  // for the blocks of a chunk of 64 queries at once, each page once. Speed
  // only: answers are the same.
  enum class ColdReads { kWhenMissing, kAlways, kNever };
  ColdReads cold_reads = ColdReads::kWhenMissing;
};

// ReaderOptions' choices by the names every front end spells them with
// (`simdex query --access --cold-reads`, simdex.Index.open(access=,
// cold_reads=)): access "auto", "read-around", "random"; cold_reads
// "when-missing", "always", "never". Sets *out, or returns
// InvalidArgument naming the value and the allowed ones, e.g. "access
// 'sideways' is not one of auto, read-around, random" (*out unchanged).
Status ParseAccess(std::string_view name, ReaderOptions::Access* out);
Status ParseColdReads(std::string_view name, ReaderOptions::ColdReads* out);
// The name of each choice, as the two above read it (front ends show the
// defaults by it).
std::string_view AccessName(ReaderOptions::Access access);
std::string_view ColdReadsName(ReaderOptions::ColdReads cold_reads);
// Abstract read-only file contents: the reader works on any byte range that
// stays valid and unchanged while the reader lives (a memory map, or a
// string in tests).
class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  virtual const uint8_t* data() const = 0;
  virtual size_t size() const = 0;
};

// Maps the regular file at `path` read-only (an empty file gives an empty
// range). Anything else is refused before it is opened, as an IOError
// naming the path: "<path>: is a FIFO, not an index file (an index is a
// regular file)" (opening a FIFO for reading would block until a writer
// comes), a character or block device or a socket alike, "<path>: is a
// directory"; one that cannot be opened "cannot open <path>: <why>" (e.g.
// "No such file or directory"). Every
// reader of an index path (IndexReader, LshIndexReader, ReadIndexKind)
// opens it here.
Status MapFile(const std::string& path, std::unique_ptr<RandomAccessFile>* out);
// Wraps bytes held in memory (for tests and in-memory indexes).
std::unique_ptr<RandomAccessFile> NewMemoryFile(std::string bytes);

// What IndexFile::Preload did.
struct PreloadResult {
  uint64_t bytes = 0;   // the file's bytes, now read into memory
  bool locked = false;  // mlock()ed: resident until the reader is destroyed
  // Why the pages could not be locked ("" when locked or not asked), e.g.
  // "mlock of 51200000 bytes: Cannot allocate memory (RLIMIT_MEMLOCK is
  // 8388608 bytes: raise it with ulimit -l or systemd's LimitMEMLOCK=)".
  std::string lock_error;
};

class IndexReader;
class LshIndexReader;
class IndexFileMerger;     // include/simdex/merge.h
struct MergeOptions;       // include/simdex/merge.h

// The typed side of an IndexFile: IndexFile::Accept calls the overload of
// the file's own class. Front ends implement it where they need a kind's
// typed search (`simdex query`, `simdex merge`'s batch); a new kind adds an
// overload here, and the compiler then names every front end that must
// handle it.
class IndexFileVisitor {
 public:
  virtual ~IndexFileVisitor() = default;
  virtual void Visit(const IndexReader& index) = 0;
  virtual void Visit(const LshIndexReader& index) = 0;
};

// A read-only view of one index file of any kind.
class IndexFile {
 public:
  // OpenIndexFile (below): the reader of the kind the header records.
  static Status Open(const std::string& path, const ReaderOptions& options, std::unique_ptr<IndexFile>* out);

  virtual ~IndexFile() = default;

  // What the file indexes (the header's kind byte).
  virtual IndexKind kind() const = 0;
  // The entries (SimHash) or documents (MinHash-LSH) the file holds.
  virtual uint64_t records() const = 0;
  // The profile recorded at build: a fingerprint profile (SimHash; "" when
  // none was recorded) or a signature profile (MinHash-LSH). Files of one
  // kind are comparable when their profiles are (CheckSameProfile).
  virtual const std::string& profile() const = 0;

  // String ids (docs/format.md, "Id map"): a record's id is the number of
  // its string in the map. has_string_ids() false: ids are numbers, and
  // IdStringCount() is 0.
  virtual bool has_string_ids() const = 0;
  // REQUIRES: has_string_ids(); number < IdStringCount(). Points into the
  // mapped file, valid while the file is open.
  virtual std::string_view IdString(uint64_t number) const = 0;
  virtual uint64_t IdStringCount() const = 0;
  // OK and *number; NotFound when no record has the id; InvalidArgument for
  // a file of numeric ids.
  virtual Status FindIdString(std::string_view id, uint64_t* number) const = 0;

  // Checks every rule of docs/format.md for the file's kind and returns the
  // first problem found; reads the whole file.
  virtual Status Verify() const = 0;
  // What `simdex verify` prints after "ok: " for a sound file: "1000
  // entries, 4 tables" (SimHash), "5 documents, 16 band tables"
  // (MinHash-LSH).
  virtual std::string VerifySummary() const = 0;
  // The file's size and shape as the pretty JSON `simdex inspect` prints
  // (keys always in the same order; a final newline).
  virtual std::string InspectJson() const = 0;

  // For servers that want the file resident: reads every page into memory,
  // and with lock also mlock()s them. A lock the system refuses is not an
  // error: result->lock_error says why (PreloadResult).
  virtual Status Preload(bool lock, PreloadResult* result) const = 0;

  // Whether this file may replace `serving` (of the same kind) under a
  // ReloadingIndex with require_same_scheme: OK, or InvalidArgument saying
  // what the queries depend on that differs ("the new file's scheme t10 is
  // not the serving index's t12"; for MinHash-LSH its bands and threshold).
  virtual Status CheckSameLayout(const IndexFile& serving) const = 0;

  // Calls visitor->Visit with this file's own class.
  virtual void Accept(IndexFileVisitor* visitor) const = 0;
};

// One kind of index file: a registry entry (engine/index_file/index_kinds.cc).
class IndexFileKind {
 public:
  virtual ~IndexFileKind() = default;

  virtual IndexKind kind() const = 0;
  // The name `simdex inspect` and Python print: "simhash", "minhash-lsh".
  virtual std::string_view name() const = 0;
  // The --method that makes such files (`simdex build`, `simdex dedup
  // --method auto` for an --against index): "simhash", "minhash".
  virtual std::string_view method() const = 0;
  // What its records are called ("entries", "documents"): the names of
  // records() and of a merge's figures in Python.
  virtual std::string_view records_name() const = 0;

  // Opens a file of this kind, as its reader's Open does; a file of another
  // kind is InvalidArgument naming both kinds.
  virtual Status Open(const std::string& path, const ReaderOptions& options,
                      std::unique_ptr<IndexFile>* out) const = 0;
  virtual Status Open(std::unique_ptr<RandomAccessFile> file, const ReaderOptions& options,
                      std::unique_ptr<IndexFile>* out) const = 0;
  // The kind's merger of `old` (a file of this kind, else InvalidArgument
  // naming both kinds) into `path`: IndexFileMerger::Create's entry
  // (include/simdex/merge.h).
  virtual Status NewMerger(const IndexFile& old, const std::string& path, const MergeOptions& options,
                           std::unique_ptr<IndexFileMerger>* out) const = 0;
};

// f called with the file's own class (through IndexFileVisitor), and what
// it returns: f is typically an Overloads of one lambda per kind,
//
//   int code = VisitIndexFile<int>(*file, Overloads{
//       [&](const IndexReader& index) { return Search(index); },
//       [&](const LshIndexReader& index) { return Query(index); }});
//
// so that a new kind fails to compile where no lambda takes it.
// REQUIRES: R is default-constructible.
template <class... F>
struct Overloads : F... {
  using F::operator()...;
};
template <class... F>
Overloads(F...) -> Overloads<F...>;

template <class R, class F>
R VisitIndexFile(const IndexFile& file, F&& f) {
  struct Visitor final : IndexFileVisitor {
    explicit Visitor(F& fn) : f(fn) {}
    void Visit(const IndexReader& index) override { result = f(index); }
    void Visit(const LshIndexReader& index) override { result = f(index); }
    F& f;
    R result{};
  };
  Visitor visitor(f);
  file.Accept(&visitor);
  return std::move(visitor.result);
}

// The kind with this header value or name; null when this build has none.
const IndexFileKind* FindIndexKind(IndexKind kind);
const IndexFileKind* FindIndexKind(std::string_view name);
// The names of every kind, for messages ("simhash, minhash-lsh").
std::string IndexKindNames();

// Opens the file at path (or the bytes of `file`) with the reader of the
// kind its header records. Errors: the header's and footer's (as
// ReadIndexKind), then the kind's reader's.
Status OpenIndexFile(const std::string& path, const ReaderOptions& options, std::unique_ptr<IndexFile>* out);
Status OpenIndexFile(std::unique_ptr<RandomAccessFile> file, const ReaderOptions& options,
                     std::unique_ptr<IndexFile>* out);

}  // namespace simdex

#endif  // SIMDEX_INDEX_FILE_H_
