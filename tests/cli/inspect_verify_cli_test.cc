// `simdex inspect` and `simdex verify` end to end.
#include <cmath>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "format/index_layout.h"
#include "simdex/index.h"
#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

using InspectCli = CliTest;
using VerifyCli = CliTest;

TEST_F(InspectCli, PrintsEveryKeyWithPlausibleValues) {
  const RunResult r = RunSimdex(dir_, {"inspect", index_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(r.out).get(doc), simdjson::SUCCESS) << r.out;

  const double n = static_cast<double>(entries_.size());
  std::set<uint64_t> distinct;
  for (const Entry& e : entries_) distinct.insert(e.fingerprint);
  EXPECT_EQ(uint64_t(doc["entries"]), entries_.size());
  EXPECT_EQ(uint64_t(doc["distinct_fingerprints"]), distinct.size());
  EXPECT_EQ(std::string_view(doc["scheme"]), "t10");
  std::vector<int64_t> widths;
  for (int64_t w : doc["widths"].get_array()) widths.push_back(w);
  EXPECT_EQ(widths, (std::vector<int64_t>{16, 12, 12, 12, 12}));
  EXPECT_EQ(int64_t(doc["k"]), 3);
  EXPECT_EQ(int64_t(doc["block_size"]), kBlockSize);
  EXPECT_EQ(int64_t(doc["restarts"]), simdex::BuildOptions().restarts);

  const double bound = double(doc["entropy_bound_bits_per_entry"]);
  EXPECT_GT(bound, 40.0);  // log2 C(2^64, N) / N is about 64 - log2(N) + 1.44
  EXPECT_LT(bound, 64.0);
  simdjson::dom::array tables = doc["tables"];
  ASSERT_EQ(tables.size(), 10u);
  uint64_t table_bytes = 0;
  for (simdjson::dom::element t : tables) {
    EXPECT_EQ(simdjson::dom::array(t["leading_blocks"]).size(), 2u);
    EXPECT_GE(int64_t(t["key_bits"]), 24);
    EXPECT_LE(int64_t(t["key_bits"]), 28);
    const uint64_t bytes = t["bytes"];
    EXPECT_GE(uint64_t(t["blocks"]) * kBlockSize, n * 8 / 64);  // at least 8 bits per entry
    EXPECT_GE(bytes, uint64_t(t["blocks"]) * kBlockSize);
    EXPECT_NEAR(double(t["bits_per_entry"]), bytes * 8 / n, 1e-3);
    EXPECT_NEAR(double(t["ratio_to_entropy_bound"]), bytes * 8 / n / bound, 1e-3);
    EXPECT_GT(uint64_t(t["payload_bits"]), 0u);
    table_bytes += bytes;
  }
  EXPECT_GT(uint64_t(doc["id_bytes"]), 0u);
  EXPECT_LE(int64_t(doc["id_width"]), 64);
  EXPECT_GE(uint64_t(doc["rank_bytes"]), 8u);
  const uint64_t total = doc["total_bytes"];
  EXPECT_EQ(total, ReadFile(index_).size());
  EXPECT_GT(total, table_bytes);
  EXPECT_NEAR(double(doc["bits_per_entry_total"]), total * 8 / n, 1e-3);
}

TEST_F(InspectCli, KeysComeInAStableOrder) {
  const RunResult r = RunSimdex(dir_, {"inspect", index_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  size_t last = 0;
  for (const char* key : {"\"entries\"", "\"distinct_fingerprints\"", "\"scheme\"", "\"widths\"",
                          "\"k\"", "\"block_size\"", "\"tables\"", "\"leading_blocks\"",
                          "\"id_bytes\"", "\"id_width\"", "\"total_bytes\"",
                          "\"bits_per_entry_total\"", "\"entropy_bound_bits_per_entry\""}) {
    const size_t at = r.out.find(key, last);
    ASSERT_NE(at, std::string::npos) << key << " missing or out of order";
    last = at;
  }
}

TEST_F(VerifyCli, SoundIndexIsOk) {
  const RunResult r = RunSimdex(dir_, {"verify", index_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "ok: " + std::to_string(entries_.size()) + " entries, 10 tables\n");
}

// Reads the metadata of an index file through the format layer.
format::IndexMetadata ReadMetadata(const std::string& bytes) {
  const auto* base = reinterpret_cast<const uint8_t*>(bytes.data());
  format::Footer footer;
  EXPECT_TRUE(footer.DecodeFrom(base + bytes.size() - format::Footer::kEncodedLength,
                                base + bytes.size()).ok());
  format::IndexMetadata meta;
  const uint8_t* m = base + footer.metadata_offset;
  EXPECT_TRUE(meta.DecodeFrom(m, m + footer.metadata_length).ok());
  return meta;
}

TEST_F(VerifyCli, FlippedByteInABlockIsReportedWithItsBlock) {
  std::string bytes = ReadFile(index_);
  const format::IndexMetadata meta = ReadMetadata(bytes);
  ASSERT_EQ(meta.tables.size(), 10u);
  ASSERT_GT(meta.tables[2].num_blocks, 3u);
  bytes[meta.tables[2].blocks_offset + 1 * kBlockSize + 10] ^= 0x10;
  const std::string damaged = dir_.File("damaged.sdx");
  WriteFile(damaged, bytes);

  const RunResult r = RunSimdex(dir_, {"verify", damaged});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("simdex verify: " + damaged + ": ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("block 1 "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("table 2"), std::string::npos) << r.err;
}

TEST_F(VerifyCli, GarbageFileFails) {
  const std::string garbage = dir_.File("garbage.sdx");
  WriteFile(garbage, std::string(4096, 'x'));
  const RunResult r = RunSimdex(dir_, {"verify", garbage});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
}

}  // namespace
}  // namespace simdex::clitest
