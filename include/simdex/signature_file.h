// MinHash signature files: the (id, signature) pairs that `simdex
// fingerprint --method minhash` writes and `simdex query` searches a
// MinHash-LSH index with. docs/fingerprint-files.md ("MinHash signature
// files") describes the form byte by byte.
//
// Text only, one header line, then one line per document:
//   #simdex-signatures\t<signature profile>\n
//       the MinHashProfile (include/simdex/minhash.h) of the options that
//       made the signatures, e.g. "simdex-minhash/1 words:5 chars:5
//       unspaced:0.5 nfkc-casefold word-chars perm:128 seed:1"
//   <id>\t<num_perm x 8 hex digits>\n
//       value i of the signature as 8 lowercase hex digits (its 32 bits,
//       most significant digit first), values in order, nothing between
//   <id>\t-\t<reason>\n
//       a document without a signature (no shingles: "no-text")
// Ids as in fingerprint files (simdex/fingerprint_file.h): an unsigned
// 64-bit decimal, or else a string id (1 to 4096 bytes of UTF-8 without
// control characters). Blank lines are ignored; "\r\n" ends a line as "\n"
// does; a byte order mark at the start is dropped. The file may be
// compressed (".gz", ".zst", ".bz2", by its name); "-" stands for standard
// input or output.
#ifndef SIMDEX_SIGNATURE_FILE_H_
#define SIMDEX_SIGNATURE_FILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/minhash.h"
#include "simdex/status.h"

namespace simdex {

class OutputWriter;  // simdex/output_writer.h

// One document of a signature file.
struct SignatureEntry {
  uint64_t id = 0;
  std::string id_string;            // the id when it is a string; empty when it is `id`
  std::vector<uint32_t> signature;  // num_perm values when !empty
  bool empty = false;               // "<id>\t-\t<reason>": no signature
  std::string empty_reason;
  uint64_t line = 0;                // the line it was read from (the header is line 1)
};

struct SignatureFileStats {
  uint64_t records = 0;  // documents with a signature returned so far
  uint64_t empty = 0;    // documents without one returned so far
  uint64_t bytes = 0;    // decompressed bytes consumed so far
};

// Reads a signature file. Every malformed line stops the read with
// InvalidArgument naming the file and line: "sigs.txt:7: signature has 12
// hex digits, not 1024 (128 values of 8)". A file that does not start with
// the header is refused on line 1, naming what it holds when it is a
// SimHash fingerprint file. A damaged compressed stream is an error naming
// the file. A file cut at the end of a line cannot be told from a whole
// one; a file cut within a signature can.
//
// Thread safety: not safe for concurrent use.
class SignatureFileReader {
 public:
  // Opens path ("-" = standard input; ".gz"/".zst"/".bz2" decompressed)
  // and reads the header. On error *out is untouched.
  static Status Open(const std::string& path, std::unique_ptr<SignatureFileReader>* out);

  ~SignatureFileReader();
  SignatureFileReader(const SignatureFileReader&) = delete;
  SignatureFileReader& operator=(const SignatureFileReader&) = delete;

  // Reads the next document into *out, or sets *eof at the end. After an
  // error the reader must not be used again.
  Status Next(SignatureEntry* out, bool* eof);

  // The header's profile, and the options it names.
  const std::string& profile() const;
  const MinHashOptions& options() const;
  int num_perm() const { return options().num_perm; }
  const SignatureFileStats& stats() const;
  // The name used in messages: the path, or "<stdin>".
  const std::string& name() const;

 private:
  struct Rep;
  explicit SignatureFileReader(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

// Writes a signature file, documents in the order given.
//
// The file appears under its name only when complete (OutputWriter,
// simdex/output_writer.h: a temporary renamed by Finish(); a device or FIFO
// written directly; a directory refused). The first error is kept: later
// calls do nothing and return it.
//
// Thread safety: not safe for concurrent use.
class SignatureFileWriter {
 public:
  // Writes the header for signatures made with `options`. InvalidArgument
  // for options MinHasher::Create refuses. On error *out is untouched.
  static Status Open(const std::string& path, const MinHashOptions& options,
                     std::unique_ptr<SignatureFileWriter>* out);

  // Removes the temporary if Finish() was not called.
  ~SignatureFileWriter();
  SignatureFileWriter(const SignatureFileWriter&) = delete;
  SignatureFileWriter& operator=(const SignatureFileWriter&) = delete;

  // A document and its signature (num_perm values). A string id must pass
  // the string-id rule (InvalidArgument otherwise).
  Status Add(uint64_t id, const uint32_t* signature);
  Status Add(std::string_view id, const uint32_t* signature);

  // A document without a signature. REQUIRES: reason is not empty and holds
  // no tab, '\r' or '\n'.
  Status AddEmpty(uint64_t id, std::string_view reason);
  Status AddEmpty(std::string_view id, std::string_view reason);

  // Flushes, closes and renames to the final name. REQUIRES: at most once.
  Status Finish();

  uint64_t records() const { return records_; }
  uint64_t empty() const { return empty_; }

 private:
  SignatureFileWriter(std::unique_ptr<OutputWriter> out, int num_perm);
  // Formats one line (a signature, or the empty form when it is null) and writes it.
  // id_string: null for the numeric id.
  Status AddLine(uint64_t id, const std::string_view* id_string, const uint32_t* signature, std::string_view reason);

  std::unique_ptr<OutputWriter> out_;
  int num_perm_;
  std::string line_;
  Status status_;
  uint64_t records_ = 0;
  uint64_t empty_ = 0;
};

}  // namespace simdex

#endif  // SIMDEX_SIGNATURE_FILE_H_
