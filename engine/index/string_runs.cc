// Writes and merges string runs (engine/index/string_runs.h draws the layout).
#include "engine/index/string_runs.h"

#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <queue>

#include "engine/util/pending_file.h"
#include "format/coding.h"

namespace simdex::index {

namespace {

constexpr char kMagic[8] = {'S', 'X', 'S', 'T', 'R', 'N', '0', '1'};
constexpr size_t kHeaderBytes = 24;
constexpr size_t kFrameHeaderBytes = 16;

// Reads one run back from the scratch file it is in (which it does not
// own), a checked frame at a time.
class StringRunReader {
 public:
  static Status Open(const util::OutputFile& file, const StringRun& run, std::unique_ptr<StringRunReader>* out) {
    std::unique_ptr<StringRunReader> r(new StringRunReader(
        file.path() + ": run at byte " + std::to_string(run.offset), file.scratch_fd(), run.offset, run.bytes));
    char header[kHeaderBytes];
    SIMDEX_RETURN_IF_ERROR(r->ReadExactly(header, kHeaderBytes, "header"));
    if (std::memcmp(header, kMagic, 8) != 0 || XXH3_64bits(header, 16) != format::DecodeFixed64(header + 16)) {
      return r->Damaged("header");
    }
    r->records_ = format::DecodeFixed64(header + 8);
    *out = std::move(r);
    return Status::OK();
  }

  // The next record, or *done at the end of the run.
  Status Next(std::string_view* s, uint64_t* number, bool* done) {
    if (at_ == payload_.size()) {
      SIMDEX_RETURN_IF_ERROR(ReadFrame(done));
      if (*done) return Status::OK();
    }
    // ReadFrame checked that the payload parses into whole records.
    const size_t length = format::DecodeFixed16(payload_.data() + at_);
    *s = std::string_view(payload_.data() + at_ + 2, length);
    *number = format::DecodeFixed64(payload_.data() + at_ + 2 + length);
    at_ += 10 + length;
    *done = false;
    return Status::OK();
  }

 private:
  StringRunReader(std::string path, int fd, uint64_t offset, uint64_t bytes)
      : path_(std::move(path)), fd_(fd), offset_(offset), end_(offset + bytes) {}

  Status Damaged(const std::string& where) const {
    return Status::Corruption("string run " + path_ + ": " + where + " is damaged");
  }

  // Reads n bytes at offset_, not past the run's end; a short read is
  // Corruption naming `what`.
  Status ReadExactly(char* dst, size_t n, const std::string& what, size_t* got = nullptr) {
    size_t done = 0;
    const size_t wanted = n;
    n = static_cast<size_t>(std::min<uint64_t>(n, end_ - offset_));
    while (done < n) {
      const ssize_t k = ::pread(fd_, dst + done, n - done, static_cast<off_t>(offset_ + done));
      if (k < 0) {
        if (errno == EINTR) continue;
        return util::ErrnoError("cannot read " + path_);
      }
      if (k == 0) break;
      done += static_cast<size_t>(k);
    }
    offset_ += done;
    if (got != nullptr) *got = done;
    if (done != wanted && !(got != nullptr && done == 0)) return Damaged(what + " (truncated)");
    return Status::OK();
  }

  Status ReadFrame(bool* done) {
    const std::string frame = "frame " + std::to_string(frame_);
    char header[kFrameHeaderBytes];
    size_t got = 0;
    SIMDEX_RETURN_IF_ERROR(ReadExactly(header, kFrameHeaderBytes, frame, &got));
    if (got == 0) {  // the end of the run
      if (seen_ != records_) {
        return Status::Corruption("string run " + path_ + ": holds " + std::to_string(seen_) + " records, not " +
                                  std::to_string(records_));
      }
      *done = true;
      return Status::OK();
    }
    const uint32_t bytes = format::DecodeFixed32(header);
    const uint32_t count = format::DecodeFixed32(header + 4);
    if (bytes == 0 || bytes > kStringRunFramePayload + kStringRunMaxString + 10) return Damaged(frame);
    payload_.resize(bytes);
    SIMDEX_RETURN_IF_ERROR(ReadExactly(payload_.data(), bytes, frame));
    if (XXH3_64bits_withSeed(payload_.data(), bytes, frame_) != format::DecodeFixed64(header + 8)) {
      return Damaged(frame);
    }
    // Every record must fit the payload, and the payload hold exactly
    // `count` of them: Next() then reads without checks.
    size_t at = 0;
    for (uint32_t i = 0; i < count; ++i) {
      if (bytes - at < 10) return Damaged(frame);
      const size_t length = format::DecodeFixed16(payload_.data() + at);
      if (bytes - at - 10 < length) return Damaged(frame);
      at += 10 + length;
    }
    if (at != bytes || count == 0) return Damaged(frame);
    seen_ += count;
    if (seen_ > records_) return Damaged(frame);
    ++frame_;
    at_ = 0;
    *done = false;
    return Status::OK();
  }

  std::string path_;
  int fd_;
  uint64_t offset_;  // of the next read
  uint64_t end_;     // of the run
  uint64_t records_ = 0;
  uint64_t seen_ = 0;
  uint64_t frame_ = 0;
  std::string payload_;
  size_t at_ = 0;
};

}  // namespace

Status StringRunFile::Create(const std::string& dir, std::unique_ptr<util::OutputFile>* out) {
  return util::OutputFile::CreateScratch(dir, "ids", kStringRunFramePayload * 4, out);
}

Status StringRunWriter::Create(util::OutputFile* file, uint64_t records, std::unique_ptr<StringRunWriter>* out) {
  std::unique_ptr<StringRunWriter> w(new StringRunWriter());
  w->file_ = file;
  w->offset_ = file->size();
  w->records_ = records;
  std::string header(kMagic, 8);
  format::PutFixed64(&header, records);
  format::PutFixed64(&header, XXH3_64bits(header.data(), 16));
  SIMDEX_RETURN_IF_ERROR(w->file_->Append(header));
  *out = std::move(w);
  return Status::OK();
}

Status StringRunWriter::Add(std::string_view s, uint64_t number) {
  if (s.size() > kStringRunMaxString) {
    return Status::InvalidArgument("an id of " + std::to_string(s.size()) + " bytes is longer than " +
                                   std::to_string(kStringRunMaxString));
  }
  format::PutFixed16(&payload_, static_cast<uint16_t>(s.size()));
  payload_.append(s);
  format::PutFixed64(&payload_, number);
  ++frame_records_;
  ++added_;
  return payload_.size() >= kStringRunFramePayload ? FlushFrame() : Status::OK();
}

Status StringRunWriter::FlushFrame() {
  if (frame_records_ == 0) return Status::OK();
  std::string header;
  format::PutFixed32(&header, static_cast<uint32_t>(payload_.size()));
  format::PutFixed32(&header, frame_records_);
  format::PutFixed64(&header, XXH3_64bits_withSeed(payload_.data(), payload_.size(), frames_++));
  SIMDEX_RETURN_IF_ERROR(file_->Append(header));
  SIMDEX_RETURN_IF_ERROR(file_->Append(payload_));
  payload_.clear();
  frame_records_ = 0;
  return Status::OK();
}

Status StringRunWriter::Finish(StringRun* run) {
  if (added_ != records_) {
    return Status::InvalidArgument("string run: " + std::to_string(added_) + " records added, " +
                                   std::to_string(records_) + " announced");
  }
  SIMDEX_RETURN_IF_ERROR(FlushFrame());
  SIMDEX_RETURN_IF_ERROR(file_->Flush());  // the readers pread it
  run->offset = offset_;
  run->bytes = file_->size() - offset_;
  run->records = records_;
  return Status::OK();
}

Status MergeStringRuns(const util::OutputFile& file, const std::vector<const StringRun*>& runs,
                       const std::function<Status(std::string_view s, uint64_t number)>& emit) {
  struct Head {
    std::string_view s;
    uint64_t number;
    size_t run;
  };
  std::vector<std::unique_ptr<StringRunReader>> readers(runs.size());
  auto later = [](const Head& a, const Head& b) { return a.s != b.s ? a.s > b.s : a.number > b.number; };
  std::priority_queue<Head, std::vector<Head>, decltype(later)> heap(later);
  auto advance = [&](size_t i) -> Status {
    Head h{{}, 0, i};
    bool done = false;
    SIMDEX_RETURN_IF_ERROR(readers[i]->Next(&h.s, &h.number, &done));
    if (!done) heap.push(h);
    return Status::OK();
  };
  for (size_t i = 0; i < runs.size(); ++i) {
    SIMDEX_RETURN_IF_ERROR(StringRunReader::Open(file, *runs[i], &readers[i]));
    SIMDEX_RETURN_IF_ERROR(advance(i));
  }
  while (!heap.empty()) {
    const Head h = heap.top();
    heap.pop();
    // h.s points into reader h.run's frame, valid until it advances.
    SIMDEX_RETURN_IF_ERROR(emit(h.s, h.number));
    SIMDEX_RETURN_IF_ERROR(advance(h.run));
  }
  return Status::OK();
}

}  // namespace simdex::index
