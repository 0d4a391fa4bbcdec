// The builder's promises about the bytes it writes and the files it leaves:
// the same entries and options give the same bytes whatever the input order,
// memory budget (spilling) or thread count; a failed, abandoned or
// unfinished build leaves nothing under the output name and no temporary
// files.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "simdex/index.h"
#include "tests/index/test_data.h"

namespace simdex::testing {
namespace {

// Uniform fingerprints, long runs of equal ones (whose ids must come out
// sorted whatever the input order) and a repeated (id, fingerprint) pair.
std::vector<Entry> MixedEntries(size_t uniform) {
  std::vector<Entry> entries = AssignIds(UniformFingerprints(uniform, 21), IdStyle::kFullRange, 22);
  const size_t runs[] = {300, 150};
  for (const Entry& e : AssignIds(RepeatedFingerprints(runs, 0, 23), IdStyle::kNearMax, 24)) {
    entries.push_back(e);
  }
  entries.push_back(entries.front());
  return entries;
}

BuildOptions Options(const std::string& scheme, uint32_t block_size) {
  BuildOptions options;
  options.scheme = SchemeOrDie(scheme);
  options.block_size = block_size;
  return options;
}

// Builds `entries` in the given order under `name` in dir; returns the bytes.
std::string BuildBytes(const ScopedTempDir& dir, const std::string& name, const BuildOptions& options,
                       const std::vector<Entry>& entries, BuildStats* stats = nullptr) {
  const std::string path = dir.File(name);
  Status s = BuildIndex(path, options, entries, stats);
  EXPECT_TRUE(s.ok()) << name << ": " << s.ToString();
  return s.ok() ? ReadFileOrDie(path) : std::string();
}

TEST(BuildDeterminism, InputOrderDoesNotChangeTheBytes) {
  ScopedTempDir dir;
  std::vector<Entry> entries = MixedEntries(2000);
  for (const char* scheme : {"t10", "8,8,8,8,8,8,8,8:4"}) {
    SCOPED_TRACE(scheme);
    const BuildOptions options = Options(scheme, 256);
    BuildStats stats;
    const std::string in_order = BuildBytes(dir, "a.sdx", options, entries, &stats);
    EXPECT_EQ(stats.entries, entries.size());
    EXPECT_EQ(stats.file_bytes, in_order.size());

    std::vector<Entry> reversed(entries.rbegin(), entries.rend());
    EXPECT_EQ(BuildBytes(dir, "b.sdx", options, reversed), in_order);
    std::vector<Entry> shuffled = entries;
    std::mt19937_64 rng(25);
    Shuffle(&shuffled, rng);
    EXPECT_EQ(BuildBytes(dir, "c.sdx", options, shuffled), in_order);
  }
}

TEST(BuildDeterminism, EmptyIndexIsTheSameEveryTime) {
  ScopedTempDir dir;
  const BuildOptions options = Options("t4", 64);
  const std::string first = BuildBytes(dir, "a.sdx", options, {});
  EXPECT_FALSE(first.empty());
  EXPECT_EQ(BuildBytes(dir, "b.sdx", options, {}), first);
}

TEST(BuildDeterminism, SpillingAndThreadsDoNotChangeTheBytes) {
  ScopedTempDir dir;
  ScopedTempDir spill_dir;
  std::vector<Entry> entries = MixedEntries(20000);
  std::mt19937_64 rng(26);
  Shuffle(&entries, rng);

  BuildOptions options = Options("t10", 1024);
  BuildStats stats;
  const std::string in_memory = BuildBytes(dir, "memory.sdx", options, entries, &stats);
  EXPECT_EQ(stats.spilled_runs, 0u);

  options.threads = 2;
  EXPECT_EQ(BuildBytes(dir, "threads.sdx", options, entries), in_memory);

  // 20,000 entries take 320 KB as (id, fingerprint) pairs alone.
  options.memory_bytes = 64 << 10;
  options.tmpdir = spill_dir.path();
  for (int threads : {1, 2}) {
    SCOPED_TRACE("spilling, threads = " + std::to_string(threads));
    options.threads = threads;
    BuildStats spill_stats;
    EXPECT_EQ(BuildBytes(dir, "spilled.sdx", options, entries, &spill_stats), in_memory);
    EXPECT_GT(spill_stats.spilled_runs, 0u);
    EXPECT_GT(spill_stats.spilled_bytes, 0u);
    EXPECT_EQ(spill_stats.entries, entries.size());
    EXPECT_TRUE(spill_dir.List().empty()) << "spill files left in " << spill_dir.path();
  }
}

// Create, Add and Finish; returns the first error.
Status TryBuild(const std::string& path, const BuildOptions& options, const std::vector<Entry>& entries) {
  std::unique_ptr<IndexBuilder> builder;
  SIMDEX_RETURN_IF_ERROR(IndexBuilder::Create(path, options, &builder));
  for (const Entry& e : entries) SIMDEX_RETURN_IF_ERROR(builder->Add(e.id, e.fingerprint));
  return builder->Finish();
}

TEST(BuildFailure, UnwritableDirectoryIsIOErrorAndLeavesNoFile) {
  const std::vector<Entry> entries = MixedEntries(100);
  // /proc accepts no new files, not even from root.
  const std::string path = "/proc/simdex-build-test.sdx";
  Status s = TryBuild(path, Options("t4", 64), entries);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_FALSE(std::filesystem::exists(path));

  const std::string missing = "/nonexistent-simdex-dir/x.sdx";
  s = TryBuild(missing, Options("t4", 64), entries);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_FALSE(std::filesystem::exists(missing));
}

TEST(BuildProgress, FinishReportsStagesWithAGrowingFractionAndChangesNoByte) {
  ScopedTempDir dir;
  const std::vector<Entry> entries = MixedEntries(3000);
  const BuildOptions options = Options("t10", 256);
  const std::string plain = BuildBytes(dir, "plain.sdx", options, entries);
  std::vector<std::pair<std::string, double>> calls;
  std::unique_ptr<IndexBuilder> builder;
  ASSERT_TRUE(IndexBuilder::Create(dir.File("watched.sdx"), options, &builder).ok());
  builder->SetProgressCallback([&](const char* stage, double fraction) { calls.emplace_back(stage, fraction); });
  for (const Entry& e : entries) ASSERT_TRUE(builder->Add(e.id, e.fingerprint).ok());
  EXPECT_TRUE(calls.empty()) << "called before Finish()";
  ASSERT_TRUE(builder->Finish().ok());
  ASSERT_FALSE(calls.empty());
  for (size_t i = 0; i < calls.size(); ++i) {
    EXPECT_FALSE(calls[i].first.empty()) << i;
    EXPECT_GE(calls[i].second, 0.0) << calls[i].first;
    EXPECT_LE(calls[i].second, 1.0) << calls[i].first;
    if (i > 0) {
      EXPECT_GE(calls[i].second, calls[i - 1].second) << calls[i].first;
    }
  }
  EXPECT_EQ(calls.back().second, 1.0) << calls.back().first;
  EXPECT_EQ(ReadFileOrDie(dir.File("watched.sdx")), plain);

  // An empty callback is allowed ("may be empty").
  ASSERT_TRUE(IndexBuilder::Create(dir.File("empty.sdx"), options, &builder).ok());
  builder->SetProgressCallback(nullptr);
  for (const Entry& e : entries) ASSERT_TRUE(builder->Add(e.id, e.fingerprint).ok());
  ASSERT_TRUE(builder->Finish().ok());
  EXPECT_EQ(ReadFileOrDie(dir.File("empty.sdx")), plain);
}

// While it lives, the process's effective uid is nobody's (65534) if it
// was root's: a non-zero effective uid has no effective capabilities, so the
// permission bits bind root too (CAP_DAC_OVERRIDE is what lets root write
// into a read-only directory). CI runs as root.
class PermissionsBindRoot {
 public:
  static constexpr uid_t kNobody = 65534;
  PermissionsBindRoot() : was_root_(geteuid() == 0) {
    if (was_root_) dropped_ = seteuid(kNobody) == 0;
  }
  ~PermissionsBindRoot() {
    if (dropped_ && seteuid(0) != 0) std::abort();  // the rest of the suite needs root back
  }
  PermissionsBindRoot(const PermissionsBindRoot&) = delete;
  PermissionsBindRoot& operator=(const PermissionsBindRoot&) = delete;
  bool ok() const { return !was_root_ || dropped_; }

 private:
  bool was_root_;
  bool dropped_ = false;
};

TEST(BuildFailure, ReadOnlyDirectoryIsIOErrorAndLeavesNoFile) {
  ScopedTempDir dir;
  std::unique_ptr<IndexBuilder> builder;
  ASSERT_TRUE(IndexBuilder::Create(dir.File("x.sdx"), Options("t4", 64), &builder).ok());
  for (const Entry& e : MixedEntries(100)) ASSERT_TRUE(builder->Add(e.id, e.fingerprint).ok());
  // Readable and searchable by everyone, writable by no one.
  namespace fs = std::filesystem;
  fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                  fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  Status s;
  {
    PermissionsBindRoot unprivileged;
    ASSERT_TRUE(unprivileged.ok()) << "cannot set the effective uid to " << PermissionsBindRoot::kNobody;
    // What the test needs: the directory can be searched but not written.
    ASSERT_EQ(faccessat(AT_FDCWD, dir.path().c_str(), X_OK, AT_EACCESS), 0) << dir.path();
    ASSERT_NE(faccessat(AT_FDCWD, dir.path().c_str(), W_OK, AT_EACCESS), 0) << dir.path();
    s = builder->Finish();
    builder.reset();
  }
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  fs::permissions(dir.path(), fs::perms::owner_all);
  EXPECT_TRUE(dir.List().empty());
}

// The output name is taken by a directory: the final rename must fail, and
// the temporary file must not stay behind.
TEST(BuildFailure, OutputNameTakenByADirectoryIsIOErrorAndLeavesNoTemporary) {
  ScopedTempDir dir;
  const std::string path = dir.File("x.sdx");
  std::filesystem::create_directory(path);
  Status s = TryBuild(path, Options("t4", 64), MixedEntries(100));
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE(std::filesystem::is_directory(path));
  EXPECT_EQ(dir.List(), std::vector<std::string>{"x.sdx"});
}

// A builder over a small memory budget, so that it has spill files in
// spill_dir by the time the test gives up on it.
std::unique_ptr<IndexBuilder> HalfBuilt(const ScopedTempDir& dir, const ScopedTempDir& spill_dir) {
  BuildOptions options = Options("t10", 1024);
  options.memory_bytes = 64 << 10;
  options.tmpdir = spill_dir.path();
  std::unique_ptr<IndexBuilder> builder;
  Status s = IndexBuilder::Create(dir.File("x.sdx"), options, &builder);
  EXPECT_TRUE(s.ok()) << s.ToString();
  if (!s.ok()) return nullptr;
  for (const Entry& e : MixedEntries(20000)) {
    s = builder->Add(e.id, e.fingerprint);
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (!s.ok()) break;
  }
  return builder;
}

TEST(BuildFailure, AbandonLeavesNothing) {
  ScopedTempDir dir;
  ScopedTempDir spill_dir;
  std::unique_ptr<IndexBuilder> builder = HalfBuilt(dir, spill_dir);
  ASSERT_NE(builder, nullptr);
  builder->Abandon();
  EXPECT_TRUE(dir.List().empty());
  EXPECT_TRUE(spill_dir.List().empty());
  builder.reset();
  EXPECT_TRUE(dir.List().empty());
  EXPECT_TRUE(spill_dir.List().empty());
}

TEST(BuildFailure, BuilderDestroyedWithoutFinishLeavesNothing) {
  ScopedTempDir dir;
  ScopedTempDir spill_dir;
  std::unique_ptr<IndexBuilder> builder = HalfBuilt(dir, spill_dir);
  ASSERT_NE(builder, nullptr);
  builder.reset();
  EXPECT_TRUE(dir.List().empty());
  EXPECT_TRUE(spill_dir.List().empty());
}

}  // namespace
}  // namespace simdex::testing
