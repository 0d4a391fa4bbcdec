// Plain output goes through write(2); compressed output through a
// Boost.Iostreams filtering_ostream writing to the same descriptor.
#include "engine/io/output_stream.h"

#include <unistd.h>

#include <ostream>

// g++ 12 reports a false -Wrestrict inside Boost's gzip_compressor once it is
// inlined; the pragma covers its instantiation in this file (clang has no
// such warning).
#pragma GCC diagnostic push
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include <boost/iostreams/concepts.hpp>
#include <boost/iostreams/filter/bzip2.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filter/zstd.hpp>
#include <boost/iostreams/filtering_stream.hpp>

#include "engine/io/input_stream.h"
#include "engine/util/pending_file.h"

namespace simdex::io {

namespace bio = boost::iostreams;

namespace {

constexpr std::streamsize kBoostBufferSize = 1 << 17;

Status WriteAll(int fd, const char* data, size_t n, const std::string& name) {
  return util::WriteFully(fd, data, n) ? Status::OK() : util::ErrnoError(name + ": write failed");
}

// Where the bytes go: a PendingFile renamed into place by Commit(), or
// standard output (borrowed, never closed).
class Target {
 public:
  explicit Target(std::unique_ptr<util::PendingFile> file) : file_(std::move(file)), name_(file_->final_path()) {}
  Target() : name_("-") {}  // standard output
  int fd() const { return file_ ? file_->fd() : STDOUT_FILENO; }
  const std::string& name() const { return name_; }

  Status Commit() { return file_ ? file_->Commit() : Status::OK(); }

 private:
  std::unique_ptr<util::PendingFile> file_;
  std::string name_;
};

class FdOutputStream : public OutputStream {
 public:
  explicit FdOutputStream(std::unique_ptr<Target> target) : target_(std::move(target)) {}
  Status Write(const char* data, size_t n) override { return WriteAll(target_->fd(), data, n, target_->name()); }
  Status Close() override { return target_->Commit(); }

 private:
  std::unique_ptr<Target> target_;
};

// The end of the compressing chain: write(2) through WriteAll, keeping the
// failure's Status (with its errno: "No space left on device"), which
// Boost's own file_descriptor_sink loses by the time its exception arrives.
class StatusSink {
 public:
  using char_type = char;
  using category = bio::sink_tag;
  StatusSink(const Target* target, Status* status) : target_(target), status_(status) {}
  std::streamsize write(const char* s, std::streamsize n) {
    *status_ = WriteAll(target_->fd(), s, static_cast<size_t>(n), target_->name());
    if (!status_->ok()) throw std::ios_base::failure(status_->message());
    return n;
  }

 private:
  const Target* target_;
  Status* status_;
};

class BoostOutputStream : public OutputStream {
 public:
  BoostOutputStream(std::unique_ptr<Target> target, Compression compression) : target_(std::move(target)) {
    switch (compression) {
      case Compression::kGzip: out_.push(bio::gzip_compressor(), kBoostBufferSize); break;
      case Compression::kZstd: out_.push(bio::zstd_compressor(), kBoostBufferSize); break;
      case Compression::kBzip2: out_.push(bio::bzip2_compressor(), kBoostBufferSize); break;
      case Compression::kNone: break;
    }
    out_.push(StatusSink(target_.get(), &sink_status_), kBoostBufferSize);
    out_.exceptions(std::ios::badbit | std::ios::failbit);
  }
  ~BoostOutputStream() override {
    // Closing the chain flushes into the temporary, which the PendingFile then removes.
    try {
      out_.reset();
    } catch (const std::exception&) {
    }
  }

  Status Write(const char* data, size_t n) override {
    try {
      out_.write(data, static_cast<std::streamsize>(n));
      return Status::OK();
    } catch (const std::exception& e) {
      return Failure(e);
    }
  }

  Status Close() override {
    try {
      // Popping the filters writes the compressed stream's end.
      out_.reset();
    } catch (const std::exception& e) {
      return Failure(e);
    }
    return target_->Commit();
  }

 private:
  // The sink's own error when it failed (a full disk), else the compressor's.
  Status Failure(const std::exception& e) const {
    return sink_status_.ok() ? Status::IOError(target_->name() + ": write failed: " + e.what()) : sink_status_;
  }

  std::unique_ptr<Target> target_;
  Status sink_status_;
  bio::filtering_ostream out_;  // after sink_status_, which its sink points to
};

}  // namespace

Status OutputStream::Open(const std::string& path, std::unique_ptr<OutputStream>* out) {
  std::unique_ptr<Target> target;
  if (path == "-") {
    target = std::make_unique<Target>();
  } else {
    std::unique_ptr<util::PendingFile> file;
    SIMDEX_RETURN_IF_ERROR(util::PendingFile::Create(path, &file));
    target = std::make_unique<Target>(std::move(file));
  }
  Compression compression = path == "-" ? Compression::kNone : CompressionOf(path);
  if (compression == Compression::kNone) {
    *out = std::make_unique<FdOutputStream>(std::move(target));
    return Status::OK();
  }
  try {
    *out = std::make_unique<BoostOutputStream>(std::move(target), compression);
  } catch (const std::exception& e) {
    return Status::IOError(path + ": cannot set up compression: " + e.what());
  }
  return Status::OK();
}

}  // namespace simdex::io

#pragma GCC diagnostic pop
