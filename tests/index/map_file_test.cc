// MapFile, the open path of every index reader (SimHash and MinHash-LSH,
// ReadIndexKind; the CLI, the C API and Python go through it): anything but
// a regular file is refused, naming the path, before it is opened. A FIFO
// used to be opened for reading, which blocks until a writer comes: each
// call runs in a child process that is killed after 20 s, so that a hang
// fails the test instead of stopping the suite.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "simdex/index.h"
#include "simdex/lsh_index.h"
#include "tests/index/test_data.h"

namespace simdex {
namespace {

class MapFileTest : public ::testing::Test {
 protected:
  testing::ScopedTempDir temp_;
  const std::string& dir_ = temp_.path();
};

// The Status of every index open path for `path`, in a child process;
// "hung" when the child has not finished in 20 s (then killed).
std::string EveryOpenPath(const std::string& path, const std::string& expected) {
  const pid_t child = ::fork();
  if (child == 0) {
    std::unique_ptr<RandomAccessFile> file;
    std::unique_ptr<IndexReader> simhash;
    std::unique_ptr<LshIndexReader> lsh;
    IndexKind kind;
    const Status all[] = {MapFile(path, &file), IndexReader::Open(path, ReaderOptions(), &simhash),
                          LshIndexReader::Open(path, ReaderOptions(), &lsh), ReadIndexKind(path, &kind)};
    for (const Status& s : all) {
      if (!s.IsIOError() || s.message() != expected) {
        std::fprintf(stderr, "%s\n", s.ToString().c_str());
        ::_exit(1);
      }
    }
    ::_exit(0);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  int status = 0;
  while (::waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      return "hung";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "as expected" : "another status (on stderr)";
}

TEST_F(MapFileTest, FifoIsRefusedBeforeItIsOpened) {
  const std::string fifo = dir_ + "/pipe.sdx";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(EveryOpenPath(fifo, fifo + ": is a FIFO, not an index file (an index is a regular file)"),
            "as expected");
}

TEST_F(MapFileTest, DevicesAndDirectoriesAreRefusedNamingThem) {
  EXPECT_EQ(EveryOpenPath("/dev/null", "/dev/null: is a character device, not an index file (an index is a regular file)"),
            "as expected");
  EXPECT_EQ(EveryOpenPath(dir_, dir_ + ": is a directory"), "as expected");
}

TEST_F(MapFileTest, MissingFileIsNamedWithTheSystemsReason) {
  EXPECT_EQ(EveryOpenPath(dir_ + "/missing.sdx", "cannot open " + dir_ + "/missing.sdx: No such file or directory"), "as expected");
}

TEST_F(MapFileTest, RegularFileIsMappedWhole) {
  const std::string path = dir_ + "/bytes";
  std::ofstream(path, std::ios::binary) << "twelve bytes";
  std::unique_ptr<RandomAccessFile> file;
  ASSERT_TRUE(MapFile(path, &file).ok());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(file->data()), file->size()), "twelve bytes");
  std::ofstream(path, std::ios::binary | std::ios::trunc);
  ASSERT_TRUE(MapFile(path, &file).ok()) << "an empty file is an empty range, too short for an index";
  EXPECT_EQ(file->size(), 0u);
}

}  // namespace
}  // namespace simdex
