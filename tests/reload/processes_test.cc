// Eight processes map one index file and answer the same queries
// identically (bench/python/shared_pages.py measures that they share its
// pages: docs/library.md).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "simdex/index.h"
#include "tests/index/test_data.h"

namespace simdex {
namespace {

constexpr int kProcesses = 8;

// The answers to `queries` as text, one line per match.
std::string Answers(const IndexReader& reader, const std::vector<uint64_t>& queries) {
  std::string out;
  for (uint64_t q : queries) {
    std::vector<Match> matches;
    const Status s = reader.Search(q, 3, &matches);
    if (!s.ok()) return "error: " + s.ToString() + "\n";
    for (const Match& m : matches) {
      out += std::to_string(q) + " " + std::to_string(m.id) + " " + std::to_string(m.fingerprint) + " " +
             std::to_string(m.distance) + "\n";
    }
  }
  return out;
}

// A child: opens the index itself, answers, writes the answers to fd, exits.
[[noreturn]] void Child(const std::string& path, const std::vector<uint64_t>& queries, int fd) {
  alarm(60);  // a hung child dies instead of hanging the test
  std::unique_ptr<IndexReader> reader;
  std::string answers = IndexReader::Open(path, ReaderOptions(), &reader).ok() ? Answers(*reader, queries)
                                                                              : std::string("error: open\n");
  for (size_t done = 0; done < answers.size();) {
    const ssize_t n = write(fd, answers.data() + done, answers.size() - done);
    if (n <= 0) _exit(2);
    done += static_cast<size_t>(n);
  }
  _exit(0);
}

TEST(ProcessesTest, EightProcessesMappingOneIndexAnswerIdentically) {
  testing::ScopedTempDir dir;
  const std::string path = dir.File("shared.sdx");
  const std::vector<uint64_t> fps = testing::ClusterFingerprints(500, 5, 7);
  BuildOptions options;
  options.block_size = 512;
  ASSERT_TRUE(testing::BuildIndex(path, options, testing::AssignIds(fps, testing::IdStyle::kSequential, 1)).ok());
  std::vector<uint64_t> queries(fps.begin(), fps.begin() + 200);
  std::unique_ptr<IndexReader> reader;
  ASSERT_TRUE(IndexReader::Open(path, ReaderOptions(), &reader).ok());
  const std::string expected = Answers(*reader, queries);
  ASSERT_NE(expected.find('\n'), std::string::npos);

  std::vector<pid_t> pids;
  std::vector<int> fds;
  for (int i = 0; i < kProcesses; ++i) {
    int pipefd[2];
    ASSERT_EQ(pipe(pipefd), 0);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(pipefd[0]);
      Child(path, queries, pipefd[1]);
    }
    close(pipefd[1]);
    pids.push_back(pid);
    fds.push_back(pipefd[0]);
  }
  std::vector<std::string> got(kProcesses);
  for (int i = 0; i < kProcesses; ++i) {
    char buf[1 << 14];
    ssize_t n;
    while ((n = read(fds[i], buf, sizeof buf)) > 0) got[i].append(buf, static_cast<size_t>(n));
    close(fds[i]);
  }
  // Every child has closed its pipe (exited or died): reap them, bounded.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (int i = 0; i < kProcesses; ++i) {
    int status = 0;
    pid_t r;
    while ((r = waitpid(pids[i], &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (r == 0) kill(pids[i], SIGKILL), waitpid(pids[i], &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child " << i << " status " << status;
    EXPECT_EQ(got[i], expected) << "child " << i << " answered differently";
  }
}

}  // namespace
}  // namespace simdex
