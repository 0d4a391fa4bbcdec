#include "engine/util/external_sorter.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "engine/util/radix_sort.h"
#include "engine/util/run_file.h"
#include "engine/util/scratch_file.h"
#include "tests/open_files.h"

namespace simdex::util {
namespace {

namespace fs = std::filesystem;

// A fresh directory for one test's run files, removed with its contents.
class TempDir {
 public:
  TempDir() {
    std::string name = (fs::temp_directory_path() / "simdex-xsort-test-XXXXXX").string();
    path_ = ::mkdtemp(name.data());
  }
  ~TempDir() { fs::remove_all(path_); }
  const std::string& path() const { return path_; }
  std::vector<std::string> Files() const {
    std::vector<std::string> files;
    for (const fs::directory_entry& e : fs::directory_iterator(path_)) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
  }
  // This process's descriptors of files in the directory, named or not.
  std::vector<int> OpenFiles() const { return testing::OpenFilesIn(path_); }

 private:
  std::string path_;
};

enum class Shape {
  kRandom,
  kAllEqual,
  kEqualKeys,  // one fingerprint, distinct ids
  kSorted,
  kReverse,
  kSkewed,         // the top 32 bits constant
  kTwoTopValues,   // the top byte is 0x00 or 0xff: two huge MSD buckets
  kDuplicates,     // few distinct records, each many times
  kSequentialIds,  // ids in input order: the id passes are skipped
  kExtremes,       // 0, 1, 2^64 - 2 and 2^64 - 1 only, in both words
};
constexpr Shape kShapes[] = {Shape::kRandom, Shape::kAllEqual,     Shape::kEqualKeys,
                             Shape::kSorted, Shape::kReverse,      Shape::kSkewed,
                             Shape::kTwoTopValues, Shape::kDuplicates, Shape::kSequentialIds,
                             Shape::kExtremes};

constexpr uint64_t kExtremeValues[] = {0, 1, ~uint64_t{1}, ~uint64_t{0}};

template <class R>
R Make(uint64_t key, uint64_t id);
template <>
uint64_t Make<uint64_t>(uint64_t key, uint64_t) {
  return key;
}
template <>
FingerprintIdPair Make<FingerprintIdPair>(uint64_t key, uint64_t id) {
  return {key, id};
}

template <class R>
std::vector<R> Generate(Shape shape, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<R> v(n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t a = rng();
    const uint64_t b = rng();
    switch (shape) {
      case Shape::kAllEqual: v[i] = Make<R>(0x0123456789abcdefULL, 42); break;
      case Shape::kEqualKeys: v[i] = Make<R>(0x0123456789abcdefULL, b); break;
      case Shape::kSkewed: v[i] = Make<R>(0xabcdef0100000000ULL | (a & 0xffffffff), b % 1000); break;
      case Shape::kTwoTopValues: v[i] = Make<R>(((a & 1) ? 0xff00000000000000ULL : 0) | (a >> 8), i); break;
      case Shape::kDuplicates: v[i] = Make<R>(a % 100, b % 50); break;
      case Shape::kSequentialIds: v[i] = Make<R>(a, i); break;
      case Shape::kExtremes: v[i] = Make<R>(kExtremeValues[a % 4], kExtremeValues[b % 4]); break;
      default: v[i] = Make<R>(a, b); break;
    }
  }
  if (shape == Shape::kSorted) std::sort(v.begin(), v.end());
  if (shape == Shape::kReverse) std::sort(v.rbegin(), v.rend());
  return v;
}

// The smallest budget: a few thousand records per run, 13 runs per merge.
ExternalSortOptions Tiny(const TempDir& dir, int threads = 1) {
  return {.memory_bytes = kExternalSortMinMemoryBytes, .tmpdir = dir.path(), .threads = threads};
}

template <class R>
std::vector<R> Sorted(std::vector<R> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Adds v in batches of varying size, finishes and reads everything back in
// batches of read_batch records.
template <class R>
Status SortExternally(ExternalSorter<R>* sorter, const std::vector<R>& v, size_t read_batch, std::vector<R>* out) {
  std::mt19937_64 rng(7);
  for (size_t i = 0; i < v.size();) {
    const size_t n = std::min<size_t>(v.size() - i, 1 + rng() % 5000);
    SIMDEX_RETURN_IF_ERROR(sorter->Add(v.data() + i, n));
    i += n;
  }
  SIMDEX_RETURN_IF_ERROR(sorter->Finish());
  std::vector<R> batch(read_batch);
  size_t n = 0;
  do {
    SIMDEX_RETURN_IF_ERROR(sorter->Read(batch.data(), batch.size(), &n));
    out->insert(out->end(), batch.begin(), batch.begin() + n);
  } while (n > 0);
  return Status::OK();
}

template <class R>
class ExternalSorterTest : public ::testing::Test {};
using RecordTypes = ::testing::Types<uint64_t, FingerprintIdPair>;
TYPED_TEST_SUITE(ExternalSorterTest, RecordTypes);

TYPED_TEST(ExternalSorterTest, RadixSortMatchesStdSortForEveryShapeAndThreadCount) {
  // 150000 records take the MSD and the parallel paths, 1000 the LSD one.
  for (Shape shape : kShapes) {
    for (size_t n : {0, 1, 2, 63, 64, 65, 1000, 150000}) {
      const std::vector<TypeParam> input = Generate<TypeParam>(shape, n, n);
      const std::vector<TypeParam> expected = Sorted(input);
      for (int threads : {1, 2}) {
        SCOPED_TRACE("shape " + std::to_string(static_cast<int>(shape)) + ", n " + std::to_string(n) +
                     ", threads " + std::to_string(threads));
        std::vector<TypeParam> v = input;
        ExternalSorter<TypeParam>::SortInMemory(v.data(), v.size(), threads);
        ASSERT_TRUE(v == expected);
      }
    }
  }
}

TYPED_TEST(ExternalSorterTest, InMemoryPathTouchesNoDisk) {
  TempDir dir;
  const std::vector<TypeParam> input = Generate<TypeParam>(Shape::kRandom, 50000, 1);
  ExternalSorter<TypeParam> sorter({.memory_bytes = size_t{8} << 20, .tmpdir = dir.path()});
  for (size_t i = 0; i < input.size(); i += 1000) ASSERT_TRUE(sorter.Add(input.data() + i, 1000).ok());
  ASSERT_TRUE(sorter.Finish().ok());
  EXPECT_TRUE(dir.Files().empty());
  std::vector<TypeParam> out(input.size() + 1);
  size_t n = 0;
  ASSERT_TRUE(sorter.Read(out.data(), out.size(), &n).ok());
  out.resize(n);
  EXPECT_TRUE(out == Sorted(input));
  ASSERT_TRUE(sorter.Read(out.data(), 1, &n).ok());
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(sorter.stats().records, input.size());
  EXPECT_EQ(sorter.stats().runs_spilled, 0u);
  EXPECT_EQ(sorter.stats().bytes_spilled, 0u);
  EXPECT_EQ(sorter.stats().merge_passes, 0u);
}

TYPED_TEST(ExternalSorterTest, TinyBudgetMergesInSeveralPassesToTheInMemoryResult) {
  for (Shape shape : {Shape::kRandom, Shape::kDuplicates, Shape::kSequentialIds, Shape::kExtremes}) {
    for (int threads : {1, 2}) {
      SCOPED_TRACE("shape " + std::to_string(static_cast<int>(shape)) + ", threads " + std::to_string(threads));
      TempDir dir;
      const std::vector<TypeParam> input = Generate<TypeParam>(shape, 60000, 3);
      ExternalSorter<TypeParam> sorter(Tiny(dir, threads));
      std::vector<TypeParam> out;
      ASSERT_TRUE(SortExternally(&sorter, input, 777, &out).ok());
      EXPECT_TRUE(out == Sorted(input));
      EXPECT_GT(sorter.stats().runs_spilled, 10u);
      EXPECT_GE(sorter.stats().merge_passes, 2u);
      EXPECT_GT(sorter.stats().bytes_spilled, 2 * input.size() * sizeof(TypeParam));
      EXPECT_TRUE(dir.Files().empty());
    }
  }
}

TYPED_TEST(ExternalSorterTest, AtMostMaxOpenRunsAreMergedAtOnce) {
  // Many runs, at most 3 open at once: more passes, the same result.
  TempDir dir;
  const std::vector<TypeParam> input = Generate<TypeParam>(Shape::kRandom, 60000, 5);
  ExternalSortOptions options = Tiny(dir);
  ExternalSorter<TypeParam> wide(options);
  options.max_open_runs = 3;
  ExternalSorter<TypeParam> narrow(options);
  std::vector<TypeParam> out_wide, out_narrow;
  ASSERT_TRUE(SortExternally(&wide, input, 777, &out_wide).ok());
  ASSERT_TRUE(SortExternally(&narrow, input, 777, &out_narrow).ok());
  EXPECT_TRUE(out_narrow == Sorted(input));
  EXPECT_TRUE(out_wide == out_narrow);
  EXPECT_EQ(narrow.stats().runs_spilled, wide.stats().runs_spilled);
  // ceil(log3(runs)) passes at least.
  uint64_t passes = 0;
  for (uint64_t runs = narrow.stats().runs_spilled; runs > 1; runs = (runs + 2) / 3) ++passes;
  EXPECT_GE(narrow.stats().merge_passes, passes);
  EXPECT_GT(narrow.stats().merge_passes, wide.stats().merge_passes);
  EXPECT_TRUE(dir.Files().empty());
}

TYPED_TEST(ExternalSorterTest, FewRunsMergeInOnePass) {
  TempDir dir;
  const std::vector<TypeParam> input = Generate<TypeParam>(Shape::kRandom, 20000, 4);
  ExternalSorter<TypeParam> sorter(Tiny(dir));
  std::vector<TypeParam> out;
  ASSERT_TRUE(SortExternally(&sorter, input, 1, &out).ok());
  EXPECT_TRUE(out == Sorted(input));
  EXPECT_GT(sorter.stats().runs_spilled, 1u);
  EXPECT_EQ(sorter.stats().merge_passes, 1u);
}

TYPED_TEST(ExternalSorterTest, ZeroAndOneRecords) {
  for (size_t n : {0, 1}) {
    TempDir dir;
    const std::vector<TypeParam> input = Generate<TypeParam>(Shape::kRandom, n, 5);
    ExternalSorter<TypeParam> sorter(Tiny(dir));
    std::vector<TypeParam> out;
    ASSERT_TRUE(SortExternally(&sorter, input, 10, &out).ok());
    EXPECT_TRUE(out == input);
  }
}

// Every run is in one scratch file without a name (O_TMPFILE, or a name
// unlinked at once where there is none): a killed sort leaves nothing.
TYPED_TEST(ExternalSorterTest, RunsShareOneFileThatHasNoNameAndGoesWithTheSorter) {
  for (const bool fallback : {false, true}) {
    SCOPED_TRACE(fallback ? "a name unlinked at once" : "O_TMPFILE");
    const bool was = util::ScratchFile::ForceUnlinkedName(fallback);
    TempDir dir;
    const std::vector<TypeParam> input = Generate<TypeParam>(Shape::kRandom, 20000, 6);
    {
      ExternalSorter<TypeParam> sorter(Tiny(dir));
      ASSERT_TRUE(sorter.Add(input.data(), input.size()).ok());
      ASSERT_TRUE(sorter.Finish().ok());
      EXPECT_GT(sorter.stats().runs_spilled, 2u);
      EXPECT_EQ(dir.OpenFiles().size(), 1u);
      EXPECT_TRUE(dir.Files().empty());
    }
    EXPECT_TRUE(dir.OpenFiles().empty());
    EXPECT_TRUE(dir.Files().empty());
    util::ScratchFile::ForceUnlinkedName(was);
  }
}

TYPED_TEST(ExternalSorterTest, AbandonRemovesTempFilesAndLaterCallsFail) {
  TempDir dir;
  const std::vector<TypeParam> input = Generate<TypeParam>(Shape::kRandom, 20000, 7);
  ExternalSorter<TypeParam> sorter(Tiny(dir));
  ASSERT_TRUE(sorter.Add(input.data(), input.size()).ok());
  EXPECT_EQ(dir.OpenFiles().size(), 1u);
  sorter.Abandon();
  EXPECT_TRUE(dir.OpenFiles().empty());
  EXPECT_FALSE(sorter.Add(input.data(), 1).ok());
  EXPECT_FALSE(sorter.status().ok());
}

TYPED_TEST(ExternalSorterTest, CorruptedSpillFileIsCorruptionNamingIt) {
  TempDir dir;
  const std::vector<TypeParam> input = Generate<TypeParam>(Shape::kRandom, 20000, 8);
  ExternalSorter<TypeParam> sorter(Tiny(dir));
  ASSERT_TRUE(sorter.Add(input.data(), input.size()).ok());
  ASSERT_TRUE(sorter.Finish().ok());
  // The merge has read only the first frames of each run; damage the last
  // frame of the first one (a full one), through the sorter's descriptor.
  const std::vector<int> fds = dir.OpenFiles();
  ASSERT_EQ(fds.size(), 1u);
  const off_t last = static_cast<off_t>(
      RunFileBytes(sizeof(TypeParam), ExternalSortCapacity<TypeParam>(kExternalSortMinMemoryBytes)) - 1);
  char c;
  ASSERT_EQ(::pread(fds[0], &c, 1, last), 1);
  c ^= 0x01;
  ASSERT_EQ(::pwrite(fds[0], &c, 1, last), 1);
  const std::string victim = dir.path() + "/simdex-sort-XXXXXX: run at byte 0";
  std::vector<TypeParam> out(1000);
  size_t n = 0;
  Status s;
  do {
    s = sorter.Read(out.data(), out.size(), &n);
  } while (s.ok() && n > 0);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find(victim), std::string::npos) << s.ToString();
  EXPECT_TRUE(sorter.Read(out.data(), out.size(), &n).IsCorruption());
}

TYPED_TEST(ExternalSorterTest, FailedWriteIsIOErrorAndLeavesNoFiles) {
  TempDir dir;
  const std::vector<TypeParam> input = Generate<TypeParam>(Shape::kRandom, 20000, 9);
  Status s;
  {
    ExternalSorter<TypeParam> sorter(Tiny(dir));
    // A file size limit makes write() fail with EFBIG, as a full disk fails
    // with ENOSPC.
    struct rlimit old_limit;
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old_limit), 0);
    struct rlimit limit = old_limit;
    limit.rlim_cur = 10000;
    const sighandler_t old_handler = ::signal(SIGXFSZ, SIG_IGN);
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limit), 0);
    s = sorter.Add(input.data(), input.size());
    ::setrlimit(RLIMIT_FSIZE, &old_limit);
    ::signal(SIGXFSZ, old_handler);
    EXPECT_TRUE(s.IsIOError()) << s.ToString();
    EXPECT_NE(s.message().find(dir.path() + "/simdex-sort-"), std::string::npos) << s.ToString();
    EXPECT_EQ(dir.OpenFiles().size(), 1u);
    EXPECT_TRUE(dir.Files().empty());
    EXPECT_EQ(sorter.Finish().ToString(), s.ToString());
  }
  EXPECT_TRUE(dir.OpenFiles().empty());
}

// Half of a 64 TiB budget for the run buffer at the first Add() could not
// be allocated (issue 36); the buffer now grows with the records.
TYPED_TEST(ExternalSorterTest, BudgetFarAboveTheInputAllocatesOnlyForTheInput) {
  TempDir dir;
  ExternalSorter<TypeParam> sorter({.memory_bytes = size_t{1} << 46, .tmpdir = dir.path()});
  const std::vector<TypeParam> input = Generate<TypeParam>(Shape::kRandom, 100000, 3);
  std::vector<TypeParam> out;
  const Status s = SortExternally(&sorter, input, 777, &out);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(out == Sorted(input));
  EXPECT_EQ(sorter.stats().runs_spilled, 0u);
}

TYPED_TEST(ExternalSorterTest, MissingTmpdirIsIOErrorNamingIt) {
  const std::string missing = "/nonexistent-simdex-dir/sub";
  ExternalSorter<TypeParam> sorter({.memory_bytes = kExternalSortMinMemoryBytes, .tmpdir = missing});
  EXPECT_TRUE(sorter.status().IsIOError());
  EXPECT_NE(sorter.status().message().find(missing), std::string::npos) << sorter.status().ToString();
  const TypeParam r{};
  EXPECT_TRUE(sorter.Add(&r, 1).IsIOError());
}

TYPED_TEST(ExternalSorterTest, BadOptionsAreInvalidArgument) {
  TempDir dir;
  ExternalSorter<TypeParam> small({.memory_bytes = 1000, .tmpdir = dir.path()});
  EXPECT_TRUE(small.status().IsInvalidArgument());
  EXPECT_NE(small.status().message().find(std::to_string(kExternalSortMinMemoryBytes)), std::string::npos);
  ExternalSorter<TypeParam> no_dir({.memory_bytes = kExternalSortMinMemoryBytes, .tmpdir = ""});
  EXPECT_TRUE(no_dir.status().IsInvalidArgument());
  ExternalSorter<TypeParam> no_threads(
      {.memory_bytes = kExternalSortMinMemoryBytes, .tmpdir = dir.path(), .threads = 0});
  EXPECT_TRUE(no_threads.status().IsInvalidArgument());
}

// Runs on their own, each at the start of a scratch file of its own.

std::unique_ptr<util::ScratchFile> WriteRun(const std::string& dir, const std::vector<uint64_t>& records,
                                          uint64_t* bytes) {
  std::unique_ptr<util::ScratchFile> file;
  EXPECT_TRUE(util::ScratchFile::Create(dir, "sort", &file).ok());
  std::unique_ptr<RunWriter> writer;
  EXPECT_TRUE(RunWriter::Create(file.get(), 0, 8, records.size(), &writer).ok());
  EXPECT_TRUE(writer->Append(records.data(), records.size()).ok());
  EXPECT_TRUE(writer->Finish().ok());
  EXPECT_EQ(writer->bytes_written(), RunFileBytes(8, records.size()));
  *bytes = writer->bytes_written();
  return file;
}

Status ReadRun(const util::ScratchFile& file, uint64_t bytes, size_t record_size, std::vector<uint64_t>* out) {
  std::unique_ptr<RunReader> reader;
  SIMDEX_RETURN_IF_ERROR(RunReader::Open(file, 0, bytes, record_size, 3 * kRunFrameBytes, &reader));
  const void* records;
  size_t n;
  do {
    SIMDEX_RETURN_IF_ERROR(reader->Next(&records, &n));
    const uint64_t* p = static_cast<const uint64_t*>(records);
    out->insert(out->end(), p, p + n);
  } while (n > 0);
  return Status::OK();
}

void FlipByte(const util::ScratchFile& file, off_t offset) {
  char c;
  ASSERT_EQ(::pread(file.fd(), &c, 1, offset), 1);
  c ^= 0x20;
  ASSERT_EQ(::pwrite(file.fd(), &c, 1, offset), 1);
}

TEST(RunFile, RoundTripsAcrossFrameBoundaries) {
  TempDir dir;
  for (size_t n : {0, 1, 511, 512, 513, 5000}) {
    std::vector<uint64_t> records(n);
    for (size_t i = 0; i < n; ++i) records[i] = i * 0x9e3779b97f4a7c15ULL;
    std::vector<uint64_t> back;
    uint64_t bytes = 0;
    const std::unique_ptr<util::ScratchFile> file = WriteRun(dir.path(), records, &bytes);
    ASSERT_TRUE(ReadRun(*file, bytes, 8, &back).ok());
    EXPECT_TRUE(back == records);
  }
  EXPECT_TRUE(dir.Files().empty());
}

TEST(RunFile, DamageIsCorruption) {
  TempDir dir;
  const std::vector<uint64_t> records(3000, 7);
  uint64_t bytes = 0;
  const std::unique_ptr<util::ScratchFile> file = WriteRun(dir.path(), records, &bytes);
  std::vector<uint64_t> back;
  EXPECT_TRUE(ReadRun(*file, bytes, 16, &back).IsCorruption());  // record size mismatch

  for (off_t offset : {0, 20, 40, 20000}) {
    SCOPED_TRACE(offset);
    FlipByte(*file, offset);
    back.clear();
    const Status s = ReadRun(*file, bytes, 8, &back);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_NE(s.message().find(file->name() + ": run at byte 0"), std::string::npos) << s.ToString();
    FlipByte(*file, offset);
  }
  EXPECT_TRUE(ReadRun(*file, bytes - 1, 8, &back).IsCorruption());
  EXPECT_TRUE(ReadRun(*file, 10, 8, &back).IsCorruption());
}

}  // namespace
}  // namespace simdex::util
