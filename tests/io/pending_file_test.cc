// io::PendingFile: output appears under its final name only when complete,
// with plain-create permissions, and never touches other files.
#include "engine/io/pending_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/io/io_test_util.h"

namespace simdex::io {
namespace {

using testing::ReadFile;
using testing::TempDir;

// The names in dir, sorted.
std::vector<std::string> Names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

void WriteAll(const PendingFile& file, const std::string& bytes) {
  ASSERT_EQ(::write(file.fd(), bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
}

TEST(PendingFile, CommitRenamesIntoPlaceWithUmaskPermissions) {
  TempDir dir;
  const std::string path = dir.Path("out.sdx");
  const mode_t old_mask = ::umask(027);
  std::unique_ptr<PendingFile> file;
  ASSERT_TRUE(PendingFile::Create(path, &file).ok());
  ::umask(old_mask);
  EXPECT_EQ(file->temp_path().rfind(path + ".tmp-", 0), 0u) << file->temp_path();
  WriteAll(*file, "complete");
  EXPECT_FALSE(std::filesystem::exists(path)) << "nothing under the final name before Commit()";
  ASSERT_TRUE(file->Commit().ok());
  EXPECT_EQ(ReadFile(path), "complete");
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u) << "0666 less the umask (027), not mkstemp's 0600";
  file.reset();
  EXPECT_EQ(Names(dir.Path("")), std::vector<std::string>{"out.sdx"});
}

TEST(PendingFile, DestroyedUncommittedLeavesNothingAndKeepsTheOldFile) {
  TempDir dir;
  const std::string path = dir.Write("out.sdx", "old");
  {
    std::unique_ptr<PendingFile> file;
    ASSERT_TRUE(PendingFile::Create(path, &file).ok());
    WriteAll(*file, "half-writ");
  }
  EXPECT_EQ(ReadFile(path), "old");
  EXPECT_EQ(Names(dir.Path("")), std::vector<std::string>{"out.sdx"});
}

TEST(PendingFile, NeverTouchesAUsersTmpFileOrAnotherWritersTemporary) {
  TempDir dir;
  const std::string path = dir.Path("out.txt");
  dir.Write("out.txt.tmp", "the user's own file");
  std::unique_ptr<PendingFile> a, b;
  ASSERT_TRUE(PendingFile::Create(path, &a).ok());
  ASSERT_TRUE(PendingFile::Create(path, &b).ok());
  EXPECT_NE(a->temp_path(), b->temp_path());
  WriteAll(*a, "a");
  WriteAll(*b, "b");
  ASSERT_TRUE(b->Commit().ok());
  a.reset();  // abandoned: only its own temporary goes
  EXPECT_EQ(ReadFile(path), "b");
  EXPECT_EQ(ReadFile(path + ".tmp"), "the user's own file");
  EXPECT_EQ(Names(dir.Path("")), (std::vector<std::string>{"out.txt", "out.txt.tmp"}));
}

TEST(PendingFile, MissingDirectoryIsAnIOErrorNamingThePath) {
  TempDir dir;
  std::unique_ptr<PendingFile> file;
  const Status s = PendingFile::Create(dir.Path("no/such/out.sdx"), &file);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.message().find("no/such/out.sdx.tmp-XXXXXX"), std::string::npos) << s.ToString();
  EXPECT_EQ(file, nullptr);
}

}  // namespace
}  // namespace simdex::io
