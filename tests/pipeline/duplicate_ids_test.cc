// engine/pipeline/duplicate_ids: the ids given to several documents of a batch, found
// by an external sort within a memory budget, against a brute-force count.
#include "engine/pipeline/duplicate_ids.h"

#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cli/cli_harness.h"

namespace simdex::pipeline {
namespace {

// A document's id: a number, or a string when `text` is not empty.
struct Id {
  uint64_t number = 0;
  std::string text;
  bool operator<(const Id& o) const { return text != o.text ? text < o.text : number < o.number; }
};

DuplicateIds BruteForce(const std::vector<Id>& ids) {
  std::map<Id, std::vector<uint64_t>> seen;
  for (uint64_t o = 0; o < ids.size(); ++o) seen[ids[o]].push_back(o);
  DuplicateIds want;
  for (const auto& [id, ordinals] : seen) {
    if (ordinals.size() < 2) continue;
    if (want.ids++ == 0 || ordinals[1] < want.second) {
      want.first = ordinals[0];
      want.second = ordinals[1];
    }
  }
  return want;
}

DocumentIds Load(const std::vector<Id>& ids) {
  DocumentIds d;
  for (const Id& id : ids) d.Add(id.number, id.text);
  return d;
}

TEST(DuplicateIds, ConsecutiveNumbersCostNothingAndHaveNone) {
  std::vector<Id> ids;
  for (uint64_t i = 7; i < 1007; ++i) ids.push_back({i, ""});
  DuplicateIds got;
  ASSERT_TRUE(FindDuplicateIds(Load(ids), 1 << 20, "/nonexistent", 1, &got).ok()) << "no sort, no tmpdir needed";
  EXPECT_EQ(got.ids, 0u);
}

TEST(DuplicateIds, NumbersAndStringsAreComparedExactly) {
  // "7" as a string never reaches here (it is the number 7); a string that
  // merely hashes like a number is not that number.
  const std::vector<Id> ids = {{1, ""}, {0, "a"}, {2, ""}, {0, "b"}, {0, "a"}, {1, ""}, {1, ""}, {0, "c"}};
  DuplicateIds got;
  ASSERT_TRUE(FindDuplicateIds(Load(ids), 1 << 20, "/tmp", 1, &got).ok());
  EXPECT_EQ(got.ids, 2u);
  EXPECT_EQ(got.first, 1u) << "string a: documents 1 and 4, the earliest second occurrence";
  EXPECT_EQ(got.second, 4u);
}

TEST(DuplicateIds, SpilledSortFindsWhatBruteForceFinds) {
  std::mt19937_64 rng(18);
  for (int round = 0; round < 4; ++round) {
    std::vector<Id> ids;
    const uint64_t n = 20000;
    for (uint64_t i = 0; i < n; ++i) {
      if (rng() % 3 == 0) ids.push_back({0, "https://a.example/" + std::to_string(rng() % (round == 0 ? n * 100 : n))});
      else ids.push_back({rng() % (round == 0 ? n * 1000 : n * 4), ""});
    }
    if (round == 0) ids.push_back(ids[n / 2]);  // one duplicate, at the very end
    clitest::ScratchDir tmp;
    DuplicateIds got;
    const Status s = FindDuplicateIds(Load(ids), 64 << 10, tmp.path(), 2, &got);
    ASSERT_TRUE(s.ok()) << s.ToString();
    const DuplicateIds want = BruteForce(ids);
    EXPECT_GT(got.spilled_runs, 1u) << "320 KB of records in a 64 KiB budget";
    EXPECT_EQ(got.ids, want.ids) << round;
    EXPECT_EQ(got.first, want.first) << round;
    EXPECT_EQ(got.second, want.second) << round;
    EXPECT_TRUE(tmp.List().empty()) << "spilled runs removed";
  }
}

TEST(DocumentPlaces, LinesAcrossInputsBlankLinesAndSkippedRecords) {
  DocumentPlaces places;
  for (uint64_t line : {1, 2, 4, 5, 9}) places.Add(line);  // a.jsonl: blank line 3, lines 6-8 skipped
  for (uint64_t line : {1, 2}) places.Add(line);           // b.txt
  places.SetInputs({"a.jsonl", "b.txt"}, {5, 2});
  const std::vector<std::string> want = {"a.jsonl:1", "a.jsonl:2", "a.jsonl:4", "a.jsonl:5",
                                         "a.jsonl:9", "b.txt:1",   "b.txt:2"};
  for (uint64_t o = 0; o < want.size(); ++o) EXPECT_EQ(places.Describe(o), want[o]) << o;
}

}  // namespace
}  // namespace simdex::pipeline
