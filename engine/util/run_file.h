// Runs: the sorted runs an ExternalSorter spills and merges back, one after
// another in the sorter's one scratch file (engine/util/scratch_file.h: it
// has no name, so a killed process leaves nothing; one descriptor however
// many runs). A run lives only as long as the sorter that wrote it and is
// read by the same process, so records are stored in host byte order.
//
// Layout of one run, from its offset in the file (all integers host-order):
//
//   +--------------------------------------------------+
//   | header, kHeaderBytes = 32                        |
//   |   magic        8 bytes  "SXSRUN01"               |
//   |   record_size  u32      bytes per record         |
//   |   frame_bytes  u32      payload bytes per frame  |
//   |   record_count u64                               |
//   |   checksum     u64      XXH3-64 of bytes [0, 24) |
//   +--------------------------------------------------+
//   | frame 0: checksum u64, payload                   |
//   | frame 1: checksum u64, payload                   |
//   | ...                                              |
//   +--------------------------------------------------+
//
// Every frame but the last carries frame_bytes of payload (whole records);
// the last carries the rest, and the run ends there. A frame's checksum is
// XXH3_64bits_withSeed(payload, frame index), so a frame that was damaged,
// moved or repeated is rejected before any of its records are used.
//
// A run is considered corrupted when its length (as written) differs from
// the one the header implies, when the magic, record size, frame size or
// header checksum is not the expected one, or when a frame checksum does not
// match.
#ifndef SIMDEX_ENGINE_UTIL_RUN_FILE_H_
#define SIMDEX_ENGINE_UTIL_RUN_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/util/scratch_file.h"
#include "simdex/status.h"

struct iovec;

namespace simdex::util {

constexpr size_t kRunHeaderBytes = 32;
// Payload bytes per frame; a multiple of every record size used.
constexpr size_t kRunFramePayloadBytes = 4096;
constexpr size_t kRunFrameBytes = 8 + kRunFramePayloadBytes;

// Bytes of a run holding record_count records of record_size bytes.
uint64_t RunFileBytes(size_t record_size, uint64_t record_count);

// Writes one run into file at offset. Not thread-safe.
class RunWriter {
 public:
  // Starts a run of exactly record_count records of record_size bytes at
  // `offset` of file (which the caller owns and keeps while the writer
  // lives) and writes its header. On success stores the writer in *result.
  // REQUIRES: kRunFramePayloadBytes % record_size == 0.
  static Status Create(util::ScratchFile* file, uint64_t offset, size_t record_size, uint64_t record_count,
                       std::unique_ptr<RunWriter>* result);

  RunWriter(const RunWriter&) = delete;
  RunWriter& operator=(const RunWriter&) = delete;
  ~RunWriter();

  // Bytes written so far, header included: the run's length once finished.
  uint64_t bytes_written() const { return bytes_written_; }

  // Appends n records (n * record_size bytes at records). A short write or
  // a full disk is an IOError naming the file.
  // REQUIRES: the total appended stays <= record_count.
  Status Append(const void* records, size_t n);

  // Writes the last frame.
  // REQUIRES: exactly record_count records were appended.
  Status Finish();

 private:
  RunWriter(std::string path, int fd, uint64_t offset, size_t record_size, uint64_t record_count);
  // Writes whole frames of payload from data (frames * payload bytes, the
  // last frame possibly partial) with one checksum before each.
  Status WriteFrames(const unsigned char* data, size_t bytes);
  Status WriteAll(const ::iovec* iov, int count, size_t bytes);

  std::string path_;  // the file's name, for messages
  int fd_;           // the file's, not closed here
  uint64_t offset_;  // where the run starts
  size_t record_size_;
  uint64_t record_count_;
  uint64_t appended_ = 0;
  uint64_t frames_written_ = 0;
  uint64_t bytes_written_ = 0;
  // Records waiting for a frame to fill; fewer than one frame's worth.
  std::unique_ptr<unsigned char[]> pending_;
  size_t pending_bytes_ = 0;
};

// Reads back one run, a verified frame at a time. Not thread-safe.
class RunReader {
 public:
  // Reads the run of `length` bytes (as its writer wrote) at `offset` of
  // file, which the caller keeps while the reader lives, and checks its
  // header against record_size and length. buffer_bytes bounds the read
  // buffer; it is rounded down to whole frames (at least one). On success
  // stores the reader in *result. Messages name the file and the offset.
  // REQUIRES: record_size is the record size the run was written with.
  static Status Open(const util::ScratchFile& file, uint64_t offset, uint64_t length, size_t record_size,
                     size_t buffer_bytes, std::unique_ptr<RunReader>* result);

  RunReader(const RunReader&) = delete;
  RunReader& operator=(const RunReader&) = delete;
  ~RunReader();

  uint64_t record_count() const { return record_count_; }

  // Sets *records to the next frame's records and *n to their number; *n is
  // 0 at the end of the file. The records stay valid until the next call.
  // A damaged frame is Corruption naming the file and the frame.
  Status Next(const void** records, size_t* n);

 private:
  RunReader(std::string path, int fd, uint64_t offset, size_t record_size, uint64_t record_count,
            size_t buffer_frames);
  Status Fill();

  std::string path_;     // "<file>: run at byte <offset>", for messages
  int fd_;               // the file's, not closed here
  uint64_t next_read_;   // file offset of the next Fill()
  size_t record_size_;
  uint64_t record_count_;
  uint64_t payload_left_;  // payload bytes not yet handed out
  uint64_t next_frame_ = 0;
  std::unique_ptr<uint64_t[]> buffer_;  // uint64_t for record alignment
  size_t buffer_frames_;
  size_t buffer_bytes_ = 0;  // bytes of valid data in buffer_
  size_t buffer_pos_ = 0;    // start of the next frame in buffer_
};

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_RUN_FILE_H_
