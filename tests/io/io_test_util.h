// Helpers for the io tests: a temporary directory, files written into it,
// and data compressed with the Boost.Iostreams compressors.
#ifndef SIMDEX_TESTS_IO_IO_TEST_UTIL_H_
#define SIMDEX_TESTS_IO_IO_TEST_UTIL_H_

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

// g++ 12 reports a false -Wrestrict inside Boost's gzip_compressor once it is
// inlined; the pragma covers the instantiation below (clang has no such
// warning).
#pragma GCC diagnostic push
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include <boost/iostreams/device/back_inserter.hpp>
#include <boost/iostreams/filter/bzip2.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filter/zstd.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <gtest/gtest.h>

namespace simdex::testing {

inline void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

// A fresh directory under the system temporary directory, removed with its
// contents on destruction.
class TempDir {
 public:
  TempDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "simdex-io-XXXXXX").string();
    path_ = ::mkdtemp(templ.data());
    EXPECT_FALSE(path_.empty());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::string Path(const std::string& name) const { return path_ + "/" + name; }
  // Writes a file named name holding bytes; returns its path.
  std::string Write(const std::string& name, const std::string& bytes) const {
    std::string path = Path(name);
    WriteFile(path, bytes);
    return path;
  }

 private:
  std::string path_;
};

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// data compressed as a file named "*<suffix>" would be (".gz", ".zst", ".bz2").
inline std::string Compress(const std::string& data, const std::string& suffix) {
  namespace bio = boost::iostreams;
  std::string out;
  {
    bio::filtering_ostream os;
    if (suffix == ".gz") os.push(bio::gzip_compressor());
    if (suffix == ".zst") os.push(bio::zstd_compressor());
    if (suffix == ".bz2") os.push(bio::bzip2_compressor());
    os.push(bio::back_inserter(out));
    os.write(data.data(), static_cast<std::streamsize>(data.size()));
  }
  return out;
}

}  // namespace simdex::testing

#pragma GCC diagnostic pop

#endif  // SIMDEX_TESTS_IO_IO_TEST_UTIL_H_
