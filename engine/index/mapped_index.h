// What a reader of either index kind keeps of its file, and the steps of
// Open() both kinds take alike: the file mapped and its envelope and kind
// checked, the access advice once Open() has read what it reads, reads
// asked for ahead, the id map's checksum, and errors named by the file.
// IndexReader::Rep (reader_rep.h) and LshIndexReader::Rep (engine/minhash/index/
// lsh_rep.h) derive from it.
#ifndef SIMDEX_ENGINE_INDEX_MAPPED_INDEX_H_
#define SIMDEX_ENGINE_INDEX_MAPPED_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "format/index_layout.h"
#include "simdex/index.h"
#include "simdex/status.h"

namespace simdex::index {

struct MappedIndex {
  std::unique_ptr<RandomAccessFile> file;
  const uint8_t* file_begin = nullptr;  // file->data(), ...
  const uint8_t* file_end = nullptr;    // ... + file->size(): kept so that a query makes no virtual calls
  std::string path;                     // the file's name, "" for bytes given by the caller
  uint32_t format_version = 0;          // the header's
  // MADV_RANDOM was advised (ReaderOptions::access): page faults read no
  // neighbours, and sequential reads ask for their pages ahead (WillRead).
  bool random_access = false;

  // Takes `f` and checks its envelope (format::OpenEnvelope: header,
  // footer, metadata checksum) and that it is an index of `kind`
  // (WrongIndexKind otherwise); sets format_version.
  Status MapEnvelope(std::unique_ptr<RandomAccessFile> f, format::IndexKind kind, format::Envelope* envelope);
  // For Open(path), after Open()'s own reads (which read-around serves
  // well): records the path and advises the mapping as options.access says.
  void AdviseOpened(const std::string& file_path, const ReaderOptions& options);
  // Asks the kernel for [data, data + size) ahead of a sequential read when
  // page faults do not read ahead by themselves (random_access).
  void WillRead(const uint8_t* data, size_t size) const;
  // OK, or Corruption naming the id map's byte offset when the section
  // [offset, offset + length) does not have `checksum` (read ahead first).
  Status VerifyIdMapSection(uint64_t offset, uint64_t length, uint64_t checksum) const;
  // `s` with the file's path in front when it is an error and the reader
  // has a path: every error of a search, stream or merge of the index goes
  // through it, so that a message names the file it is about.
  Status InFile(Status s) const { return s.ok() || path.empty() ? s : s.WithContext(path); }
};

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_MAPPED_INDEX_H_
