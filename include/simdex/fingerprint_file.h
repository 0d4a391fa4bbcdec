// Fingerprint files: the (id, fingerprint) pairs that `simdex fingerprint`
// writes and the index builder reads. docs/fingerprint-files.md describes
// both forms byte by byte.
//
// Text form, one line per document:
//   <id>\t<16 hex digits>\n     e.g. "42\t9f3a0c71d2e4b856\n"
//   <id>\t-\t<reason>\n         a document that has no fingerprint, e.g.
//                               "43\t-\tno-text\n" (see EmptyReasonName)
// The id is an unsigned 64-bit decimal integer, or else a string id (1 to
// 4096 bytes of UTF-8 without control characters: "https://a.example/x").
// Readers also accept fingerprints written by other tools: 1 to 16 hex
// digits, with or without a "0x" prefix.
// Binary form: a 16-byte header ("SDXFPv1\0", version, flags), in version 2
// the profile (u32 length, bytes), 16-byte records (u64 id, u64
// fingerprint, little-endian), and a 32-byte trailer (record count, count
// of empty documents left out, XXH3-64 checksum of all bytes before it,
// "SDXFPend").
//
// Either form may record the fingerprint profile of its fingerprints
// (include/simdex/profile.h): the text form as its first line,
//   #simdex-profile\t<profile>\n
// the binary form as version 2. Files without one read as profile "".
//
// Both forms may be compressed (".gz", ".zst", ".bz2", by the file name) and
// "-" stands for standard input or output.
#ifndef SIMDEX_FINGERPRINT_FILE_H_
#define SIMDEX_FINGERPRINT_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/status.h"

namespace simdex {

struct FingerprintRecord {
  uint64_t id;
  uint64_t fingerprint;
};

// One document of a fingerprint file as FingerprintFileReader::Next gives
// it: string ids and documents without a fingerprint included.
struct FingerprintEntry {
  uint64_t id = 0;
  std::string id_string;     // the id when it is a string; empty when it is `id`
  uint64_t fingerprint = 0;  // valid when !empty
  bool empty = false;        // "<id>\t-\t<reason>": no fingerprint
  std::string empty_reason;
  uint64_t line = 0;         // text form: the line; binary form: the record number (from 1)
};

enum class FingerprintFileForm { kText, kBinary };

struct FingerprintFileReaderOptions {
  // Text form only: skip and count malformed lines instead of failing. The
  // binary form has no record-level check to skip by; its errors always stop.
  bool skip_bad = false;
  // How many skipped lines' messages stats().first_errors keeps.
  size_t max_errors_kept = 5;
};

struct FingerprintFileStats {
  uint64_t records = 0;  // records returned by Read()
  uint64_t empty = 0;    // documents without a fingerprint: '-' lines, or the binary trailer's count
  uint64_t skipped = 0;  // malformed text lines skipped (skip_bad)
  uint64_t bytes = 0;    // decompressed bytes consumed so far
  std::vector<std::string> first_errors;  // messages of the first skipped lines
};

// Reads a fingerprint file of either form; the form is detected from the
// first bytes (the binary magic, or else text).
//
// Errors name the place: "fp.txt:17: fingerprint is not 1 to 16 hex digits"
// (text), "fp.bin: byte 4128: checksum mismatch" (binary). Binary records
// are returned as they are read, before the trailer can be checked; the
// trailer is checked when Read() reaches the end, so a caller must treat the
// whole file as bad if any call returns an error.
//
// Thread safety: not safe for concurrent use.
class FingerprintFileReader {
 public:
  // Opens path ("-" = standard input; ".gz"/".zst"/".bz2" decompressed) and
  // reads enough to know the form. On error *out is untouched.
  static Status Open(const std::string& path, const FingerprintFileReaderOptions& options,
                     std::unique_ptr<FingerprintFileReader>* out);

  ~FingerprintFileReader();
  FingerprintFileReader(const FingerprintFileReader&) = delete;
  FingerprintFileReader& operator=(const FingerprintFileReader&) = delete;

  // Reads up to max records into out[0, *n), in file order. *n == 0 with OK
  // means the end was reached and the file checked. Empty-document lines are
  // counted in stats().empty, not returned. A string id is an error (a bad
  // line): this call is for numeric ids. After an error the reader must
  // not be used again. REQUIRES: max > 0.
  Status Read(FingerprintRecord* out, size_t max, size_t* n);

  // Reads the next document, string ids and empty documents included; sets
  // *eof at the end (the file then checked). Do not mix with Read().
  Status Next(FingerprintEntry* out, bool* eof);

  FingerprintFileForm form() const;
  // Counts so far; complete once Read() has reported the end.
  const FingerprintFileStats& stats() const;
  // The name used in messages: the path, or "<stdin>".
  const std::string& name() const;
  // The fingerprint profile the file records (include/simdex/profile.h),
  // known from Open(); "" when it records none (files written before
  // profiles, or by other tools).
  const std::string& profile() const;

  class Decoder;  // one per form; internal

 private:
  FingerprintFileReader(std::unique_ptr<Decoder> decoder, std::string name);
  std::unique_ptr<Decoder> decoder_;
  std::string name_;
};

// Writes a fingerprint file. Records are written in the order given.
//
// A file path is written without a name (O_TMPFILE; where the file system
// has none, under a unique temporary name "<path>.tmp-XXXXXX") and renamed
// to path by Finish(), so a run that fails, is abandoned or is killed never
// leaves a partial file under the final name, nor one beside it. A symbolic link is followed
// and its target replaced; a device, FIFO or socket (/dev/null) is written
// directly; a directory is refused (as OutputWriter does). "-" writes to
// standard output. ".gz"/".zst"/".bz2" compress.
// The first error is kept: later calls do nothing and return it.
//
// Thread safety: not safe for concurrent use.
class FingerprintFileWriter {
 public:
  // Creates the temporary (or opens the device, or uses standard output)
  // and, for the binary form, writes the header. A non-empty `profile`
  // (include/simdex/profile.h: CheckProfileText) is recorded in the file.
  // On error *out is untouched.
  static Status Open(const std::string& path, FingerprintFileForm form,
                     std::unique_ptr<FingerprintFileWriter>* out);
  static Status Open(const std::string& path, FingerprintFileForm form, std::string_view profile,
                     std::unique_ptr<FingerprintFileWriter>* out);

  // Abandons the file if Finish() was not called: the temporary is removed.
  ~FingerprintFileWriter();
  FingerprintFileWriter(const FingerprintFileWriter&) = delete;
  FingerprintFileWriter& operator=(const FingerprintFileWriter&) = delete;

  Status Add(uint64_t id, uint64_t fingerprint);
  // A string id (text form only: InvalidArgument for the binary form, or for
  // an id the text form cannot hold: empty, control characters, not UTF-8,
  // or "#simdex-profile" as the first line of a file without a profile).
  Status Add(std::string_view id, uint64_t fingerprint);

  // A document with no fingerprint. Text form: writes "<id>\t-\t<reason>";
  // binary form: only counted in the trailer. REQUIRES: reason is not empty
  // and holds no tab, '\r' or '\n'.
  Status AddEmpty(uint64_t id, std::string_view reason);
  Status AddEmpty(std::string_view id, std::string_view reason);

  // Writes the trailer (binary), flushes, closes and renames to the final
  // name. REQUIRES: called at most once.
  Status Finish();

  uint64_t records() const { return records_; }
  uint64_t empty() const { return empty_; }

  class Encoder;  // internal

 private:
  explicit FingerprintFileWriter(std::unique_ptr<Encoder> encoder);
  std::unique_ptr<Encoder> encoder_;
  Status status_;
  uint64_t records_ = 0;
  uint64_t empty_ = 0;
};

}  // namespace simdex

#endif  // SIMDEX_FINGERPRINT_FILE_H_
