// io::OutputStream: a write error names the file and the system's reason,
// for plain and compressed output alike (here a full disk: /dev/full).
#include "engine/io/output_stream.h"

#include <unistd.h>

#include <gtest/gtest.h>

#include "tests/io/io_test_util.h"

namespace simdex::io {
namespace {

using testing::TempDir;

// Writes 4 MiB of varied bytes (more than any buffer) to path, then closes.
Status WriteMuch(const std::string& path) {
  std::unique_ptr<OutputStream> out;
  SIMDEX_RETURN_IF_ERROR(OutputStream::Open(path, &out));
  std::string chunk(1 << 16, '\0');
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 64; ++i) {
    for (char& c : chunk) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      c = static_cast<char>(x);
    }
    SIMDEX_RETURN_IF_ERROR(out->Write(chunk.data(), chunk.size()));
  }
  return out->Close();
}

TEST(OutputStream, FullDiskIsNamedForPlainAndCompressedOutput) {
  TempDir dir;
  for (const char* name : {"out.txt", "out.txt.gz", "out.txt.zst", "out.txt.bz2"}) {
    const std::string link = dir.Path(name);
    ASSERT_EQ(::symlink("/dev/full", link.c_str()), 0);  // followed: /dev/full is written in place
    const Status s = WriteMuch(link);
    EXPECT_TRUE(s.IsIOError()) << name << ": " << s.ToString();
    EXPECT_EQ(s.message(), link + ": write failed: No space left on device") << name;
  }
}

}  // namespace
}  // namespace simdex::io
