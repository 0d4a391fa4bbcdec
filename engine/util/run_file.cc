// Writes and reads the runs described in run_file.h.
#include "engine/util/run_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstring>
#include <vector>

#include "engine/util/pending_file.h"  // ErrnoError

namespace simdex::util {

namespace {

constexpr char kMagic[8] = {'S', 'X', 'S', 'R', 'U', 'N', '0', '1'};
constexpr size_t kHeaderChecksummedBytes = 24;
// Frames per writev(): two iovecs each, within the usual IOV_MAX of 1024.
constexpr size_t kFramesPerWrite = 512;

}  // namespace

uint64_t RunFileBytes(size_t record_size, uint64_t record_count) {
  const uint64_t payload = record_count * record_size;
  const uint64_t frames = (payload + kRunFramePayloadBytes - 1) / kRunFramePayloadBytes;
  return kRunHeaderBytes + frames * 8 + payload;
}

RunWriter::RunWriter(std::string path, int fd, uint64_t offset, size_t record_size, uint64_t record_count)
    : path_(std::move(path)),
      fd_(fd),
      offset_(offset),
      record_size_(record_size),
      record_count_(record_count),
      pending_(new unsigned char[kRunFramePayloadBytes]) {}

RunWriter::~RunWriter() = default;

Status RunWriter::Create(util::ScratchFile* file, uint64_t offset, size_t record_size, uint64_t record_count,
                         std::unique_ptr<RunWriter>* result) {
  assert(record_size > 0 && kRunFramePayloadBytes % record_size == 0);
  std::unique_ptr<RunWriter> writer(new RunWriter(file->name(), file->fd(), offset, record_size, record_count));

  unsigned char header[kRunHeaderBytes];
  const uint32_t size32 = static_cast<uint32_t>(record_size);
  const uint32_t frame32 = static_cast<uint32_t>(kRunFramePayloadBytes);
  std::memcpy(header, kMagic, 8);
  std::memcpy(header + 8, &size32, 4);
  std::memcpy(header + 12, &frame32, 4);
  std::memcpy(header + 16, &record_count, 8);
  const uint64_t checksum = XXH3_64bits(header, kHeaderChecksummedBytes);
  std::memcpy(header + 24, &checksum, 8);
  const struct iovec iov = {header, sizeof(header)};
  SIMDEX_RETURN_IF_ERROR(writer->WriteAll(&iov, 1, sizeof(header)));
  *result = std::move(writer);
  return Status::OK();
}

Status RunWriter::WriteAll(const ::iovec* iov, int count, size_t bytes) {
  std::vector<struct iovec> left(iov, iov + count);
  size_t first = 0;
  while (bytes > 0) {
    const ssize_t r = ::pwritev(fd_, left.data() + first, static_cast<int>(left.size() - first),
                                static_cast<off_t>(offset_ + bytes_written_));
    if (r < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(path_ + ": write failed");
    }
    if (r == 0) return Status::IOError(path_ + ": write failed: short write");
    size_t done = static_cast<size_t>(r);
    bytes -= done;
    bytes_written_ += done;
    while (first < left.size() && done >= left[first].iov_len) done -= left[first++].iov_len;
    if (done > 0) {
      left[first].iov_base = static_cast<char*>(left[first].iov_base) + done;
      left[first].iov_len -= done;
    }
  }
  return Status::OK();
}

Status RunWriter::WriteFrames(const unsigned char* data, size_t bytes) {
  uint64_t checksums[kFramesPerWrite];
  struct iovec iov[2 * kFramesPerWrite];
  while (bytes > 0) {
    size_t frames = 0;
    size_t batch = 0;
    while (bytes > 0 && frames < kFramesPerWrite) {
      const size_t payload = std::min(bytes, kRunFramePayloadBytes);
      checksums[frames] = XXH3_64bits_withSeed(data, payload, frames_written_++);
      iov[2 * frames] = {&checksums[frames], 8};
      iov[2 * frames + 1] = {const_cast<unsigned char*>(data), payload};
      ++frames;
      batch += 8 + payload;
      data += payload;
      bytes -= payload;
    }
    SIMDEX_RETURN_IF_ERROR(WriteAll(iov, static_cast<int>(2 * frames), batch));
  }
  return Status::OK();
}

Status RunWriter::Append(const void* records, size_t n) {
  appended_ += n;
  assert(appended_ <= record_count_);
  const unsigned char* p = static_cast<const unsigned char*>(records);
  size_t bytes = n * record_size_;
  if (bytes == 0) return Status::OK();
  if (pending_bytes_ > 0) {
    const size_t take = std::min(bytes, kRunFramePayloadBytes - pending_bytes_);
    std::memcpy(pending_.get() + pending_bytes_, p, take);
    pending_bytes_ += take;
    p += take;
    bytes -= take;
    if (pending_bytes_ < kRunFramePayloadBytes) return Status::OK();
    pending_bytes_ = 0;
    SIMDEX_RETURN_IF_ERROR(WriteFrames(pending_.get(), kRunFramePayloadBytes));
  }
  // Whole frames go straight from the caller's records; the tail waits.
  const size_t whole = bytes / kRunFramePayloadBytes * kRunFramePayloadBytes;
  SIMDEX_RETURN_IF_ERROR(WriteFrames(p, whole));
  pending_bytes_ = bytes - whole;
  if (pending_bytes_ > 0) std::memcpy(pending_.get(), p + whole, pending_bytes_);
  return Status::OK();
}

Status RunWriter::Finish() {
  assert(appended_ == record_count_);
  SIMDEX_RETURN_IF_ERROR(WriteFrames(pending_.get(), pending_bytes_));
  pending_bytes_ = 0;
  return Status::OK();
}

RunReader::RunReader(std::string path, int fd, uint64_t offset, size_t record_size, uint64_t record_count,
                     size_t buffer_frames)
    : path_(std::move(path)),
      fd_(fd),
      next_read_(offset + kRunHeaderBytes),
      record_size_(record_size),
      record_count_(record_count),
      payload_left_(record_count * record_size),
      buffer_(new uint64_t[buffer_frames * kRunFrameBytes / 8]),
      buffer_frames_(buffer_frames) {}

RunReader::~RunReader() = default;

Status RunReader::Open(const util::ScratchFile& file, uint64_t offset, uint64_t length, size_t record_size,
                       size_t buffer_bytes, std::unique_ptr<RunReader>* result) {
  static_assert(kRunFrameBytes % 8 == 0, "frames must keep records 8-byte aligned");
  const std::string path = file.name() + ": run at byte " + std::to_string(offset);
  const int fd = file.fd();
  unsigned char header[kRunHeaderBytes];
  const uint64_t file_size = length;  // the run's, as written
  ssize_t got = 0;
  if (file_size >= kRunHeaderBytes) {
    do {
      got = ::pread(fd, header, kRunHeaderBytes, static_cast<off_t>(offset));
    } while (got < 0 && errno == EINTR);
    if (got < 0) return ErrnoError(path + ": read failed");
  }
  // Header checks, in the order that gives the most specific message.
  std::string problem;
  uint32_t size32 = 0;
  uint32_t frame32 = 0;
  uint64_t count = 0;
  uint64_t checksum = 0;
  if (static_cast<size_t>(got) < kRunHeaderBytes) {
    problem = "run is too short (" + std::to_string(file_size) + " bytes)";
  } else {
    std::memcpy(&size32, header + 8, 4);
    std::memcpy(&frame32, header + 12, 4);
    std::memcpy(&count, header + 16, 8);
    std::memcpy(&checksum, header + 24, 8);
    if (std::memcmp(header, kMagic, 8) != 0) {
      problem = "bad run magic";
    } else if (checksum != XXH3_64bits(header, kHeaderChecksummedBytes)) {
      problem = "run header checksum mismatch";
    } else if (size32 != record_size || frame32 != kRunFramePayloadBytes) {
      problem = "run holds " + std::to_string(size32) + "-byte records in " + std::to_string(frame32) +
                "-byte frames, expected " + std::to_string(record_size) + " and " +
                std::to_string(kRunFramePayloadBytes);
    } else if (count > (file_size / record_size) || RunFileBytes(record_size, count) != file_size) {
      problem = "run is " + std::to_string(file_size) + " bytes, its header says " + std::to_string(count) +
                " records";
    }
  }
  if (!problem.empty()) return Status::Corruption(path + ": " + problem);
  const size_t frames = std::max<size_t>(1, buffer_bytes / kRunFrameBytes);
  result->reset(new RunReader(path, fd, offset, record_size, count, frames));
  return Status::OK();
}

Status RunReader::Fill() {
  const uint64_t frames_left = (payload_left_ + kRunFramePayloadBytes - 1) / kRunFramePayloadBytes;
  const uint64_t want = std::min<uint64_t>(buffer_frames_ * kRunFrameBytes, payload_left_ + 8 * frames_left);
  unsigned char* buffer = reinterpret_cast<unsigned char*>(buffer_.get());
  size_t got = 0;
  while (got < want) {
    const ssize_t r = ::pread(fd_, buffer + got, want - got, static_cast<off_t>(next_read_ + got));
    if (r < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(path_ + ": read failed");
    }
    if (r == 0) return Status::Corruption(path_ + ": run ends early");
    got += static_cast<size_t>(r);
  }
  next_read_ += got;
  buffer_bytes_ = got;
  buffer_pos_ = 0;
  return Status::OK();
}

Status RunReader::Next(const void** records, size_t* n) {
  *n = 0;
  if (payload_left_ == 0) return Status::OK();
  if (buffer_pos_ == buffer_bytes_) SIMDEX_RETURN_IF_ERROR(Fill());
  const unsigned char* frame = reinterpret_cast<const unsigned char*>(buffer_.get()) + buffer_pos_;
  const size_t payload = static_cast<size_t>(std::min<uint64_t>(payload_left_, kRunFramePayloadBytes));
  uint64_t stored;
  std::memcpy(&stored, frame, 8);
  if (stored != XXH3_64bits_withSeed(frame + 8, payload, next_frame_)) {
    return Status::Corruption(path_ + ": frame " + std::to_string(next_frame_) + ": checksum mismatch");
  }
  ++next_frame_;
  buffer_pos_ += 8 + payload;
  payload_left_ -= payload;
  *records = frame + 8;
  *n = payload / record_size_;
  return Status::OK();
}

}  // namespace simdex::util
