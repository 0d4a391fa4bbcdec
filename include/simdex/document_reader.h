// DocumentReader: reads the documents to fingerprint from JSONL or plain-text
// files, plain or compressed, one (id, text) pair at a time.
//
// Input:
//   - path "-" is standard input; a path ending in ".gz", ".zst" or ".bz2"
//     is decompressed (gzip, zstd, bzip2). A damaged or truncated compressed
//     stream is a Corruption error naming the file
//     ("docs.jsonl.gz: truncated gzip stream").
//   - Lines end at '\n'; a '\r' before it is dropped; the last line needs no
//     '\n'; a UTF-8 byte order mark at the start is dropped.
//
// Formats:
//   - kJsonl: one JSON object per line. The id is the value of id_field,
//     which must be an unsigned 64-bit integer: a JSON number, or a string of
//     1 to 20 decimal digits. With allow_string_ids, any other JSON string is
//     kept as a string id (Document::id_string): 1 to 4096 bytes without
//     control characters. (With IdMode::kOrdinal the id is the record
//     number instead, counting from 1, bad records included.) The text is the
//     values of text_fields joined with "\n"; each must be a string (null
//     counts as ""). With a score_field, its value must be a JSON number
//     (Document::score); missing or null gives -infinity. With a
//     title_field, its value is read into Document::title for display, and
//     never makes a record bad: a string gives its text, a missing or null
//     field "", any other value its JSON text (`42`, `["a","b"]`). Blank
//     lines are not records; they are counted.
//   - kLines: every line is one document, its id the line number (from 1);
//     an empty line is an empty document. The text is taken as it is, valid
//     UTF-8 or not (the fingerprinter replaces and counts invalid bytes).
//
// Errors name the file and line: "docs.jsonl:17: field 'id' is not an
// unsigned 64-bit integer: -3", "docs.jsonl:3: invalid JSON (...)". With
// skip_bad, a bad record is skipped instead, counted in stats().skipped, and
// its message kept in stats().first_errors (the first max_errors_kept).
// Errors of the input itself (I/O, decompression) always stop the read.
//
// Thread safety: a DocumentReader is not safe for concurrent use.
#ifndef SIMDEX_DOCUMENT_READER_H_
#define SIMDEX_DOCUMENT_READER_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/status.h"

namespace simdex {

enum class DocumentFormat {
  kJsonl,  // one JSON object per line
  kLines,  // one document per line
};

// kJsonl if path, without a ".gz"/".zst"/".bz2" suffix, ends in ".jsonl",
// ".json" or ".ndjson"; kLines otherwise (also for "-").
DocumentFormat DocumentFormatFromPath(std::string_view path);

// What an input of a batch holds.
enum class BatchFormat {
  kJsonl,         // documents, one JSON object per line
  kLines,         // documents, one per line
  kFingerprints,  // a fingerprint file, text or binary form (fingerprint_file.h)
  kSignatures,    // a MinHash signature file (signature_file.h)
};

// Judges what the input at path holds by its first bytes, for an input
// whose name says nothing (standard input, "docs.txt"):
//   - the binary fingerprint-file magic, or a first non-blank line
//     "<id>\t<16 hex digits>" or "<id>\t-\t<reason>" (what `simdex
//     fingerprint` writes): kFingerprints;
//   - a first non-blank line "#simdex-signatures\t..." (the header of a
//     MinHash signature file): kSignatures;
//   - a first non-blank line "<id>\t<N hex digits>" with N a multiple of 8
//     from 24 to 8 x kMaxNumPerm (a line of a MinHash signature file
//     whose header line is missing): InvalidArgument naming the input and
//     line, since the signatures' options are unknown (forcing a format,
//     e.g. --format lines, reads such a file as text);
//   - else a first non-blank character '{': kJsonl;
//   - else kLines.
// A compressed file (by its name) is judged by its decompressed bytes. Reads
// at most the first 64 KiB, and only up to the end of the first non-blank
// line (so a terminal is not waited on longer). The bytes read of standard
// input ("-") are not lost: the next reader of "-" in this process gets
// them first. Errors: the input cannot be opened or read, or holds
// signatures without their header (*out untouched).
// Not thread-safe on standard input: call before any reader of it exists.
Status DetectBatchFormat(const std::string& path, BatchFormat* out);

// The longest line (record) DocumentReader reads by default: 64 MiB, far
// above any document (texts over 1 MiB are fingerprinted in windows,
// docs/fingerprint.md), and a bound on what one line can make a reader
// hold: about 3 x 64 MiB at its peak, as its buffer doubles. It was 1 GiB,
// so that one 1.5 GB line (1.5 MB gzipped) held 2.1 GB for 29 s before the
// error.
inline constexpr size_t kDefaultMaxRecordBytes = size_t{64} << 20;

enum class IdMode {
  kField,    // JSONL: the id is the value of DocumentReaderOptions::id_field
  kOrdinal,  // the id is the record number (lines: the line number), from 1
};

struct DocumentReaderOptions {
  DocumentFormat format = DocumentFormat::kJsonl;
  // JSONL only.
  IdMode id_mode = IdMode::kField;
  std::string id_field = "id";
  // JSONL only; REQUIRES: not empty. Joined with "\n" in this order.
  std::vector<std::string> text_fields = {"text"};
  // JSONL only: keep ids that are JSON strings but not decimal integers as
  // string ids instead of rejecting the record.
  bool allow_string_ids = false;
  // JSONL only: a numeric field read into Document::score ("" for none).
  std::string score_field;
  // JSONL only: a field read into Document::title ("" for none).
  std::string title_field;
  // Skip and count bad records instead of stopping at the first.
  bool skip_bad = false;
  // How many skipped records' messages stats().first_errors keeps.
  size_t max_errors_kept = 5;
  // A longer line is a bad record ("<file>:<line>: line is longer than N
  // bytes"), found once that many bytes of it are read: the rest of it is
  // never held (skip_bad reads past it in 1 MiB chunks). REQUIRES: > 0.
  size_t max_record_bytes = kDefaultMaxRecordBytes;
};

struct Document {
  uint64_t id = 0;
  // The id when it is a string (allow_string_ids); empty when the id is the
  // number `id`.
  std::string id_string;
  std::string text;
  uint64_t line = 0;  // 1-based line of the record in the (decompressed) input
  // The score_field's value; -infinity when missing, null, or not asked for.
  double score = -std::numeric_limits<double>::infinity();
  // The title_field's text (above); empty when missing, null, or not asked for.
  std::string title;
};

// A text's length as simdex counts it: its code points, counting each byte
// that does not continue a UTF-8 sequence (so a byte of invalid UTF-8 counts
// one). `dedup --keep longest`, `--short-length`, eval's length buckets and
// the docId service's short contents all use it.
uint64_t CodePointLength(std::string_view text);

struct DocumentReaderStats {
  uint64_t records = 0;      // documents returned by Next()
  uint64_t skipped = 0;      // bad records skipped (skip_bad)
  uint64_t blank_lines = 0;  // JSONL lines holding only white space
  uint64_t bytes = 0;        // decompressed bytes consumed so far
  std::vector<std::string> first_errors;  // messages of the first skipped records
};

class DocumentReader {
 public:
  // Opens path ("-" = standard input) for reading with options. On error
  // (file missing, unreadable, options invalid) *out is untouched.
  static Status Open(const std::string& path, const DocumentReaderOptions& options,
                     std::unique_ptr<DocumentReader>* out);

  ~DocumentReader();
  DocumentReader(const DocumentReader&) = delete;
  DocumentReader& operator=(const DocumentReader&) = delete;

  // Reads the next document into *doc (reusing doc->text's storage) and sets
  // *eof to false, or sets *eof to true when no document is left. After an
  // error the reader must not be used again.
  Status Next(Document* doc, bool* eof);

  // Counts so far; complete once Next() has reported the end.
  const DocumentReaderStats& stats() const;

  // The name used in messages: the path, or "<stdin>".
  const std::string& name() const;

 private:
  struct Rep;
  explicit DocumentReader(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace simdex

#endif  // SIMDEX_DOCUMENT_READER_H_
