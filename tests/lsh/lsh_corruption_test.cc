// Damage to a MinHash-LSH index: every flipped byte is found by Open() or
// Verify(), as Corruption (or NotSupported for a header that names another
// version or kind), and queries on a damaged file that still opens never
// crash or read outside it (the sanitizer build checks the second).
#include <gtest/gtest.h>

#include "tests/index/test_data.h"
#include "tests/lsh/lsh_data.h"

namespace simdex {
namespace {

using testing::BuildLshIndex;
using testing::ClusteredDocuments;
using testing::ReadFileOrDie;
using testing::ScopedTempDir;

struct Damaged {
  bool opened = false;
  Status open, verify, query;
};

Damaged OpenVerifyAndQuery(std::string bytes, const std::vector<testing::LshDocument>& docs) {
  Damaged d;
  std::unique_ptr<LshIndexReader> reader;
  d.open = LshIndexReader::Open(NewMemoryFile(std::move(bytes)), ReaderOptions(), &reader);
  if (!d.open.ok()) return d;
  d.opened = true;
  std::vector<LshMatch> got;
  for (size_t i = 0; i < docs.size() && d.query.ok(); i += 5) {
    d.query = reader->Query(docs[i].signature.data(), LshQueryOptions(), &got);
  }
  d.verify = reader->Verify();
  return d;
}

TEST(LshCorruptionTest, EveryFlippedByteIsFoundByOpenOrVerify) {
  ScopedTempDir dir;
  LshBuildOptions options;
  options.minhash.num_perm = 32;
  options.bands = {8, 4};
  options.block_size = 64;
  options.codec = "auto";
  const auto docs = ClusteredDocuments(60, 32, 8);
  ASSERT_TRUE(BuildLshIndex(dir.File("x.sdx"), options, docs, /*string_ids=*/true).ok());
  const std::string file = ReadFileOrDie(dir.File("x.sdx"));
  ASSERT_TRUE(OpenVerifyAndQuery(file, docs).verify.ok());
  for (size_t i = 0; i < file.size(); ++i) {
    for (uint8_t flip : {0x01, 0x80}) {
      std::string bad = file;
      bad[i] = static_cast<char>(bad[i] ^ flip);
      const Damaged d = OpenVerifyAndQuery(bad, docs);
      if (!d.opened) {
        EXPECT_TRUE(d.open.IsCorruption() || d.open.IsNotSupported()) << "byte " << i << ": " << d.open.ToString();
        continue;
      }
      EXPECT_TRUE(d.verify.IsCorruption()) << "byte " << i << " flip " << int{flip} << ": " << d.verify.ToString();
      EXPECT_TRUE(d.query.ok() || d.query.IsCorruption()) << "byte " << i << ": " << d.query.ToString();
    }
  }
}

TEST(LshCorruptionTest, TruncatedAndExtendedFilesAreCorruption) {
  ScopedTempDir dir;
  const auto docs = ClusteredDocuments(40, 128, 9);
  ASSERT_TRUE(BuildLshIndex(dir.File("x.sdx"), LshBuildOptions(), docs).ok());
  const std::string file = ReadFileOrDie(dir.File("x.sdx"));
  for (size_t n : {size_t{0}, size_t{100}, file.size() / 2, file.size() - 1}) {
    EXPECT_TRUE(OpenVerifyAndQuery(file.substr(0, n), docs).open.IsCorruption()) << n;
  }
  EXPECT_TRUE(OpenVerifyAndQuery(file + std::string(8, '\0'), docs).open.IsCorruption());
}

}  // namespace
}  // namespace simdex
