// For the fuzz targets of readers that take a path: the fuzzer's input is
// put in a memory file (memfd) that paths under a private directory lead
// to, with the names a reader decides by ("in", "in.gz", "in.zst", ...).
#ifndef SIMDEX_TESTS_FUZZ_FUZZ_INPUT_FILE_H_
#define SIMDEX_TESTS_FUZZ_FUZZ_INPUT_FILE_H_

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>

#include "tests/fuzz/fuzz_util.h"

namespace simdex::fuzz {

class InputFile {
 public:
  InputFile() {
    fd_ = ::memfd_create("simdex-fuzz-input", 0);
    FUZZ_CHECK(fd_ >= 0);
    // In memory where there is /dev/shm: the writers fsync what they commit.
    std::error_code ec;
    const char* tmp = std::filesystem::is_directory("/dev/shm", ec) ? "/dev/shm"
                      : std::getenv("TMPDIR") != nullptr           ? std::getenv("TMPDIR")
                                                                    : "/tmp";
    std::string dir = std::string(tmp) + "/simdex-fuzz-XXXXXX";
    FUZZ_CHECK(::mkdtemp(dir.data()) != nullptr);
    dir_ = dir;
    static std::string* const to_remove = new std::string(dir_);  // at exit (a crash leaves it)
    std::atexit([] { std::filesystem::remove_all(*to_remove); });
    const std::string target = "/proc/self/fd/" + std::to_string(fd_);
    for (const char* name : {"in", "in.gz", "in.zst", "in.bz2"}) FUZZ_CHECK(::symlink(target.c_str(), Path(name).c_str()) == 0);
  }

  // The path named `name` (one of those above) to the current contents.
  std::string Path(const char* name) const { return dir_ + "/" + name; }
  // A scratch path in the same directory, for files a target writes.
  std::string Scratch(const char* name) const { return dir_ + "/" + name; }
  const std::string& dir() const { return dir_; }

  // Makes the rest of *in the file's contents, and returns the path bits 4
  // and 5 of `mode` choose: "in" (plain), "in.zst" or "in.gz".
  std::string Take(Input* in, uint8_t mode) {
    Set(in->data(), in->remaining());
    return Path((mode & 0x30) == 0x10 ? "in.zst" : (mode & 0x30) == 0x20 ? "in.gz" : "in");
  }

  void Set(const uint8_t* data, size_t size) {
    FUZZ_CHECK(::ftruncate(fd_, 0) == 0);
    size_t at = 0;
    while (at < size) {
      const ssize_t n = ::pwrite(fd_, data + at, size - at, static_cast<off_t>(at));
      FUZZ_CHECK(n > 0);
      at += static_cast<size_t>(n);
    }
  }

 private:
  int fd_ = -1;
  std::string dir_;
};

// The one input file of a fuzz target's process.
inline InputFile& TheInputFile() {
  static InputFile* file = new InputFile();
  return *file;
}

// Calls write_seeds(dir) for each corpus directory named on the command
// line that is empty, so that mutations start from real files; for
// LLVMFuzzerInitialize.
inline void SeedEmptyCorpora(int argc, char** argv, const std::function<void(const std::string&)>& write_seeds) {
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    if (argv[i][0] != '-' && std::filesystem::is_directory(argv[i], ec) && std::filesystem::is_empty(argv[i], ec)) {
      write_seeds(argv[i]);
    }
  }
}

// Writes the seed dir/name: the two option bytes, then the bytes of the
// file `made` (which is removed).
inline void WriteSeed(const std::string& dir, const std::string& name, uint8_t mode, uint8_t extra,
                      const std::string& made) {
  std::ifstream in(made, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(made);
  std::ofstream out(dir + "/" + name, std::ios::binary);
  out.put(static_cast<char>(mode)).put(static_cast<char>(extra)) << bytes;
  FUZZ_CHECK(out.good());
}

}  // namespace simdex::fuzz

// Defines LLVMFuzzerInitialize to seed the empty corpus directories named on
// the command line with write_seeds(dir).
#define SIMDEX_FUZZ_SEED_EMPTY_CORPORA_WITH(write_seeds)                  \
  extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {          \
    simdex::fuzz::SeedEmptyCorpora(*argc, *argv, write_seeds);            \
    return 0;                                                             \
  }

#endif  // SIMDEX_TESTS_FUZZ_FUZZ_INPUT_FILE_H_
