// Fingerprint profiles end to end (docs/fingerprint.md, "Profiles"):
// `simdex fingerprint` records its profile, `simdex build` carries it into
// the index, and query, dedup --against and merge refuse fingerprints of
// another profile with one line naming both; an unrecorded side (old
// files, fingerprints from other tools) is accepted.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "simdex/profile.h"
#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

constexpr char kDocs[] =
    "{\"id\": 1, \"text\": \"The quick brown fox jumps over the lazy dog near the river bank today\"}\n"
    "{\"id\": 2, \"text\": \"The quick brown fox jumps over the lazy dog near the river bank\"}\n"
    "{\"id\": 3, \"text\": \"An entirely different sentence about compressed indexes and fingerprints\"}\n";

class ProfileCli : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteFile(dir_.File("docs.jsonl"), kDocs);
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"fingerprint", "--quiet", F("docs.jsonl"), "-o", F("fp.txt")},
             {"fingerprint", "--quiet", F("docs.jsonl"), "--seed", "7", "-o", F("fp7.txt")},
             {"build", "--quiet", "--out", F("idx.sdx"), F("fp.txt")}}) {
      const RunResult r = Run(args);
      ASSERT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
    }
    ASSERT_TRUE(FingerprintProfile(FingerprintOptions(), &default_profile_).ok());
    FingerprintOptions seven;
    seven.seed = 7;
    ASSERT_TRUE(FingerprintProfile(seven, &seed7_profile_).ok());
  }
  RunResult Run(const std::vector<std::string>& args) { return RunSimdex(dir_, args); }
  std::string F(const std::string& name) const { return dir_.File(name); }
  // A refusal: a non-zero exit and one line that names both profiles.
  void ExpectRefusedNamingBoth(const RunResult& r, const std::string& what) {
    EXPECT_NE(r.exit_code, 0) << what;
    EXPECT_EQ(Lines(r.err).size(), 1u) << what << ": " << r.err;
    EXPECT_NE(r.err.find("fingerprint profiles differ"), std::string::npos) << what << ": " << r.err;
    EXPECT_NE(r.err.find(default_profile_), std::string::npos) << what << ": " << r.err;
    EXPECT_NE(r.err.find(seed7_profile_), std::string::npos) << what << ": " << r.err;
  }

  ScratchDir dir_;
  std::string default_profile_, seed7_profile_;
};

TEST_F(ProfileCli, FingerprintRecordsItsProfileAndBuildCarriesItIntoTheIndex) {
  EXPECT_EQ(Lines(ReadFile(dir_.File("fp.txt"))).front(), "#simdex-profile\t" + default_profile_);
  RunResult r = Run({"inspect", F("idx.sdx")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"profile\": \"" + default_profile_ + "\""), std::string::npos) << r.out;
  ASSERT_EQ(Run({"fingerprint", F("docs.jsonl"), "--binary", "-o", F("fp.bin")}).exit_code, 0);
  ASSERT_EQ(Run({"build", "--quiet", "--out", F("bin.sdx"), F("fp.bin")}).exit_code, 0);
  EXPECT_EQ(ReadFile(dir_.File("bin.sdx")), ReadFile(dir_.File("idx.sdx"))) << "the binary form carries it too";
}

TEST_F(ProfileCli, BuildRefusesInputsOfTwoProfilesAndWritesNothing) {
  ExpectRefusedNamingBoth(Run({"build", "--quiet", "--out", F("mixed.sdx"), F("fp.txt"), F("fp7.txt")}), "build");
  EXPECT_FALSE(FileExists(dir_.File("mixed.sdx")));
}

TEST_F(ProfileCli, QueryRefusesAFingerprintFileOfAnotherProfile) {
  ExpectRefusedNamingBoth(Run({"query", F("idx.sdx"), F("fp7.txt")}), "query");
  EXPECT_EQ(Run({"query", F("idx.sdx"), F("fp.txt")}).exit_code, 0);
  // A bare fingerprint carries no profile: the caller vouches for it.
  EXPECT_EQ(Run({"query", F("idx.sdx"), "0123456789abcdef"}).exit_code, 0);
}

TEST_F(ProfileCli, DedupAgainstRefusesOtherTextOptionsOrFingerprints) {
  ExpectRefusedNamingBoth(Run({"dedup", "--method", "simhash", "--quiet", F("docs.jsonl"), "--seed", "7", "--against", F("idx.sdx")}),
                          "dedup of texts");
  ExpectRefusedNamingBoth(Run({"dedup", "--method", "simhash", "--quiet", F("fp7.txt"), "--format", "fingerprints", "--against", F("idx.sdx")}),
                          "dedup of fingerprints");
  RunResult ok = Run({"dedup", "--method", "simhash", "--quiet", F("docs.jsonl"), "--against", F("idx.sdx")});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

TEST_F(ProfileCli, MergeRefusesABatchOfAnotherProfileAndKeepsTheIndexs) {
  ExpectRefusedNamingBoth(Run({"merge", "--quiet", F("idx.sdx"), F("fp7.txt"), "--out", F("merged.sdx")}), "merge");
  EXPECT_FALSE(FileExists(dir_.File("merged.sdx")));
  // fp.txt holds idx.sdx's own entries: --replace, or its ids are refused as held already.
  ASSERT_EQ(Run({"merge", "--quiet", "--replace", F("idx.sdx"), F("fp.txt"), "--out", F("merged.sdx")}).exit_code, 0);
  EXPECT_NE(Run({"inspect", F("merged.sdx")}).out.find(default_profile_), std::string::npos);
}

// A weight cap is part of the profile (issue 37 item 6): an index of capped
// fingerprints refuses fingerprints and texts weighed without the cap, and
// takes those weighed with it.
TEST_F(ProfileCli, AWeightCapIsRecordedAndAMismatchRefused) {
  ASSERT_EQ(Run({"fingerprint", "--quiet", F("docs.jsonl"), "--tf-cap", "3", "-o", F("cap.txt")}).exit_code, 0);
  const std::string header = Lines(ReadFile(dir_.File("cap.txt"))).front();
  EXPECT_NE(header.find(" tf tf-cap:3 max-share:0.1 seed:0"), std::string::npos) << header;
  ASSERT_EQ(Run({"build", "--quiet", "--out", F("cap.sdx"), F("cap.txt")}).exit_code, 0);
  EXPECT_NE(Run({"inspect", F("cap.sdx")}).out.find("tf-cap:3"), std::string::npos);
  RunResult r = Run({"query", F("cap.sdx"), F("fp.txt")});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("fingerprint profiles differ"), std::string::npos) << r.err;
  r = Run({"dedup", "--method", "simhash", "--quiet", F("docs.jsonl"), "--against", F("cap.sdx")});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("tf-cap:3"), std::string::npos) << r.err;
  EXPECT_EQ(Run({"query", F("cap.sdx"), F("cap.txt")}).exit_code, 0);
  r = Run({"dedup", "--method", "simhash", "--quiet", F("docs.jsonl"), "--tf-cap", "3", "--against", F("cap.sdx")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// Fingerprints written without a profile (by another tool, or before
// profiles) are compared with any: nothing says they differ.
TEST_F(ProfileCli, AnUnrecordedSideIsAccepted) {
  WriteFile(dir_.File("plain.txt"), "1\t0123456789abcdef\n2\t0123456789abcdee\n");
  ASSERT_EQ(Run({"build", "--quiet", "--out", F("plain.sdx"), F("plain.txt")}).exit_code, 0);
  EXPECT_NE(Run({"inspect", F("plain.sdx")}).out.find("\"profile\": null"), std::string::npos);
  EXPECT_EQ(Run({"query", F("plain.sdx"), F("fp7.txt")}).exit_code, 0);
  EXPECT_EQ(Run({"query", F("idx.sdx"), F("plain.txt")}).exit_code, 0);
  EXPECT_EQ(Run({"dedup", "--method", "simhash", "--quiet", F("docs.jsonl"), "--seed", "7", "--against", F("plain.sdx")}).exit_code, 0);
  // A build of an unrecorded and a recorded file records the recorded one.
  ASSERT_EQ(Run({"build", "--quiet", "--out", F("both.sdx"), F("plain.txt"), F("fp7.txt")}).exit_code, 0);
  EXPECT_NE(Run({"inspect", F("both.sdx")}).out.find(seed7_profile_), std::string::npos);
}

}  // namespace
}  // namespace simdex::clitest
