// MapFile and NewMemoryFile (include/simdex/index.h): the bytes every
// reader of an index file (SimHash or MinHash-LSH, every front end) opens.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string>

#include "engine/util/pending_file.h"
#include "simdex/index.h"

namespace simdex {

namespace {

class MemoryFile : public RandomAccessFile {
 public:
  explicit MemoryFile(std::string bytes) : bytes_(std::move(bytes)) {}
  const uint8_t* data() const override { return reinterpret_cast<const uint8_t*>(bytes_.data()); }
  size_t size() const override { return bytes_.size(); }

 private:
  std::string bytes_;
};

// A read-only shared map of a regular file, unmapped by the destructor.
class MappedFile : public RandomAccessFile {
 public:
  MappedFile(void* addr, size_t size) : addr_(addr), size_(size) {}
  ~MappedFile() override { ::munmap(addr_, size_); }
  const uint8_t* data() const override { return static_cast<const uint8_t*>(addr_); }
  size_t size() const override { return size_; }

 private:
  void* addr_;
  size_t size_;
};

// What a non-regular file is, for "<path>: is a FIFO, not an index file".
const char* FileTypeName(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

Status NotAnIndexFile(const std::string& path, mode_t mode) {
  if (S_ISDIR(mode)) return Status::IOError(path + ": is a directory");
  return Status::IOError(path + ": is " + std::string(FileTypeName(mode)) +
                         ", not an index file (an index is a regular file)");
}

}  // namespace

std::unique_ptr<RandomAccessFile> NewMemoryFile(std::string bytes) {
  return std::make_unique<MemoryFile>(std::move(bytes));
}

Status MapFile(const std::string& path, std::unique_ptr<RandomAccessFile>* out) {
  // Anything but a regular file is refused before it is opened: opening a
  // FIFO for reading blocks until a writer comes, and a device or socket
  // holds no index. O_NONBLOCK covers a file replaced by a FIFO between the
  // stat() and the open(); it changes nothing for a regular file.
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return util::ErrnoError("cannot open " + path);
  if (!S_ISREG(st.st_mode)) return NotAnIndexFile(path, st.st_mode);
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return util::ErrnoError("cannot open " + path);
  Status checked;
  if (::fstat(fd, &st) != 0) checked = util::ErrnoError("cannot stat " + path);
  else if (!S_ISREG(st.st_mode)) checked = NotAnIndexFile(path, st.st_mode);
  if (!checked.ok()) {
    ::close(fd);
    return checked;
  }
  // An empty file is an empty byte range (mmap refuses zero bytes), which
  // Open() reports as too short to be an index (Corruption).
  const size_t size = static_cast<size_t>(st.st_size);
  void* addr = size == 0 ? nullptr : ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  const int saved = errno;
  ::close(fd);  // the map keeps the file
  if (size == 0) {
    *out = NewMemoryFile(std::string());
    return Status::OK();
  }
  if (addr == MAP_FAILED) {
    errno = saved;
    return util::ErrnoError("cannot map " + path);
  }
  *out = std::make_unique<MappedFile>(addr, size);
  return Status::OK();
}

}  // namespace simdex
