// ReloadingIndex: switching to a file renamed into place, refusing a damaged
// or foreign one, and searches running while the file is replaced (this
// binary also runs under ThreadSanitizer: tests/reload/CMakeLists.txt).
#include "simdex/reloading_index.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "tests/index/test_data.h"

namespace simdex {
namespace {

using testing::Entry;

constexpr uint64_t kIdsPerVersion = 1'000'000;

// The same fingerprints in every version, with ids that say the version:
// version v's entry i has id v * kIdsPerVersion + i. Every answer then tells
// which version it came from, and must equal that version's answer.
std::vector<Entry> VersionEntries(uint64_t version, const std::vector<uint64_t>& fingerprints) {
  std::vector<Entry> entries;
  for (size_t i = 0; i < fingerprints.size(); ++i) entries.push_back({version * kIdsPerVersion + i, fingerprints[i]});
  return entries;
}

class ReloadingIndexTest : public ::testing::Test {
 protected:
  void SetUp() override { fingerprints_ = testing::ClusterFingerprints(300, 6, 42); }

  // Builds version v's index at `name` in the temporary directory.
  std::string Build(uint64_t version, const std::string& name, const std::string& scheme = "t10",
                    const std::string& profile = "") {
    BuildOptions options;
    options.scheme = testing::SchemeOrDie(scheme);
    options.profile = profile;
    options.block_size = 256;
    const std::string path = dir_.File(name);
    const std::vector<Entry> entries = VersionEntries(version, fingerprints_);
    EXPECT_TRUE(testing::BuildIndex(path, options, entries).ok());
    return path;
  }

  // Puts the file `from` in place of the served path as build and merge do:
  // a copy renamed over it.
  void Replace(const std::string& from) {
    const std::string tmp = served() + ".tmp";
    testing::WriteFileOrDie(tmp, testing::ReadFileOrDie(from));
    ASSERT_EQ(std::rename(tmp.c_str(), served().c_str()), 0);
  }

  std::string served() const { return dir_.File("served.sdx"); }

  std::vector<Match> Expected(uint64_t version, uint64_t query) const {
    const std::vector<Entry> entries = VersionEntries(version, fingerprints_);
    return testing::BruteForceSearch(entries, query, 3);
  }

  testing::ScopedTempDir dir_;
  std::vector<uint64_t> fingerprints_;
};

TEST_F(ReloadingIndexTest, SwitchesToAFileRenamedIntoPlaceAndKeepsOldSnapshotsWorking) {
  Replace(Build(1, "v1.sdx"));
  std::unique_ptr<ReloadingIndex> index;
  ASSERT_TRUE(ReloadingIndex::Open(served(), ReloadOptions(), &index).ok());
  EXPECT_EQ(index->version(), 1u);
  const std::shared_ptr<const IndexReader> old = index->Current();
  const uint64_t query = fingerprints_[7];

  Replace(Build(2, "v2.sdx"));
  bool switched = false;
  ASSERT_TRUE(index->Reload(&switched).ok());
  EXPECT_TRUE(switched);
  EXPECT_EQ(index->version(), 2u);

  std::vector<Match> now, before;
  ASSERT_TRUE(index->Current()->Search(query, 3, &now).ok());
  ASSERT_TRUE(old->Search(query, 3, &before).ok());
  EXPECT_EQ(now, Expected(2, query));
  EXPECT_EQ(before, Expected(1, query));  // the old mapping lives while its snapshot does
}

TEST_F(ReloadingIndexTest, ReloadWithoutChangeDoesNotSwitch) {
  Replace(Build(1, "v1.sdx"));
  std::unique_ptr<ReloadingIndex> index;
  ASSERT_TRUE(ReloadingIndex::Open(served(), ReloadOptions(), &index).ok());
  const IndexReader* first = index->Current().get();
  bool switched = true;
  ASSERT_TRUE(index->Reload(&switched).ok());
  EXPECT_FALSE(switched);
  EXPECT_EQ(index->Current().get(), first);
  EXPECT_EQ(index->version(), 1u);
}

TEST_F(ReloadingIndexTest, RefusesATruncatedFileReportsItOnceAndKeepsServing) {
  Replace(Build(1, "v1.sdx"));
  std::vector<ReloadEvent> events;
  ReloadOptions options;
  options.on_event = [&](const ReloadEvent& e) { events.push_back(e); };
  std::unique_ptr<ReloadingIndex> index;
  ASSERT_TRUE(ReloadingIndex::Open(served(), options, &index).ok());

  const std::string v2 = testing::ReadFileOrDie(Build(2, "v2.sdx"));
  testing::WriteFileOrDie(dir_.File("cut.sdx"), v2.substr(0, v2.size() / 2));
  Replace(dir_.File("cut.sdx"));
  bool switched = true;
  const Status s = index->Reload(&switched);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find(served()), std::string::npos) << s.message();
  EXPECT_FALSE(switched);
  EXPECT_EQ(index->version(), 1u);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_FALSE(events[0].switched);
  EXPECT_TRUE(events[0].status.IsCorruption());

  // The same refused file is not tried (or reported) again ...
  EXPECT_TRUE(index->Reload(&switched).ok());
  EXPECT_EQ(events.size(), 1u);
  std::vector<Match> got;
  ASSERT_TRUE(index->Current()->Search(fingerprints_[3], 3, &got).ok());
  EXPECT_EQ(got, Expected(1, fingerprints_[3]));

  // ... and a sound file after it is taken.
  Replace(dir_.File("v2.sdx"));
  ASSERT_TRUE(index->Reload(&switched).ok());
  EXPECT_TRUE(switched);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_TRUE(events[1].switched);
  EXPECT_EQ(events[1].version, 2u);
}

TEST_F(ReloadingIndexTest, RefusesAFileThatIsNotAnIndex) {
  Replace(Build(1, "v1.sdx"));
  std::unique_ptr<ReloadingIndex> index;
  ASSERT_TRUE(ReloadingIndex::Open(served(), ReloadOptions(), &index).ok());
  testing::WriteFileOrDie(dir_.File("text.sdx"), "id\tfingerprint\n1\t00ff00ff00ff00ff\n");
  Replace(dir_.File("text.sdx"));
  EXPECT_TRUE(index->Reload().IsCorruption());
  EXPECT_EQ(index->version(), 1u);
}

TEST_F(ReloadingIndexTest, RefusesAnotherSchemeUnlessAllowed) {
  Replace(Build(1, "v1.sdx"));
  std::unique_ptr<ReloadingIndex> index;
  ASSERT_TRUE(ReloadingIndex::Open(served(), ReloadOptions(), &index).ok());
  Replace(Build(2, "t4.sdx", "t4"));
  const Status s = index->Reload();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("t4"), std::string::npos) << s.message();
  EXPECT_EQ(index->Current()->scheme().Name(), "t10");

  ReloadOptions any;
  any.require_same_scheme = false;
  ASSERT_TRUE(ReloadingIndex::Open(served(), any, &index).ok());  // opens the t4 file
  Replace(dir_.File("v1.sdx"));
  bool switched = false;
  ASSERT_TRUE(index->Reload(&switched).ok());
  EXPECT_TRUE(switched);
}

// The queries of a serving process are fingerprints of one profile: a new
// file of another is refused (the old keeps serving) unless allowed; one
// that records none, or the same, is taken.
TEST_F(ReloadingIndexTest, RefusesAnotherFingerprintProfileUnlessAllowed) {
  Replace(Build(1, "v1.sdx", "t10", "simdex-fp/3 seed:0"));
  std::unique_ptr<ReloadingIndex> index;
  ASSERT_TRUE(ReloadingIndex::Open(served(), ReloadOptions(), &index).ok());
  Replace(Build(2, "v2.sdx", "t10", "simdex-fp/3 seed:7"));
  Status s = index->Reload();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("seed:0"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("seed:7"), std::string::npos) << s.message();
  EXPECT_EQ(index->Current()->profile(), "simdex-fp/3 seed:0");
  EXPECT_EQ(index->version(), 1u);
  Replace(Build(3, "v3.sdx", "t10", "simdex-fp/3 seed:0"));
  bool switched = false;
  ASSERT_TRUE(index->Reload(&switched).ok());
  EXPECT_TRUE(switched);

  ReloadOptions any;
  any.require_same_profile = false;
  ASSERT_TRUE(ReloadingIndex::Open(served(), any, &index).ok());
  Replace(dir_.File("v2.sdx"));
  ASSERT_TRUE(index->Reload(&switched).ok());
  EXPECT_TRUE(switched);
  EXPECT_EQ(index->Current()->profile(), "simdex-fp/3 seed:7");
}

TEST_F(ReloadingIndexTest, VerifyBeforeSwitchRefusesADamagedBlock) {
  Replace(Build(1, "v1.sdx"));
  std::string damaged = testing::ReadFileOrDie(Build(2, "v2.sdx"));
  // Table 0's first block starts after the 64-byte header, aligned to the
  // block size (docs/format.md): flip a byte inside its bit stream.
  damaged[256 + 40] ^= 0x10;
  testing::WriteFileOrDie(dir_.File("damaged.sdx"), damaged);

  ReloadOptions options;
  options.verify_before_switch = true;
  std::unique_ptr<ReloadingIndex> index;
  ASSERT_TRUE(ReloadingIndex::Open(served(), options, &index).ok());
  Replace(dir_.File("damaged.sdx"));
  const Status s = index->Reload();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_EQ(index->version(), 1u);
}

TEST_F(ReloadingIndexTest, PeriodicCheckPicksUpANewFile) {
  Replace(Build(1, "v1.sdx"));
  ReloadOptions options;
  options.check_period_seconds = 0.01;
  std::unique_ptr<ReloadingIndex> index;
  ASSERT_TRUE(ReloadingIndex::Open(served(), options, &index).ok());
  Replace(Build(2, "v2.sdx"));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (index->version() < 2 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(index->version(), 2u) << "the background check did not switch within 30 s";
  std::vector<Match> got;
  ASSERT_TRUE(index->Current()->Search(fingerprints_[11], 3, &got).ok());
  EXPECT_EQ(got, Expected(2, fingerprints_[11]));
}

TEST_F(ReloadingIndexTest, NegativePeriodIsInvalidArgument) {
  Replace(Build(1, "v1.sdx"));
  ReloadOptions options;
  options.check_period_seconds = -1;
  std::unique_ptr<ReloadingIndex> index;
  EXPECT_TRUE(ReloadingIndex::Open(served(), options, &index).IsInvalidArgument());
}

// Four threads search without pause while the file is replaced 50 times
// (three versions in turn); every answer must be exactly one version's
// answer, and a thread never sees the version go backwards.
TEST_F(ReloadingIndexTest, SearchesDuringFiftyReplacementsEachSeeOneWholeVersion) {
  constexpr int kVersions = 3;
  constexpr int kReplacements = 50;
  constexpr int kThreads = 4;
  std::vector<std::string> files;
  for (int v = 1; v <= kVersions; ++v) files.push_back(Build(v, "v" + std::to_string(v) + ".sdx"));
  Replace(files[0]);
  std::unique_ptr<ReloadingIndex> index;
  ASSERT_TRUE(ReloadingIndex::Open(served(), ReloadOptions(), &index).ok());

  std::vector<uint64_t> queries(fingerprints_.begin(), fingerprints_.begin() + 64);
  std::vector<std::vector<std::vector<Match>>> expected(kVersions + 1);
  for (int v = 1; v <= kVersions; ++v) {
    for (uint64_t q : queries) expected[v].push_back(Expected(v, q));
  }

  std::atomic<bool> done{false};
  std::atomic<uint64_t> searches{0};
  std::mutex failures_mu;
  std::vector<std::string> failures;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      uint64_t last_version = 0;
      size_t i = static_cast<size_t>(t);
      while (!done.load()) {
        const uint64_t version = index->version();
        const std::shared_ptr<const IndexReader> reader = index->Current();
        const size_t q = i++ % queries.size();
        std::vector<Match> got;
        const Status s = reader->Search(queries[q], 3, &got);
        std::string failure;
        if (!s.ok()) {
          failure = s.ToString();
        } else if (got.empty()) {
          failure = "no match for a fingerprint of the index";
        } else {
          const uint64_t v = got[0].id / kIdsPerVersion;
          if (v < 1 || v > kVersions || got != expected[v][q]) failure = "an answer mixes versions or is wrong";
          if (version < last_version) failure = "the version went backwards";
        }
        last_version = version;
        searches.fetch_add(1);
        if (!failure.empty()) {
          std::lock_guard<std::mutex> lock(failures_mu);
          failures.push_back(failure);
          return;
        }
      }
    });
  }
  int switches = 0;
  for (int r = 0; r < kReplacements; ++r) {
    Replace(files[(r + 1) % kVersions]);
    bool switched = false;
    const Status s = index->Reload(&switched);
    ASSERT_TRUE(s.ok()) << s.ToString();
    switches += switched ? 1 : 0;
    // Let the searchers run on this version for a moment (bounded: at most
    // a few hundred milliseconds under a sanitizer).
    const uint64_t target = searches.load() + 4 * kThreads;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    while (searches.load() < target && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  }
  done.store(true);
  for (std::thread& t : threads) t.join();
  EXPECT_TRUE(failures.empty()) << failures.size() << " failures, the first: " << failures.front();
  EXPECT_EQ(switches, kReplacements);
  EXPECT_EQ(index->version(), static_cast<uint64_t>(kReplacements + 1));
  EXPECT_GT(searches.load(), static_cast<uint64_t>(kReplacements));
}

}  // namespace
}  // namespace simdex
