// Opens plain files with read(2) (the fast path) and compressed files through
// a Boost.Iostreams filtering_istream whose exceptions are turned into Status.
#include "engine/io/input_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <istream>
#include <map>

#include <boost/iostreams/device/file_descriptor.hpp>
#include <boost/iostreams/filter/bzip2.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_stream.hpp>

#include "engine/io/zstd_checked_decompressor.h"

namespace simdex::io {

namespace bio = boost::iostreams;

namespace {

constexpr std::streamsize kBoostBufferSize = 1 << 17;

// The streams PeekInput() read the start of, for inputs that cannot be
// opened again from their start (standard input, pipes, devices), by path,
// until a reader opens the path: it gets the stream, the bytes peeked first.
std::map<std::string, std::unique_ptr<InputStream>>& Peeked() {
  static auto* peeked = new std::map<std::string, std::unique_ptr<InputStream>>();  // never destroyed
  return *peeked;
}

// The bytes `prefix`, then the rest of a stream.
class PrefixedInputStream : public InputStream {
 public:
  PrefixedInputStream(std::string prefix, std::unique_ptr<InputStream> rest)
      : prefix_(std::move(prefix)), rest_(std::move(rest)) {}

  Status Read(char* dst, size_t n, size_t* got) override {
    if (at_ == prefix_.size()) return rest_->Read(dst, n, got);
    *got = std::min(n, prefix_.size() - at_);
    std::memcpy(dst, prefix_.data() + at_, *got);
    at_ += *got;
    return Status::OK();
  }

 private:
  std::string prefix_;
  size_t at_ = 0;
  std::unique_ptr<InputStream> rest_;
};

class FdInputStream : public InputStream {
 public:
  FdInputStream(int fd, bool owned, std::string name) : fd_(fd), owned_(owned), name_(std::move(name)) {}
  ~FdInputStream() override {
    if (owned_) ::close(fd_);
  }

  Status Read(char* dst, size_t n, size_t* got) override {
    for (;;) {
      ssize_t r = ::read(fd_, dst, n);
      if (r >= 0) {
        *got = static_cast<size_t>(r);
        return Status::OK();
      }
      if (errno != EINTR) return Status::IOError(name_ + ": read failed: " + std::strerror(errno));
    }
  }

 private:
  int fd_;
  bool owned_;
  std::string name_;
};

std::string GzipMessage(const bio::gzip_error& e) {
  switch (e.error()) {
    case bio::gzip::bad_footer: return "truncated gzip stream";
    case bio::gzip::bad_crc: return "corrupt gzip stream (CRC mismatch)";
    case bio::gzip::bad_length: return "corrupt gzip stream (length mismatch)";
    case bio::gzip::bad_header: return "not a gzip stream (bad header)";
    case bio::gzip::bad_method: return "not a gzip stream (unknown method)";
    default: break;
  }
  if (e.error() == bio::gzip::zlib_error && e.zlib_error_code() == bio::zlib::buf_error) {
    return "truncated gzip stream";
  }
  return "corrupt gzip stream (error " + std::to_string(e.error()) + ", zlib " +
         std::to_string(e.zlib_error_code()) + ")";
}

std::string Bzip2Message(const bio::bzip2_error& e) {
  // The bzip2 codes are extern constants, not usable as case labels.
  if (e.error() == bio::bzip2::unexpected_eof) return "truncated bzip2 stream";
  if (e.error() == bio::bzip2::data_error_magic) return "not a bzip2 stream (bad magic)";
  if (e.error() == bio::bzip2::data_error) return "corrupt bzip2 stream";
  return "corrupt bzip2 stream (error " + std::to_string(e.error()) + ")";
}

class BoostInputStream : public InputStream {
 public:
  BoostInputStream(int fd, Compression compression, std::string name) : name_(std::move(name)) {
    switch (compression) {
      case Compression::kGzip: in_.push(bio::gzip_decompressor(), kBoostBufferSize); break;
      case Compression::kZstd: in_.push(ZstdCheckedDecompressor(), kBoostBufferSize); break;
      case Compression::kBzip2: in_.push(bio::bzip2_decompressor(), kBoostBufferSize); break;
      case Compression::kNone: break;
    }
    in_.push(bio::file_descriptor_source(fd, bio::close_handle), kBoostBufferSize);
    // badbit rethrows the filter's own exception, whose type says what broke.
    in_.exceptions(std::ios::badbit);
  }

  Status Read(char* dst, size_t n, size_t* got) override {
    *got = 0;
    if (failed_) return Status::Corruption(name_ + ": " + failure_);
    try {
      in_.read(dst, static_cast<std::streamsize>(n));
      *got = static_cast<size_t>(in_.gcount());
      return Status::OK();
    } catch (const bio::gzip_error& e) {
      failure_ = GzipMessage(e);
    } catch (const bio::bzip2_error& e) {
      failure_ = Bzip2Message(e);
    } catch (const ZstdStreamError& e) {
      failure_ = e.what();
    } catch (const std::ios_base::failure& e) {
      return Status::IOError(name_ + ": read failed: " + e.what());
    } catch (const std::exception& e) {
      failure_ = std::string("decompression failed: ") + e.what();
    }
    failed_ = true;
    return Status::Corruption(name_ + ": " + failure_);
  }

 private:
  std::string name_;
  bio::filtering_istream in_;
  bool failed_ = false;
  std::string failure_;
};

}  // namespace

Compression CompressionOf(std::string_view path) {
  if (path.ends_with(".gz")) return Compression::kGzip;
  if (path.ends_with(".zst")) return Compression::kZstd;
  if (path.ends_with(".bz2")) return Compression::kBzip2;
  return Compression::kNone;
}

std::string_view StripCompressionSuffix(std::string_view path) {
  return CompressionOf(path) == Compression::kNone ? path : path.substr(0, path.rfind('.'));
}

Status InputStream::Open(const std::string& path, std::unique_ptr<InputStream>* out) {
  auto peeked = Peeked().find(path);
  if (peeked != Peeked().end()) {
    *out = std::move(peeked->second);
    Peeked().erase(peeked);
    return Status::OK();
  }
  if (path == "-") {
    *out = std::make_unique<FdInputStream>(STDIN_FILENO, false, DisplayName(path));
    return Status::OK();
  }
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    std::string msg = path + ": " + std::strerror(errno);
    return errno == ENOENT ? Status::NotFound(msg) : Status::IOError(msg);
  }
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Status::IOError(path + ": is a directory");
  }
  Compression compression = CompressionOf(path);
  if (compression == Compression::kNone) {
    *out = std::make_unique<FdInputStream>(fd, true, path);
    return Status::OK();
  }
  try {
    *out = std::make_unique<BoostInputStream>(fd, compression, path);
  } catch (const std::exception& e) {
    return Status::IOError(path + ": cannot set up decompression: " + e.what());
  }
  return Status::OK();
}

Status PeekInput(const std::string& path, size_t max_bytes, const std::function<bool(std::string_view)>& enough,
                 std::string* head) {
  const bool keep = !CanReadTwice(path);
  head->clear();
  std::unique_ptr<InputStream> in;
  SIMDEX_RETURN_IF_ERROR(InputStream::Open(path, &in));
  std::string chunk(std::min<size_t>(max_bytes, 1 << 16), '\0');
  Status s;
  while (head->size() < max_bytes && !enough(*head)) {
    size_t got = 0;
    s = in->Read(chunk.data(), std::min(chunk.size(), max_bytes - head->size()), &got);
    if (!s.ok() || got == 0) break;
    head->append(chunk.data(), got);
  }
  // The stream, open, goes to the next reader with what was read in front
  // (an earlier peek's bytes included: the stream began with them).
  if (keep) Peeked()[path] = std::make_unique<PrefixedInputStream>(*head, std::move(in));
  return s;
}

}  // namespace simdex::io

// DisplayName and CanReadTwice: include/simdex/front_end_text.h.
namespace simdex {

std::string DisplayName(const std::string& path) { return path == "-" ? "<stdin>" : path; }

bool CanReadTwice(const std::string& path) {
  struct stat st;
  return path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace simdex
