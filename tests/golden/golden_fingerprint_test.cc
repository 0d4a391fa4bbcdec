// The engine against the golden fingerprints of tests/golden/fingerprints_v<N>.tsv (and profile
// 2's, with the text fixes of version 3 turned off), which
// tests/golden/make_golden.py derives from docs/fingerprint.md with PyICU and python3-xxhash,
// apart from engine/text. N is kDefaultFingerprintProfileVersion: a change of the engine's
// output fails here until the version is raised, the changelog says why and the vectors are
// made again (docs/fingerprint.md, "Golden fingerprints and changing the defaults").
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "simdex/fingerprint.h"
#include "simdex/profile.h"

namespace simdex {
namespace {

const std::string kSourceDir = SIMDEX_SOURCE_DIR;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::vector<std::string> Split(const std::string& line, char sep) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (size_t tab; (tab = line.find(sep, start)) != std::string::npos; start = tab + 1) {
    fields.push_back(line.substr(start, tab - start));
  }
  fields.push_back(line.substr(start));
  return fields;
}

bool DecodeHex(const std::string& hex, std::string* out) {
  out->clear();
  if (hex == "-") return true;
  if (hex.size() % 2 != 0) return false;
  for (size_t i = 0; i < hex.size(); i += 2) {
    unsigned byte = 0;
    if (std::sscanf(hex.c_str() + i, "%2x", &byte) != 1) return false;
    out->push_back(static_cast<char>(byte));
  }
  return true;
}

struct HashVector {
  uint64_t seed;
  std::string input;
  uint64_t expected;
};

struct FingerprintVector {
  std::string label, options, result;
  uint32_t features, occurrences, invalid_utf8;
  std::string input;  // repeated as the file says
};

struct Vectors {
  int profile = -1;
  std::vector<HashVector> hashes;
  std::vector<FingerprintVector> fingerprints;
};

std::string VectorsPath(int version = kDefaultFingerprintProfileVersion) {
  return kSourceDir + "/tests/golden/fingerprints_v" + std::to_string(version) + ".tsv";
}

// The vectors of a profile version; a test failure (and empty vectors) if
// the file is missing or malformed.
Vectors* ReadVectors(int version) {
  auto* v = new Vectors;
  const std::string path = VectorsPath(version);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "no golden vectors for profile version " << version << ": " << path
                  << " is missing (make them with tests/golden/make_golden.py vectors)";
    return v;
  }
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = Split(line, '\t');
    bool ok = false;
    if (f[0] == "profile" && f.size() == 2) {
      v->profile = std::stoi(f[1]);
      ok = true;
    } else if (f[0] == "hash" && f.size() == 4) {
      HashVector h;
      h.seed = std::stoull(f[1]);
      h.expected = std::stoull(f[3], nullptr, 16);
      ok = DecodeHex(f[2], &h.input);
      v->hashes.push_back(h);
    } else if (f[0] == "fingerprint" && f.size() == 10) {
      FingerprintVector fp;
      fp.label = f[1];
      fp.options = f[2];
      fp.result = f[3];
      fp.features = static_cast<uint32_t>(std::stoul(f[4]));
      fp.occurrences = static_cast<uint32_t>(std::stoul(f[5]));
      fp.invalid_utf8 = static_cast<uint32_t>(std::stoul(f[6]));
      std::string once;
      ok = DecodeHex(f[8], &once);
      for (unsigned long r = std::stoul(f[7]); r > 0; --r) fp.input += once;
      v->fingerprints.push_back(std::move(fp));
    }
    if (!ok) {
      ADD_FAILURE() << path << ":" << line_no << ": malformed row";
      return new Vectors;
    }
  }
  return v;
}

// The vectors for the current profile version.
const Vectors& LoadVectors() {
  static const Vectors* vectors = ReadVectors(kDefaultFingerprintProfileVersion);
  return *vectors;
}

// The options column: "-", or key=value items (make_golden.py's Options).
FingerprintOptions ParseOptions(const std::string& spec) {
  FingerprintOptions o;
  if (spec == "-") return o;
  bool tf_idf = false;
  for (const std::string& item : Split(spec, ' ')) {
    const std::vector<std::string> kv = Split(item, '=');
    EXPECT_EQ(kv.size(), 2u) << item;
    if (kv.size() != 2) continue;
    const std::string& key = kv[0];
    const std::string& value = kv[1];
    if (key == "tokenizer" && value == "words") {
      o.tokenizer = Tokenizer::kWords;
    } else if (key == "tokenizer" && value == "chars") {
      o.tokenizer = Tokenizer::kCharNgrams;
    } else if (key == "tokenizer" && value == "word-ngrams") {
      o.tokenizer = Tokenizer::kWordNgrams;
    } else if (key == "ngram") {
      o.ngram = std::stoi(value);
    } else if (key == "stop-words" && value == "none") {
      o.stop_words.clear();
    } else if (key == "stop-words" && value == "default") {
      o.stop_words = DefaultStopWords();
    } else if (key == "normalize" && (value == "yes" || value == "no")) {
      o.normalize = value == "yes";
    } else if (key == "clean-text" && (value == "yes" || value == "no")) {
      o.clean_text = value == "yes";
    } else if (key == "cap-numbers" && (value == "yes" || value == "no")) {
      o.cap_numbers = value == "yes";
    } else if (key == "weighting" && value == "tf") {
      o.weighting = Weighting::kTermFrequency;
    } else if (key == "weighting" && value == "binary") {
      o.weighting = Weighting::kBinary;
    } else if (key == "weighting" && value == "log-tf") {
      o.weighting = Weighting::kLogTf;
    } else if (key == "weighting" && value == "tf-idf") {
      o.weighting = Weighting::kTfIdf;
      tf_idf = true;
    } else if (key == "max-share") {
      o.max_share = std::stod(value);
    } else if (key == "seed") {
      o.seed = std::stoull(value);
    } else {
      ADD_FAILURE() << "unknown option " << item;
    }
  }
  if (tf_idf) {  // the idf terms are normalized as the text is
    auto idf = std::make_shared<IdfTable>();
    const Status s = IdfTable::Load(kSourceDir + "/tests/golden/idf.tsv", o.normalize, idf.get());
    EXPECT_TRUE(s.ok()) << s.ToString();
    o.idf = std::move(idf);
  }
  return o;
}

std::string ResultString(const FingerprintResult& r) {
  return r.empty() ? EmptyReasonName(r.reason) : FormatHexFingerprint(r.fingerprint);
}

TEST(GoldenFingerprints, VectorsFileIsForTheCurrentProfileVersion) {
  const Vectors& v = LoadVectors();
  EXPECT_EQ(v.profile, kDefaultFingerprintProfileVersion) << VectorsPath();
  EXPECT_GE(v.fingerprints.size(), 200u);
  EXPECT_GE(v.hashes.size(), 40u);
}

TEST(GoldenFingerprints, ProfileVersionIsTheNewestChangelogEntry) {
  const std::string doc = ReadFile(kSourceDir + "/docs/fingerprint.md");
  const size_t section = doc.find("\n## Changelog of the defaults\n");
  ASSERT_NE(section, std::string::npos) << "docs/fingerprint.md has no changelog section";
  // Entries are "- N (...)" or "- N:" lines; the section ends at the next heading.
  const size_t end = doc.find("\n## ", section + 1);
  const std::string changelog = doc.substr(section, end == std::string::npos ? std::string::npos : end - section);
  const std::regex entry(R"(\n- (\d+)[ :])");
  int newest = -1, entries = 0;
  for (std::sregex_iterator it(changelog.begin(), changelog.end(), entry), last; it != last; ++it) {
    newest = std::max(newest, std::stoi((*it)[1]));
    ++entries;
  }
  EXPECT_GE(entries, 2);
  EXPECT_EQ(newest, kDefaultFingerprintProfileVersion)
      << "the newest entry of docs/fingerprint.md's changelog and kDefaultFingerprintProfileVersion disagree";
}

// Checks every fingerprint vector of profile version `profile` against the
// engine, with what later versions changed turned off (below 4 the share cap,
// below 3 the text fixes too); returns how many option sets were used.
size_t ExpectEngineReproduces(const std::vector<FingerprintVector>& vectors,
                              int profile = kDefaultFingerprintProfileVersion) {
  std::map<std::string, std::unique_ptr<Fingerprinter>> by_options;
  for (const FingerprintVector& fp : vectors) {
    std::unique_ptr<Fingerprinter>& fingerprinter = by_options[fp.options];
    if (!fingerprinter) {
      FingerprintOptions o = ParseOptions(fp.options);
      if (profile < 4) o.max_share = 0;
      if (profile < 3) o.clean_text = o.cap_numbers = false;
      EXPECT_TRUE(Fingerprinter::Create(o, &fingerprinter).ok()) << fp.options;
      if (!fingerprinter) return by_options.size();
    }
    const FingerprintResult r = fingerprinter->Fingerprint(fp.input);
    const std::string where = fp.label + " [" + fp.options + "]";
    EXPECT_EQ(ResultString(r), fp.result) << where;
    EXPECT_EQ(r.features, fp.features) << where;
    EXPECT_EQ(r.occurrences, fp.occurrences) << where;
    EXPECT_EQ(r.invalid_utf8, fp.invalid_utf8) << where;
  }
  return by_options.size();
}

TEST(GoldenFingerprints, EngineReproducesEveryVector) {
  EXPECT_EQ(ExpectEngineReproduces(LoadVectors().fingerprints), 22u);
}

// Profile 3's vectors (fingerprints_v3.tsv) are what every option gives with
// the share cap of version 4 off: fingerprints made under version 3 can be
// made again (`--max-share 0`), and their profiles are read as version 4's
// of the same options (include/simdex/profile.h).
TEST(GoldenFingerprints, ProfileThreeVectorsHoldWithoutTheShareCap) {
  std::unique_ptr<Vectors> v3(ReadVectors(3));
  EXPECT_EQ(v3->profile, 3);
  ASSERT_GE(v3->fingerprints.size(), 400u);
  EXPECT_EQ(ExpectEngineReproduces(v3->fingerprints, 3), 20u);
}

// Profile 2's vectors (fingerprints_v2.tsv, made by make_golden.py before
// version 3) are what every option gives with the version 3 text fixes off:
// fingerprints made under version 2 can be made again.
TEST(GoldenFingerprints, ProfileTwoVectorsHoldWithTheTextFixesOff) {
  std::unique_ptr<Vectors> v2(ReadVectors(2));
  EXPECT_EQ(v2->profile, 2);
  ASSERT_GE(v2->fingerprints.size(), 400u);
  EXPECT_EQ(ExpectEngineReproduces(v2->fingerprints, 2), 17u);
}

TEST(GoldenFingerprints, DefaultOptionsAreTheProfile) {
  // The "-" rows use FingerprintOptions(); spelling every default out must
  // give the same fingerprints, or a default moved.
  const FingerprintOptions spelled = ParseOptions(
      "tokenizer=words ngram=3 stop-words=default weighting=tf seed=0 clean-text=yes cap-numbers=yes max-share=0.1");
  std::unique_ptr<Fingerprinter> fingerprinter;
  ASSERT_TRUE(Fingerprinter::Create(spelled, &fingerprinter).ok());
  EXPECT_TRUE(fingerprinter->options().normalize);
  EXPECT_EQ(fingerprinter->options().compat, Compat::kNone);
  int rows = 0;
  for (const FingerprintVector& fp : LoadVectors().fingerprints) {
    if (fp.options != "-") continue;
    EXPECT_EQ(ResultString(fingerprinter->Fingerprint(fp.input)), fp.result) << fp.label;
    ++rows;
  }
  EXPECT_GE(rows, 50);
}

TEST(GoldenFingerprints, HashFeatureIsXxh3OfTheBytes) {
  const Vectors& v = LoadVectors();
  for (const HashVector& h : v.hashes) {
    FingerprintOptions o;
    o.seed = h.seed;
    std::unique_ptr<Fingerprinter> fingerprinter;
    ASSERT_TRUE(Fingerprinter::Create(o, &fingerprinter).ok());
    EXPECT_EQ(FormatHexFingerprint(fingerprinter->HashFeature(h.input)), FormatHexFingerprint(h.expected))
        << "seed " << h.seed << ", " << h.input.size() << " bytes";
  }
  // `printf the | xxhsum -H3` prints cb1283631cf33d7d (docs/fingerprint.md).
  std::unique_ptr<Fingerprinter> fingerprinter;
  ASSERT_TRUE(Fingerprinter::Create(FingerprintOptions(), &fingerprinter).ok());
  EXPECT_EQ(fingerprinter->HashFeature("the"), 0xcb1283631cf33d7dULL);
}

std::vector<std::string> ReferenceList(const std::string& name) {
  std::vector<std::string> words;
  std::ifstream in(kSourceDir + "/tests/golden/" + name);
  EXPECT_TRUE(in.good()) << name;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') words.push_back(line);
  }
  return words;
}

TEST(GoldenFingerprints, ReferenceStopWordsAreTheBuiltinLists) {
  const std::vector<std::string> en = ReferenceList("stop_words_en.txt");
  const std::vector<std::string> zh = ReferenceList("stop_words_zh.txt");
  EXPECT_EQ(en.size(), 128u);
  EXPECT_EQ(zh.size(), 75u);
  EXPECT_EQ(BuiltinStopWords("en"), en);
  EXPECT_EQ(BuiltinStopWords("zh"), zh);
  std::vector<std::string> both = en;
  both.insert(both.end(), zh.begin(), zh.end());
  EXPECT_EQ(DefaultStopWords(), both);
  EXPECT_EQ(FingerprintOptions().stop_words, both);
}

// Runs `simdex fingerprint FLAGS` on the rows with OPTIONS that fit on one
// line of a plain-text input (no CR or LF), one document per line.
void ExpectCliPrintsTheVectors(const std::string& options, const std::string& flags) {
  std::vector<const FingerprintVector*> rows;
  std::string input;
  for (const FingerprintVector& fp : LoadVectors().fingerprints) {
    if (fp.options != options || fp.input.find_first_of("\r\n") != std::string::npos) continue;
    rows.push_back(&fp);
    input += fp.input + "\n";
  }
  ASSERT_GE(rows.size(), 15u) << options;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("simdex_golden_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string docs = (dir / "docs.txt").string(), out = (dir / "out.txt").string();
  const std::string err_path = (dir / "err.txt").string();
  std::ofstream(docs, std::ios::binary) << input;
  const std::string cmd = std::string(SIMDEX_BINARY_DIR) + "/bin/simdex fingerprint -q --threads 2 " + flags +
                          " " + docs + " -o " + out + " 2>" + err_path;
  const int status = std::system(cmd.c_str());
  std::string printed = ReadFile(out);
  const std::string err = ReadFile(err_path);
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd << "\n" << err;
  // The file starts with its profile line (docs/fingerprint.md, "Profiles"),
  // of this profile version; the default options' is the library's.
  const size_t first = printed.find('\n');
  ASSERT_NE(first, std::string::npos) << cmd;
  const std::string profile_line = printed.substr(0, first);
  const std::string version = "simdex-fp/" + std::to_string(kDefaultFingerprintProfileVersion) + " ";
  EXPECT_EQ(profile_line.rfind("#simdex-profile\t" + version, 0), 0u) << cmd << "\n" << profile_line;
  if (flags.empty()) {
    std::string profile;
    ASSERT_TRUE(FingerprintProfile(FingerprintOptions(), &profile).ok());
    EXPECT_EQ(profile_line, "#simdex-profile\t" + profile);
  }
  printed.erase(0, first + 1);
  std::string expected;
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string& result = rows[i]->result;
    expected += std::to_string(i + 1) + "\t" + (result.size() == 16 ? result : "-\t" + result) + "\n";
  }
  EXPECT_EQ(printed, expected) << cmd;
}

TEST(GoldenFingerprints, CliPrintsTheVectorsWithDefaultOptions) { ExpectCliPrintsTheVectors("-", ""); }

TEST(GoldenFingerprints, CliPrintsTheVectorsWithOtherOptions) {
  ExpectCliPrintsTheVectors("stop-words=none", "--no-stop-words");
  ExpectCliPrintsTheVectors("tokenizer=chars", "--tokenizer char-ngrams");
  ExpectCliPrintsTheVectors("tokenizer=word-ngrams ngram=2", "--tokenizer word-ngrams --ngram 2");
  ExpectCliPrintsTheVectors("seed=18446744073709551615", "--seed 18446744073709551615");
  ExpectCliPrintsTheVectors("normalize=no", "--no-normalize");
  ExpectCliPrintsTheVectors("clean-text=no cap-numbers=no", "--no-clean-text --no-cap-numbers");
  ExpectCliPrintsTheVectors("weighting=log-tf", "--weighting log-tf");
  ExpectCliPrintsTheVectors("max-share=0", "--max-share 0");
  ExpectCliPrintsTheVectors("weighting=log-tf max-share=0.05", "--weighting log-tf --max-share 0.05");
  const std::string idf = kSourceDir + "/tests/golden/idf.tsv";
  ExpectCliPrintsTheVectors("weighting=tf-idf", "--weighting tf-idf --idf " + idf);
  ExpectCliPrintsTheVectors("weighting=tf-idf normalize=no", "--weighting tf-idf --idf " + idf + " --no-normalize");
}

// A JSON string of valid UTF-8 text.
std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

TEST(GoldenFingerprints, CliTakesIdsFromTheIdFieldOfJsonLines) {
  // `--id-field key --text-field body`: each line's id is its "key", its text
  // "body"; the default fields (id, text) hold decoys.
  std::string input, expected;
  uint64_t key = 1000;
  for (const FingerprintVector& fp : LoadVectors().fingerprints) {
    if (fp.options != "-" || fp.invalid_utf8 != 0 || fp.input.size() > 4096) continue;
    key += 7;
    input += "{\"id\":" + std::to_string(key + 1) + ",\"text\":\"decoy\",\"key\":" + std::to_string(key) +
             ",\"body\":" + JsonString(fp.input) + "}\n";
    expected += std::to_string(key) + "\t" + (fp.result.size() == 16 ? fp.result : "-\t" + fp.result) + "\n";
  }
  ASSERT_GE(key, 1000u + 7 * 40);
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("simdex_golden_ids_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string docs = (dir / "docs.jsonl").string(), out = (dir / "out.txt").string();
  std::ofstream(docs, std::ios::binary) << input;
  const std::string cmd = std::string(SIMDEX_BINARY_DIR) +
                          "/bin/simdex fingerprint -q --id-field key --text-field body " + docs + " -o " + out;
  const int status = std::system(cmd.c_str());
  const std::string printed = ReadFile(out);
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd;
  std::string profile;
  ASSERT_TRUE(FingerprintProfile(FingerprintOptions(), &profile).ok());
  EXPECT_EQ(printed, "#simdex-profile\t" + profile + "\n" + expected);
}

}  // namespace
}  // namespace simdex
