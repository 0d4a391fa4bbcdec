// The `simdex` program on a full disk: a 128 KiB tmpfs mounted by the test
// (as root, as CI runs; without the permission the test fails, it does not
// skip) takes the outputs, or the spills, of runs that need more. Each run
// must end with one line naming the file and "No space left on device", a
// non-zero exit, nothing under the output's name and no temporary left.
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

constexpr const char* kSmallDisk = "size=128k";

class DiskFullCli : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(::mkdir(full_.c_str(), 0700), 0) << full_ << ": " << std::strerror(errno);
    if (::mount("tmpfs", full_.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, kSmallDisk) != 0) {
      FAIL() << "cannot mount a 128 KiB tmpfs on " << full_ << " (" << std::strerror(errno)
             << "): this test needs root (CAP_SYS_ADMIN), as CI runs it";
    }
    mounted_ = true;
    // 20,000 random fingerprints with 13-digit ids: 620 KB of text, an
    // index and a keep list of more than 128 KiB, 320 KB of (fingerprint,
    // ordinal) records to sort; 40,000 documents whose fingerprint file is
    // more than 128 KiB even compressed.
    std::mt19937_64 rng(128);
    std::vector<Entry> entries;
    for (uint64_t i = 0; i < 20000; ++i) entries.push_back({1000000000000 + i * 7, rng()});
    WriteFile(batch_, TextFingerprints(entries));
    std::string docs;
    for (int i = 1; i <= 40000; ++i) {
      docs += "{\"id\":" + std::to_string(i) + ",\"text\":\"document number " + std::to_string(i) +
              " says something of its own\"}\n";
    }
    WriteFile(docs_, docs);
  }

  void TearDown() override {
    // Detached even when a file is still open, so a failed test never leaves a mount behind.
    if (mounted_ && ::umount2(full_.c_str(), MNT_DETACH) != 0) {
      ADD_FAILURE() << "cannot unmount " << full_ << ": " << std::strerror(errno);
    }
    ::rmdir(full_.c_str());
  }

  // Runs args and checks the failure: exit non-zero, one line naming the
  // space and `file`, nothing at all left on the small disk.
  void ExpectDiskFull(const std::vector<std::string>& args, const std::string& file) {
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_NE(r.exit_code, 0) << r.err;
    EXPECT_LT(r.exit_code, 128) << "killed by a signal: " << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find(file), r.err.rfind(file)) << "named twice: " << r.err;
    std::vector<std::string> left;
    for (const auto& e : std::filesystem::directory_iterator(full_)) left.push_back(e.path().filename().string());
    EXPECT_EQ(left, std::vector<std::string>{}) << "a partial output or a temporary was left";
  }

  ScratchDir dir_;
  std::string full_ = dir_.File("full");
  bool mounted_ = false;
  std::string batch_ = dir_.File("batch.fp");
  std::string docs_ = dir_.File("docs.jsonl");
};

TEST_F(DiskFullCli, BuildIntoAFullDisk) {
  ExpectDiskFull({"build", "-q", "--out", full_ + "/index.sdx", batch_}, full_ + "/");
}

TEST_F(DiskFullCli, BuildWhoseScratchFilesFillTheDisk) {
  ExpectDiskFull({"build", "-q", "--memory", "64K", "--tmpdir", full_, "--out", dir_.File("index.sdx"), batch_},
                 full_ + "/");
  EXPECT_FALSE(FileExists(dir_.File("index.sdx")));
}

TEST_F(DiskFullCli, MergeIntoAFullDisk) {
  WriteFile(dir_.File("small.fp"), "1\t0123456789abcdef\n");
  ASSERT_EQ(RunSimdex(dir_, {"build", "-q", "--out", dir_.File("old.sdx"), dir_.File("small.fp")}).exit_code, 0);
  ExpectDiskFull({"merge", "-q", dir_.File("old.sdx"), batch_, "--out", full_ + "/new.sdx"}, full_ + "/");
}

TEST_F(DiskFullCli, DedupWhoseSpillsFillTheDisk) {
  ExpectDiskFull({"dedup", "--method", "simhash", "-q", "--memory", "64K", "--tmpdir", full_, "-o", dir_.File("out.jsonl"), batch_},
                 full_ + "/");
  EXPECT_FALSE(FileExists(dir_.File("out.jsonl")));
}

TEST_F(DiskFullCli, DedupOutputsIntoAFullDisk) {
  ExpectDiskFull({"dedup", "--method", "simhash", "-q", "-o", full_ + "/out.jsonl", batch_}, full_ + "/out.jsonl");
  ExpectDiskFull({"dedup", "--method", "simhash", "-q", "-o", dir_.File("out.jsonl"), "--keep-list", full_ + "/keep.txt", batch_},
                 full_ + "/keep.txt");
}

TEST_F(DiskFullCli, FingerprintIntoAFullDisk) {
  ExpectDiskFull({"fingerprint", "-q", "-o", full_ + "/docs.fp", docs_}, full_ + "/docs.fp");
  // Compressed: the error is the disk's, not the compressor's.
  ExpectDiskFull({"fingerprint", "-q", "-o", full_ + "/docs.fp.gz", docs_}, full_ + "/docs.fp.gz");
  ExpectDiskFull({"fingerprint", "-q", "-o", full_ + "/docs.fp.zst", docs_}, full_ + "/docs.fp.zst");
}

}  // namespace
}  // namespace simdex::clitest
