// util::PendingFile: output appears under its final name only when complete,
// with plain-create permissions, and never touches other files; until then
// it has no name (O_TMPFILE), or, where the file system has none, a name
// that a signal handler can remove; devices, FIFOs and sockets are written
// in place, symbolic links are followed and stay links, directories are
// refused. The tests of regular outputs run both ways (Ways).
#include "engine/util/pending_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "engine/util/temporary_names.h"
#include "simdex/output_writer.h"
#include "tests/io/io_test_util.h"
#include "tests/open_files.h"

namespace simdex::util {
namespace {

using testing::ReadFile;
using testing::TempDir;

// Runs body with outputs unnamed until Commit() (O_TMPFILE), then named
// from the start (the fallback); body gets true for the named way.
template <class Body>
void Ways(Body body) {
  for (const bool named : {false, true}) {
    SCOPED_TRACE(named ? "named temporary" : "unnamed until Commit()");
    const bool was = PendingFile::ForceNamedTemporary(named);
    body(named);
    PendingFile::ForceNamedTemporary(was);
  }
}

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
  Ways([](bool named) {
    TempDir dir;
    const std::string path = dir.Path("out.sdx");
    const mode_t old_mask = ::umask(027);
    std::unique_ptr<PendingFile> file;
    ASSERT_TRUE(PendingFile::Create(path, &file).ok());
    ::umask(old_mask);
    EXPECT_EQ(file->unnamed(), !named);
    if (named) {
      EXPECT_EQ(file->temp_path().rfind(path + ".tmp-", 0), 0u) << file->temp_path();
      EXPECT_EQ(Names(dir.Path("")), std::vector<std::string>{file->temp_path().substr(dir.Path("").size())});
    } else {
      EXPECT_EQ(file->temp_path(), "");
      EXPECT_EQ(Names(dir.Path("")), std::vector<std::string>{}) << "no name before Commit()";
      EXPECT_EQ(testing::OpenFilesIn(dir.path()).size(), 1u);
    }
    WriteAll(*file, "complete");
    EXPECT_FALSE(std::filesystem::exists(path)) << "nothing under the final name before Commit()";
    ASSERT_TRUE(file->Commit().ok());
    EXPECT_EQ(ReadFile(path), "complete");
    struct stat st;
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0640u) << "0666 less the umask (027), not mkstemp's 0600";
    file.reset();
    EXPECT_EQ(Names(dir.Path("")), std::vector<std::string>{"out.sdx"});
  });
}

TEST(PendingFile, DestroyedUncommittedLeavesNothingAndKeepsTheOldFile) {
  Ways([](bool) {
    TempDir dir;
    const std::string path = dir.Write("out.sdx", "old");
    {
      std::unique_ptr<PendingFile> file;
      ASSERT_TRUE(PendingFile::Create(path, &file).ok());
      WriteAll(*file, "half-writ");
    }
    EXPECT_EQ(ReadFile(path), "old");
    EXPECT_EQ(Names(dir.Path("")), std::vector<std::string>{"out.sdx"});
  });
}

TEST(PendingFile, NeverTouchesAUsersTmpFileOrAnotherWritersTemporary) {
  Ways([](bool named) {
    TempDir dir;
    const std::string path = dir.Path("out.txt");
    dir.Write("out.txt.tmp", "the user's own file");
    std::unique_ptr<PendingFile> a, b;
    ASSERT_TRUE(PendingFile::Create(path, &a).ok());
    ASSERT_TRUE(PendingFile::Create(path, &b).ok());
    if (named) {
      EXPECT_NE(a->temp_path(), b->temp_path());
    }
    struct stat sa, sb;
    ASSERT_EQ(::fstat(a->fd(), &sa), 0);
    ASSERT_EQ(::fstat(b->fd(), &sb), 0);
    EXPECT_NE(sa.st_ino, sb.st_ino) << "two files";
    WriteAll(*a, "a");
    WriteAll(*b, "b");
    ASSERT_TRUE(b->Commit().ok());
    a.reset();  // abandoned: only its own temporary goes
    EXPECT_EQ(ReadFile(path), "b");
    EXPECT_EQ(ReadFile(path + ".tmp"), "the user's own file");
    EXPECT_EQ(Names(dir.Path("")), (std::vector<std::string>{"out.txt", "out.txt.tmp"}));
  });
}

// A process killed by a catchable signal calls RemoveNamedTemporaries (as
// `simdex` does); kill -9 of an unnamed output leaves nothing either
// (tests/cli/interrupted_cli_test.cc).
TEST(PendingFile, NamedTemporaryIsRemovedByRemoveNamedTemporaries) {
  Ways([](bool named) {
    TempDir dir;
    const std::string path = dir.Write("out.sdx", "old");
    std::unique_ptr<PendingFile> file;
    ASSERT_TRUE(PendingFile::Create(path, &file).ok());
    WriteAll(*file, "half-writ");
    EXPECT_EQ(Names(dir.Path("")).size(), named ? 2u : 1u);
    RemoveNamedTemporaries();
    EXPECT_EQ(Names(dir.Path("")), std::vector<std::string>{"out.sdx"});
    EXPECT_EQ(ReadFile(path), "old");
    file.reset();
    EXPECT_EQ(Names(dir.Path("")), std::vector<std::string>{"out.sdx"});
  });
}

TEST(TemporaryNames, RegisteredNamesAreRemovedAndForgottenOnesAreNot) {
  TempDir dir;
  const std::string kept = dir.Write("kept", "x"), removed = dir.Write("removed", "y");
  const int a = RegisterTemporary(kept), b = RegisterTemporary(removed);
  ASSERT_GE(a, 0);
  ASSERT_GE(b, 0);
  UnregisterTemporary(a);
  RemoveRegisteredTemporaries();
  UnregisterTemporary(b);
  EXPECT_EQ(Names(dir.Path("")), std::vector<std::string>{"kept"});
  EXPECT_EQ(RegisterTemporary(std::string(5000, 'x')), -1) << "longer than PATH_MAX";
}

TEST(PendingFile, MissingDirectoryIsAnIOErrorNamingThePath) {
  TempDir dir;
  std::unique_ptr<PendingFile> file;
  const Status s = PendingFile::Create(dir.Path("no/such/out.sdx"), &file);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.message().find("no/such/out.sdx.tmp-XXXXXX"), std::string::npos) << s.ToString();
  EXPECT_EQ(file, nullptr);
}

mode_t ModeOf(const std::string& path) {
  struct stat st;
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode;
}

std::string Bytes(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + i % 26);
  return s;
}

// Reads fd to its end on a thread, waiting at most 20 s for each piece (a
// bound, not a timing check: the writer is in the same process).
class Reader {
 public:
  explicit Reader(int fd) : fd_(fd), thread_([this] { Run(); }) {}
  ~Reader() { Join(); }
  std::string Join() {
    if (thread_.joinable()) thread_.join();
    return got_;
  }

 private:
  void Run() {
    char buf[4096];
    for (;;) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 20000) <= 0) return;
      const ssize_t n = ::read(fd_, buf, sizeof(buf));
      if (n <= 0) return;
      got_.append(buf, static_cast<size_t>(n));
    }
  }
  int fd_;
  std::string got_;
  std::thread thread_;
};

TEST(PendingFile, FifoIsWrittenInPlaceAndStaysAFifo) {
  TempDir dir;
  const std::string fifo = dir.Path("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // The read end opened first (non-blocking, so this does not wait for a
  // writer), then made blocking for the reader thread.
  const int rfd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(rfd, 0);
  ASSERT_EQ(::fcntl(rfd, F_SETFL, 0), 0);
  const std::string payload = Bytes(1 << 20);  // more than a pipe holds: the reader must drain it
  Reader reader(rfd);
  std::unique_ptr<PendingFile> file;
  const Status created = PendingFile::Create(fifo, &file);
  ASSERT_TRUE(created.ok()) << created.ToString();
  EXPECT_TRUE(file->direct());
  WriteAll(*file, payload);
  ASSERT_TRUE(file->Commit().ok());
  file.reset();
  EXPECT_EQ(reader.Join(), payload);
  ::close(rfd);
  EXPECT_TRUE(S_ISFIFO(ModeOf(fifo))) << "the FIFO was replaced";
  EXPECT_EQ(Names(dir.Path("")), std::vector<std::string>{"pipe"});
}

TEST(PendingFile, DevNullIsWrittenInPlaceAndStaysACharacterDevice) {
  std::unique_ptr<PendingFile> file;
  ASSERT_TRUE(PendingFile::Create("/dev/null", &file).ok());
  EXPECT_TRUE(file->direct());
  EXPECT_EQ(file->write_path(), "/dev/null");
  WriteAll(*file, "discarded");
  ASSERT_TRUE(file->Commit().ok());
  file.reset();
  EXPECT_TRUE(S_ISCHR(ModeOf("/dev/null"))) << "/dev/null was replaced: restore it (mknod -m 666 /dev/null c 1 3)";
}

TEST(PendingFile, AbandonedDeviceOutputRemovesNothing) {
  {
    std::unique_ptr<PendingFile> file;
    ASSERT_TRUE(PendingFile::Create("/dev/null", &file).ok());
    WriteAll(*file, "half");
  }
  EXPECT_TRUE(S_ISCHR(ModeOf("/dev/null")));
}

TEST(PendingFile, SocketIsConnectedToAndWrittenInPlace) {
  TempDir dir;
  const std::string path = dir.Path("sock");
  const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(listener, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof(address.sun_path));
  std::memcpy(address.sun_path, path.data(), path.size());
  ASSERT_EQ(::bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof(address)), 0);
  ASSERT_EQ(::listen(listener, 1), 0);
  std::unique_ptr<PendingFile> file;
  const Status created = PendingFile::Create(path, &file);  // the connection waits in the backlog
  ASSERT_TRUE(created.ok()) << created.ToString();
  pollfd p{listener, POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 20000), 1) << "no connection arrived";
  const int conn = ::accept(listener, nullptr, nullptr);
  ASSERT_GE(conn, 0);
  Reader reader(conn);
  const std::string payload = Bytes(300000);
  WriteAll(*file, payload);
  ASSERT_TRUE(file->Commit().ok());
  EXPECT_EQ(reader.Join(), payload);
  ::close(conn);
  ::close(listener);
  EXPECT_TRUE(S_ISSOCK(ModeOf(path))) << "the socket was replaced";
}

TEST(PendingFile, SymlinkIsFollowedAndItsTargetReplacedAtomically) {
  TempDir dir;
  const std::string target = dir.Write("real.sdx", "old");
  const std::string link = dir.Path("link.sdx");
  ASSERT_EQ(::symlink("real.sdx", link.c_str()), 0);  // relative target
  std::unique_ptr<PendingFile> file;
  ASSERT_TRUE(PendingFile::Create(link, &file).ok());
  EXPECT_FALSE(file->direct());
  EXPECT_TRUE(file->unnamed());
  EXPECT_EQ(testing::OpenFilesIn(target.substr(0, target.rfind('/'))).size(), 1u) << "next to the target";
  WriteAll(*file, "new");
  EXPECT_EQ(ReadFile(target), "old") << "nothing changes before Commit()";
  ASSERT_TRUE(file->Commit().ok());
  EXPECT_TRUE(S_ISLNK(ModeOf(link))) << "the link was replaced by a file";
  EXPECT_EQ(ReadFile(target), "new");
  EXPECT_EQ(Names(dir.Path("")), (std::vector<std::string>{"link.sdx", "real.sdx"}));
}

TEST(PendingFile, ChainOfRelativeLinksAcrossDirectoriesIsFollowed) {
  TempDir dir;
  std::filesystem::create_directories(dir.Path("a/b"));
  std::filesystem::create_directories(dir.Path("c"));
  const std::string target = dir.Write("c/real.txt", "old");
  // out -> a/b/l2 -> ../../c/l3 -> real.txt (each relative to its own directory)
  ASSERT_EQ(::symlink("real.txt", dir.Path("c/l3").c_str()), 0);
  ASSERT_EQ(::symlink("../../c/l3", dir.Path("a/b/l2").c_str()), 0);
  ASSERT_EQ(::symlink("a/b/l2", dir.Path("out").c_str()), 0);
  std::unique_ptr<PendingFile> file;
  ASSERT_TRUE(PendingFile::Create(dir.Path("out"), &file).ok());
  WriteAll(*file, "new");
  ASSERT_TRUE(file->Commit().ok());
  EXPECT_EQ(ReadFile(target), "new");
  for (const char* link : {"out", "a/b/l2", "c/l3"}) EXPECT_TRUE(S_ISLNK(ModeOf(dir.Path(link)))) << link;
  EXPECT_EQ(Names(dir.Path("c")), (std::vector<std::string>{"l3", "real.txt"}));
}

TEST(PendingFile, DanglingLinkCreatesItsTarget) {
  TempDir dir;
  ASSERT_EQ(::symlink("new.txt", dir.Path("link").c_str()), 0);
  std::unique_ptr<PendingFile> file;
  ASSERT_TRUE(PendingFile::Create(dir.Path("link"), &file).ok());
  WriteAll(*file, "made");
  ASSERT_TRUE(file->Commit().ok());
  EXPECT_TRUE(S_ISLNK(ModeOf(dir.Path("link"))));
  EXPECT_EQ(ReadFile(dir.Path("new.txt")), "made");
}

TEST(PendingFile, LinkToAFifoWritesTheFifo) {
  TempDir dir;
  const std::string fifo = dir.Path("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_EQ(::symlink("pipe", dir.Path("link").c_str()), 0);
  const int rfd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(rfd, 0);
  ASSERT_EQ(::fcntl(rfd, F_SETFL, 0), 0);
  Reader reader(rfd);
  std::unique_ptr<PendingFile> file;
  ASSERT_TRUE(PendingFile::Create(dir.Path("link"), &file).ok());
  WriteAll(*file, "through the link");
  ASSERT_TRUE(file->Commit().ok());
  file.reset();
  EXPECT_EQ(reader.Join(), "through the link");
  ::close(rfd);
  EXPECT_TRUE(S_ISLNK(ModeOf(dir.Path("link"))));
  EXPECT_TRUE(S_ISFIFO(ModeOf(fifo)));
}

TEST(PendingFile, LinkLoopIsAnError) {
  TempDir dir;
  ASSERT_EQ(::symlink("b", dir.Path("a").c_str()), 0);
  ASSERT_EQ(::symlink("a", dir.Path("b").c_str()), 0);
  std::unique_ptr<PendingFile> file;
  const Status s = PendingFile::Create(dir.Path("a"), &file);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.message().find(dir.Path("a")), std::string::npos) << s.ToString();
  EXPECT_EQ(Names(dir.Path("")), (std::vector<std::string>{"a", "b"}));
}

TEST(PendingFile, DirectoryIsRefusedBeforeAnythingIsWritten) {
  TempDir dir;
  std::filesystem::create_directories(dir.Path("out.sdx"));
  ASSERT_EQ(::symlink("out.sdx", dir.Path("link").c_str()), 0);
  for (const std::string& path : {dir.Path("out.sdx"), dir.Path("link")}) {
    std::unique_ptr<PendingFile> file;
    const Status s = PendingFile::Create(path, &file);
    EXPECT_TRUE(s.IsIOError()) << s.ToString();
    EXPECT_EQ(s.message(), path + ": is a directory");
    EXPECT_EQ(file, nullptr);
  }
  EXPECT_EQ(Names(dir.Path("")), (std::vector<std::string>{"link", "out.sdx"}));
}

}  // namespace
}  // namespace simdex::util
