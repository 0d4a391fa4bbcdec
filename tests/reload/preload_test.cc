// IndexReader::Preload: every page read in; locked when the system allows,
// and a lock it refuses is said, not an error.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "simdex/index.h"
#include "tests/index/test_data.h"

namespace simdex {
namespace {

class PreloadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.File("preload.sdx");
    const auto fps = testing::UniformFingerprints(5000, 3);
    ASSERT_TRUE(testing::BuildIndex(path_, BuildOptions(), testing::AssignIds(fps, testing::IdStyle::kSequential, 1)).ok());
    ASSERT_TRUE(IndexReader::Open(path_, ReaderOptions(), &reader_).ok());
  }

  testing::ScopedTempDir dir_;
  std::string path_;
  std::unique_ptr<IndexReader> reader_;
};

TEST_F(PreloadTest, ReadsTheWholeFile) {
  PreloadResult result;
  ASSERT_TRUE(reader_->Preload(/*lock=*/false, &result).ok());
  EXPECT_EQ(result.bytes, reader_->Info().total_bytes);
  EXPECT_FALSE(result.locked);
  EXPECT_EQ(result.lock_error, "");
}

TEST_F(PreloadTest, LocksThePagesWhenAllowed) {
  struct rlimit limit;
  ASSERT_EQ(getrlimit(RLIMIT_MEMLOCK, &limit), 0);
  const bool may_lock = geteuid() == 0 || limit.rlim_cur == RLIM_INFINITY ||
                        limit.rlim_cur >= reader_->Info().total_bytes + 8192;
  ASSERT_TRUE(may_lock) << "this test needs root or an RLIMIT_MEMLOCK above the file's size";
  PreloadResult result;
  ASSERT_TRUE(reader_->Preload(/*lock=*/true, &result).ok());
  EXPECT_TRUE(result.locked) << result.lock_error;
  EXPECT_EQ(result.lock_error, "");
}

// A process without the privilege and with a small RLIMIT_MEMLOCK: the pages
// are read, the lock is refused, and the reason names the limit.
TEST_F(PreloadTest, RefusedLockIsReportedWithTheLimitNotAnError) {
  int pipefd[2];
  ASSERT_EQ(pipe(pipefd), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    alarm(30);
    close(pipefd[0]);
    // Without root's CAP_IPC_LOCK the limit applies (drop to nobody if root).
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(3);
    struct rlimit limit = {4096, 4096};
    if (setrlimit(RLIMIT_MEMLOCK, &limit) != 0) _exit(4);
    // Some kernels (gVisor's, for one) do not enforce RLIMIT_MEMLOCK: an
    // anonymous 64 KiB lock that succeeds here says the refusal cannot be
    // shown in this environment.
    void* probe = mmap(nullptr, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (probe == MAP_FAILED) _exit(6);
    if (mlock(probe, 65536) == 0) {
      const std::string out = "unenforced";
      if (write(pipefd[1], out.data(), out.size()) != static_cast<ssize_t>(out.size())) _exit(5);
      _exit(0);
    }
    munmap(probe, 65536);
    PreloadResult result;
    const Status s = reader_->Preload(/*lock=*/true, &result);
    std::string out = std::string(s.ok() ? "ok" : "error") + "|" + (result.locked ? "locked" : "unlocked") + "|" +
                      std::to_string(result.bytes) + "|" + result.lock_error;
    if (write(pipefd[1], out.data(), out.size()) != static_cast<ssize_t>(out.size())) _exit(5);
    _exit(0);
  }
  close(pipefd[1]);
  std::string got;
  char buf[512];
  ssize_t n;
  while ((n = read(pipefd[0], buf, sizeof buf)) > 0) got.append(buf, static_cast<size_t>(n));
  close(pipefd[0]);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  if (got == "unenforced") GTEST_SKIP() << "this kernel lets an unprivileged process lock past RLIMIT_MEMLOCK";
  const std::string prefix = "ok|unlocked|" + std::to_string(reader_->Info().total_bytes) + "|mlock of ";
  EXPECT_EQ(got.substr(0, prefix.size()), prefix) << got;
  EXPECT_NE(got.find("RLIMIT_MEMLOCK is 4096 bytes"), std::string::npos) << got;
}

}  // namespace
}  // namespace simdex
