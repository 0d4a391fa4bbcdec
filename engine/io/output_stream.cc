// Plain output goes through write(2); compressed output through a
// Boost.Iostreams filtering_ostream writing to the same descriptor.
#include "engine/io/output_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <ostream>

// g++ 12 reports a false -Wrestrict inside Boost's gzip_compressor once it is
// inlined; the pragma covers its instantiation in this file.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
#include <boost/iostreams/device/file_descriptor.hpp>
#include <boost/iostreams/filter/bzip2.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filter/zstd.hpp>
#include <boost/iostreams/filtering_stream.hpp>

#include "engine/io/input_stream.h"

namespace simdex::io {

namespace bio = boost::iostreams;

namespace {

constexpr std::streamsize kBoostBufferSize = 1 << 17;

Status WriteAll(int fd, const char* data, size_t n, const std::string& name) {
  while (n > 0) {
    ssize_t w = ::write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(name + ": write failed: " + std::strerror(errno));
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
  return Status::OK();
}

// Owns the descriptor of "<path>.tmp" (or borrows standard output) and
// performs the final rename.
class Target {
 public:
  Target(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ~Target() {
    if (!IsStdout() && fd_ >= 0) {
      ::close(fd_);
      ::unlink(TempPath().c_str());
    }
  }
  int fd() const { return fd_; }
  const std::string& name() const { return path_; }
  bool IsStdout() const { return path_ == "-"; }
  std::string TempPath() const { return path_ + ".tmp"; }

  Status Commit() {
    if (IsStdout()) return Status::OK();
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) {
      Status s = Status::IOError(TempPath() + ": close failed: " + std::strerror(errno));
      ::unlink(TempPath().c_str());
      return s;
    }
    if (std::rename(TempPath().c_str(), path_.c_str()) != 0) {
      Status s = Status::IOError(path_ + ": cannot rename " + TempPath() + ": " + std::strerror(errno));
      ::unlink(TempPath().c_str());
      return s;
    }
    return Status::OK();
  }

 private:
  int fd_;
  std::string path_;
};

class FdOutputStream : public OutputStream {
 public:
  explicit FdOutputStream(std::unique_ptr<Target> target) : target_(std::move(target)) {}
  Status Write(const char* data, size_t n) override { return WriteAll(target_->fd(), data, n, target_->name()); }
  Status Close() override { return target_->Commit(); }

 private:
  std::unique_ptr<Target> target_;
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
    out_.push(bio::file_descriptor_sink(target_->fd(), bio::never_close_handle), kBoostBufferSize);
    out_.exceptions(std::ios::badbit | std::ios::failbit);
  }
  ~BoostOutputStream() override {
    // Closing the chain flushes into the temporary, which Target then removes.
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
      return Status::IOError(target_->name() + ": write failed: " + e.what());
    }
  }

  Status Close() override {
    try {
      // Popping the filters writes the compressed stream's end.
      out_.reset();
    } catch (const std::exception& e) {
      return Status::IOError(target_->name() + ": write failed: " + e.what());
    }
    return target_->Commit();
  }

 private:
  std::unique_ptr<Target> target_;
  bio::filtering_ostream out_;
};

}  // namespace

Status OutputStream::Open(const std::string& path, std::unique_ptr<OutputStream>* out) {
  std::unique_ptr<Target> target;
  if (path == "-") {
    target = std::make_unique<Target>(STDOUT_FILENO, path);
  } else {
    std::string tmp = path + ".tmp";
    int fd;
    do {
      fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return Status::IOError(tmp + ": cannot create: " + std::strerror(errno));
    target = std::make_unique<Target>(fd, path);
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
