// String runs: the sorted runs of (string, number) records that an
// IdMapBuilder spills when its distinct ids outgrow its memory budget, and
// the merge that reads them back in order. The runs of one builder are one
// after another in one scratch file (no name, one descriptor however many
// runs: engine/util/scratch_file.h). A run lives only as long as the builder
// that wrote it and is read by the same process.
//
// Layout (integers little-endian):
//
//   +-----------------------------------------------------------+
//   | header: "SXSTRN01" | u64 record count | u64 XXH3-64 of     |
//   |         bytes [0, 16)                                      |
//   | frame 0: u32 payload bytes | u32 records |                 |
//   |          u64 XXH3-64 of the payload, seeded by the frame   |
//   |          index | payload                                   |
//   | frame 1 ...                                                |
//   +-----------------------------------------------------------+
//
// A payload holds whole records, each u16 length | the string's bytes |
// u64 number, and at most kStringRunFramePayload bytes (one record may
// make it longer). A run is corrupted when a frame is truncated, too long,
// fails its checksum or does not parse into exactly its records, or when
// the run ends with another record count than the header's.
#ifndef SIMDEX_ENGINE_INDEX_STRING_RUNS_H_
#define SIMDEX_ENGINE_INDEX_STRING_RUNS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/util/output_file.h"
#include "simdex/status.h"

namespace simdex::index {

inline constexpr size_t kStringRunFramePayload = size_t{64} << 10;
// Strings longer than this are refused (string ids are at most 4096 bytes).
inline constexpr size_t kStringRunMaxString = 65535;
// Bytes a reader holds: one frame, at most.
inline constexpr size_t kStringRunReaderBytes = kStringRunFramePayload + kStringRunMaxString + 16;

// One spilled run: where it is in its file.
struct StringRun {
  uint64_t offset = 0;
  uint64_t bytes = 0;
  uint64_t records = 0;
};

// The scratch file that holds the runs.
struct StringRunFile {
  static Status Create(const std::string& dir, std::unique_ptr<util::OutputFile>* out);
};

// Writes a run at the end of file, records in the order given (the caller
// sorts them). One writer of a file at a time; it may be read meanwhile.
class StringRunWriter {
 public:
  // REQUIRES: file (a StringRunFile) outlives the writer.
  static Status Create(util::OutputFile* file, uint64_t records, std::unique_ptr<StringRunWriter>* out);
  // A string longer than kStringRunMaxString is InvalidArgument.
  Status Add(std::string_view s, uint64_t number);
  // Writes the last frame out; REQUIRES: exactly `records` records were
  // added.
  Status Finish(StringRun* run);

 private:
  StringRunWriter() = default;
  Status FlushFrame();

  util::OutputFile* file_ = nullptr;
  uint64_t offset_ = 0;  // where the run starts
  uint64_t records_ = 0;
  uint64_t added_ = 0;
  uint64_t frames_ = 0;
  uint32_t frame_records_ = 0;
  std::string payload_;
};

// Merges runs of file: calls `emit` with every record of every run in
// (string, number) order. Each run must be sorted that way. The strings
// passed to `emit` are valid only during the call.
Status MergeStringRuns(const util::OutputFile& file, const std::vector<const StringRun*>& runs,
                       const std::function<Status(std::string_view s, uint64_t number)>& emit);

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_STRING_RUNS_H_
