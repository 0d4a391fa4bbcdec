// `simdex dedup --confirm/--k-short/--short-length/--clusters --snippet-words`,
// `simdex eval` (--bounds) and `simdex pairs --names` end to end, on the
// bundled labelled set tests/data/eval/edits.jsonl and on small hand-made
// inputs. The oracles are written here from the documentation: the accepted
// pairs and clusters by a scan of every pair with the similarities of
// include/simdex/confirm.h computed in this file (ICU's normalizer and word
// iterator, code point shingles, Levenshtein distance), never by the
// Confirmer under test; the eval counts by a scan of every labelled pair as
// include/simdex/eval.h defines them, never by Evaluate; the pairs and
// snippets by hand. The eval counts against the Jaccard truth (--truth
// jaccard) are held to the library's, whose own tests hold it to a scan.
#include <unicode/brkiter.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uscript.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/eval.h"
#include "simdex/fingerprint.h"
#include "tests/cli/cli_harness.h"

namespace simdex::clitest {
namespace {

const std::string kEdits = std::string(SIMDEX_SOURCE_DIR) + "/tests/data/eval/edits.jsonl";

uint32_t CodePoints(const std::string& text) {
  uint32_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// NFKC + case folding (ICU's NFKC_Casefold), as confirm.h says the measures
// see the texts.
icu::UnicodeString Normalized(const std::string& utf8) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfkc_cf = icu::Normalizer2::getNFKCCasefoldInstance(status);
  EXPECT_TRUE(U_SUCCESS(status));
  icu::UnicodeString out = nfkc_cf->normalize(icu::UnicodeString::fromUTF8(utf8), status);
  EXPECT_TRUE(U_SUCCESS(status));
  return out;
}

std::u32string CodePointsOf(const icu::UnicodeString& s) {
  std::u32string out;
  for (int32_t i = 0; i < s.length(); i = s.moveIndex32(i, 1)) out.push_back(static_cast<char32_t>(s.char32At(i)));
  return out;
}

// Shingles of n units; a text with fewer (but some) units is one shingle.
std::set<std::u32string> Shingles(const std::vector<std::u32string>& units, size_t n, char32_t joiner) {
  std::set<std::u32string> out;
  const size_t count = units.size() < n ? std::min<size_t>(units.size(), 1) : units.size() - n + 1;
  for (size_t i = 0; i < count; ++i) {
    std::u32string shingle;
    for (size_t j = i; j < std::min(i + n, units.size()); ++j) {
      if (j > i && joiner != 0) shingle.push_back(joiner);
      shingle += units[j];
    }
    out.insert(shingle);
  }
  return out;
}

// Letters, marks and numbers, one unit each.
std::vector<std::u32string> KeptCodePoints(const std::string& text) {
  std::vector<std::u32string> units;
  for (char32_t c : CodePointsOf(Normalized(text))) {
    if (U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_M_MASK | U_GC_N_MASK)) units.push_back(std::u32string(1, c));
  }
  return units;
}

// ICU words (root locale), segments whose rule status is not UBRK_WORD_NONE.
std::vector<std::u32string> Words(const std::string& text) {
  const icu::UnicodeString s = Normalized(text);
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<icu::BreakIterator> it(icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status));
  EXPECT_TRUE(U_SUCCESS(status));
  it->setText(s);
  std::vector<std::u32string> words;
  for (int32_t start = it->first(), end = it->next(); end != icu::BreakIterator::DONE; start = end, end = it->next()) {
    if (it->getRuleStatus() != UBRK_WORD_NONE) words.push_back(CodePointsOf(s.tempSubStringBetween(start, end)));
  }
  return words;
}

double Jaccard(const std::set<std::u32string>& a, const std::set<std::u32string>& b) {
  if (a.empty() && b.empty()) return 0;
  size_t common = 0;
  for (const auto& s : a) common += b.count(s);
  return static_cast<double>(common) / static_cast<double>(a.size() + b.size() - common);
}

// Normalized code points with every run of white space one space, none at
// either end.
std::u32string Collapsed(const std::string& text) {
  std::u32string out;
  bool space = false;
  for (char32_t c : CodePointsOf(Normalized(text))) {
    if (u_isUWhiteSpace(static_cast<UChar32>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(U' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

size_t Levenshtein(const std::u32string& a, const std::u32string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// Unicode's \w (UTS #18): what word-chars words are runs of.
bool WordChar(char32_t c) {
  const UChar32 u = static_cast<UChar32>(c);
  return u_hasBinaryProperty(u, UCHAR_ALPHABETIC) || (U_GET_GC_MASK(u) & (U_GC_M_MASK | U_GC_ND_MASK | U_GC_PC_MASK)) ||
         u_hasBinaryProperty(u, UCHAR_JOIN_CONTROL);
}

// The Jaccard truth's units (include/simdex/shingles.h, the default
// word-chars): the collapsed text's runs of word characters, or its code
// points without the spaces when letters of scripts written without spaces
// are at least half of the letter units.
std::vector<std::u32string> TruthUnits(const std::u32string& collapsed, bool* by_char_out) {
  size_t unspaced = 0, words = 0;
  bool in_word = false;
  for (char32_t c : collapsed) {
    UErrorCode status = U_ZERO_ERROR;
    const UScriptCode script = uscript_getScript(static_cast<UChar32>(c), &status);
    if (U_GET_GC_MASK(c) & U_GC_L_MASK) {
      if (script == USCRIPT_HAN || script == USCRIPT_HIRAGANA || script == USCRIPT_KATAKANA ||
          script == USCRIPT_THAI || script == USCRIPT_LAO || script == USCRIPT_KHMER ||
          script == USCRIPT_MYANMAR || script == USCRIPT_TIBETAN) {
        ++unspaced;
        in_word = false;
      } else if (!in_word) {
        ++words;
        in_word = true;
      }
    } else if (!(U_GET_GC_MASK(c) & U_GC_M_MASK)) {
      in_word = false;
    }
  }
  std::vector<std::u32string> units(1);
  const bool by_char = unspaced + words > 0 && 2 * unspaced >= unspaced + words;
  *by_char_out = by_char;
  for (char32_t c : collapsed) {
    if (by_char ? c == U' ' : !WordChar(c)) {
      if (!by_char && !units.back().empty()) units.emplace_back();
    } else if (by_char) {
      units.push_back(std::u32string(1, c));
    } else {
      units.back().push_back(c);
    }
  }
  if (by_char || units.back().empty()) units.erase(by_char ? units.begin() : units.end() - 1);
  return units;
}

// What confirm.h's measures compare, for one text.
struct Comparable {
  std::set<std::u32string> chars3;     // jaccard: code point 3-grams
  std::set<std::u32string> words2;     // jaccard-words: word 2-grams
  std::set<std::u32string> shingles5;  // jaccard-shingles: the truth's 5-shingles
  std::u32string collapsed;            // edit
};

Comparable ComparableOf(const std::string& text) {
  const std::u32string collapsed = Collapsed(text);
  bool by_char = false;
  const std::vector<std::u32string> units = TruthUnits(collapsed, &by_char);
  return {Shingles(KeptCodePoints(text), 3, 0), Shingles(Words(text), 2, U' '),
          Shingles(units, 5, by_char ? 0 : U' '), collapsed};
}

// The similarity confirm.h defines for a measure of this test's cases.
double Similarity(const std::string& measure, const Comparable& a, const Comparable& b) {
  if (measure == "jaccard") return Jaccard(a.chars3, b.chars3);
  if (measure == "jaccard-words") return Jaccard(a.words2, b.words2);
  if (measure == "jaccard-shingles") return Jaccard(a.shingles5, b.shingles5);
  EXPECT_EQ(measure, "edit");
  const size_t longer = std::max(a.collapsed.size(), b.collapsed.size());
  return longer == 0 ? 0
                     : 1.0 - static_cast<double>(Levenshtein(a.collapsed, b.collapsed)) / static_cast<double>(longer);
}

class QualityCli : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(ReadLabelledSet(kEdits, &docs_).ok());
    std::unique_ptr<Fingerprinter> f;
    ASSERT_TRUE(Fingerprinter::Create(FingerprintOptions(), &f).ok());
    for (const LabelledDocument& d : docs_) fps_.push_back(f->Fingerprint(d.text));
  }

  // The pairs `dedup --pairs` must write: within k (k_short when either text
  // is shorter than short_length code points) and, with a measure, of a
  // similarity >= threshold; and each document's representative (the first
  // of its component).
  void Oracle(int k, int k_short, uint32_t short_length, const std::string& measure, double threshold,
              std::string* pairs, std::vector<size_t>* rep) {
    const size_t n = docs_.size();
    if (!measure.empty() && comparable_.empty()) {
      for (const LabelledDocument& d : docs_) comparable_.push_back(ComparableOf(d.text));
    }
    rep->resize(n);
    for (size_t i = 0; i < n; ++i) (*rep)[i] = i;
    std::vector<std::pair<size_t, size_t>> accepted;
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = i + 1; j < n; ++j) {
        if (fps_[i].empty() || fps_[j].empty()) continue;
        const int d = HammingDistance(fps_[i].fingerprint, fps_[j].fingerprint);
        const bool is_short = CodePoints(docs_[i].text) < short_length || CodePoints(docs_[j].text) < short_length;
        if (d > (is_short ? k_short : k)) continue;
        const double similarity = measure.empty() ? -1 : Similarity(measure, comparable_[i], comparable_[j]);
        if (!measure.empty() && similarity < threshold) continue;
        accepted.emplace_back(i, j);
        *pairs += "{\"a\":\"" + docs_[i].id + "\",\"b\":\"" + docs_[j].id + "\",\"distance\":" + std::to_string(d);
        if (!measure.empty()) {  // --pairs gives the confirmer's similarity, as %.6g
          char text[32];
          std::snprintf(text, sizeof text, "%.6g", similarity);
          *pairs += std::string(",\"similarity\":") + text;
        }
        *pairs += "}\n";
      }
    }
    for (bool changed = true; changed;) {  // at most n rounds: each lowers some representative
      changed = false;
      for (auto [a, b] : accepted) {
        const size_t m = std::min((*rep)[a], (*rep)[b]);
        if ((*rep)[a] != m || (*rep)[b] != m) (*rep)[a] = (*rep)[b] = m, changed = true;
      }
    }
  }

  ScratchDir dir_;
  std::vector<LabelledDocument> docs_;
  std::vector<FingerprintResult> fps_;
  std::vector<Comparable> comparable_;
};

TEST_F(QualityCli, ConfirmedPairsAndClustersEqualTheOracle) {
  const struct {
    int k, k_short;
    uint32_t short_length;  // 0: the default (140) by leaving the flag out
    std::string spec;       // --confirm, "" for none
    const char* measure;
    double threshold;
  } cases[] = {{3, 10, 0, "jaccard:0.5", "jaccard", 0.5},
               {3, 8, 0, "edit:0.7", "edit", 0.7},
               {4, 12, 0, "jaccard-words:0.4", "jaccard-words", 0.4},
               {3, 10, 0, "jaccard-shingles:0.5", "jaccard-shingles", 0.5},
               {6, 10, 0, "jaccard-shingles5:0.8", "jaccard-shingles", 0.8},
               {3, 10, 0, "", "", 0},
               {3, 3, 0, "jaccard:0.6", "jaccard", 0.6},
               {2, 9, 400, "", "", 0},
               {3, 10, 60, "jaccard:0.5", "jaccard", 0.5}};
  int confirmed_cases_with_rejections = 0;
  for (const auto& c : cases) {
    const std::string& spec = c.spec;
    std::vector<std::string> args = {"dedup", "--method", "simhash", "--quiet", "--text-field", "text", "--k", std::to_string(c.k),
                                     "--k-short", std::to_string(c.k_short), "--pairs", dir_.File("pairs.jsonl"),
                                     "-o", dir_.File("out.jsonl"), kEdits};
    if (!spec.empty()) args.insert(args.end() - 1, {"--confirm", spec});
    if (c.short_length != 0) args.insert(args.end() - 1, {"--short-length", std::to_string(c.short_length)});
    const RunResult r = RunSimdex(dir_, args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string want_pairs, unconfirmed;
    std::vector<size_t> rep, unused;
    const uint32_t short_length = c.short_length != 0 ? c.short_length : 140;
    Oracle(c.k, c.k_short, short_length, c.measure, c.threshold, &want_pairs, &rep);
    Oracle(c.k, c.k_short, short_length, "", 0, &unconfirmed, &unused);
    confirmed_cases_with_rejections += want_pairs != unconfirmed;
    EXPECT_EQ(ReadFile(dir_.File("pairs.jsonl")), want_pairs) << spec << " k_short " << c.k_short;
    const std::vector<std::string> lines = Lines(ReadFile(dir_.File("out.jsonl")));
    ASSERT_EQ(lines.size(), docs_.size());
    for (size_t i = 0; i < docs_.size(); ++i) {
      const size_t to = rep[i];
      const std::string want = "{\"id\":\"" + docs_[i].id + "\",\"cluster\":\"" + docs_[to].id + "\",\"duplicate\":" +
                               (to != i ? "true" : "false") + ",\"distance\":" +
                               std::to_string(HammingDistance(fps_[i].fingerprint, fps_[to].fingerprint)) + "}";
      EXPECT_EQ(lines[i], want) << spec;
    }
  }
  EXPECT_GE(confirmed_cases_with_rejections, 3);  // the confirmation decides some pairs
}

TEST_F(QualityCli, ShingleConfirmationWithoutKTakesCandidatesWithinEightBits) {
  // --confirm jaccard-shingles without --k or --scheme confirms the pairs
  // within 8 bits; an explicit --k or --scheme, or another measure, keeps
  // its k (3 by default).
  const struct {
    std::vector<std::string> flags;
    int k;
    const char* measure;
    double threshold;
  } cases[] = {{{"--confirm", "jaccard-shingles:0.5"}, 8, "jaccard-shingles", 0.5},
               {{"--confirm", "jaccard-shingles5:0.5", "--k", "3"}, 3, "jaccard-shingles", 0.5},
               {{"--confirm", "jaccard-shingles:0.5", "--scheme", "t10"}, 3, "jaccard-shingles", 0.5},
               {{"--confirm", "jaccard:0.5"}, 3, "jaccard", 0.5}};
  std::string at3, at8;
  std::vector<size_t> unused;
  Oracle(3, 3, 140, "jaccard-shingles", 0.5, &at3, &unused);
  Oracle(8, 8, 140, "jaccard-shingles", 0.5, &at8, &unused);
  ASSERT_NE(at3, at8);  // what the test needs: pairs at 4-8 bits that the confirmation accepts
  for (const auto& c : cases) {
    std::vector<std::string> args = {"dedup", "--method", "simhash", "--quiet", "--pairs", dir_.File("pairs.jsonl"), "-o",
                                     dir_.File("out.jsonl")};
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    args.push_back(kEdits);
    const RunResult r = RunSimdex(dir_, args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string want;
    std::vector<size_t> rep;
    Oracle(c.k, c.k, 140, c.measure, c.threshold, &want, &rep);
    EXPECT_EQ(ReadFile(dir_.File("pairs.jsonl")), want) << c.flags[1] << " " << c.flags.size();
  }
}

TEST_F(QualityCli, ShingleConfirmationCountsIndexMatchesWithinThreeBits) {
  // An index (t10: it answers k <= 3) holding two unrelated documents'
  // fingerprints with 5 and 2 bits flipped. The batch's pairs are confirmed
  // within 8 bits, but index matches cannot be confirmed: only the one
  // within 3 counts, and the index is searched at 3, which t10 answers.
  ASSERT_FALSE(fps_[0].empty());
  size_t far = 1;
  while (far < fps_.size() && (fps_[far].empty() || HammingDistance(fps_[0].fingerprint, fps_[far].fingerprint) < 16)) {
    ++far;
  }
  ASSERT_LT(far, fps_.size());
  char line[64];
  std::string stored;
  std::snprintf(line, sizeof line, "1\t%016llx\n", static_cast<unsigned long long>(fps_[0].fingerprint ^ 0x1Full));
  stored += line;
  std::snprintf(line, sizeof line, "2\t%016llx\n", static_cast<unsigned long long>(fps_[far].fingerprint ^ 0x3ull));
  stored += line;
  WriteFile(dir_.File("stored.fp"), stored);
  ASSERT_EQ(RunSimdex(dir_, {"build", "--quiet", "--out", dir_.File("s.sdx"), dir_.File("stored.fp")}).exit_code, 0);
  const RunResult r = RunSimdex(dir_, {"dedup", "--method", "simhash", "--quiet", "--confirm", "jaccard-shingles:0.5", "--against",
                                       dir_.File("s.sdx"), "-o", dir_.File("out.jsonl"), kEdits});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = Lines(ReadFile(dir_.File("out.jsonl")));
  ASSERT_EQ(lines.size(), docs_.size());
  EXPECT_EQ(lines[0].find("\"against\""), std::string::npos) << lines[0];
  EXPECT_NE(lines[far].find("\"against\":{\"index\":\"" + dir_.File("s.sdx") + "\",\"id\":2,\"distance\":2}"),
            std::string::npos)
      << lines[far];
}

TEST_F(QualityCli, ShortLengthMovesTheBoundBetweenKAndKShort) {
  // Two pairs of near-copies (one word changed), of about 60 and 120 code
  // points: at --k 0 a pair counts only when one of its documents is shorter
  // than --short-length, so that --k-short applies.
  const std::vector<std::string> texts = {
      "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda",
      "alpha beta gamma delta epsilon zeta eta theta iota kappa omicron",
      "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen x",
      "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen y"};
  std::string input;
  for (size_t i = 0; i < texts.size(); ++i) {
    input += "{\"id\":" + std::to_string(i + 1) + ",\"text\":\"" + texts[i] + "\"}\n";
  }
  WriteFile(dir_.File("docs.jsonl"), input);
  std::unique_ptr<Fingerprinter> f;
  ASSERT_TRUE(Fingerprinter::Create(FingerprintOptions(), &f).ok());
  std::vector<uint64_t> fp;
  for (const std::string& text : texts) fp.push_back(f->Fingerprint(text).fingerprint);
  for (size_t pair : {0, 2}) {  // what the test needs: each pair within 1..15 bits
    const int d = HammingDistance(fp[pair], fp[pair + 1]);
    ASSERT_TRUE(d >= 1 && d <= 15) << "pair " << pair << ": distance " << d;
  }
  for (uint32_t short_length : {40u, 80u, 200u}) {
    const RunResult r = RunSimdex(dir_, {"dedup", "--method", "simhash", "--quiet", "--k", "0", "--k-short", "15", "--short-length",
                                         std::to_string(short_length), "--pairs", dir_.File("pairs.jsonl"), "-o",
                                         dir_.File("out.jsonl"), dir_.File("docs.jsonl")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string want;
    for (size_t i = 0; i < texts.size(); ++i) {
      for (size_t j = i + 1; j < texts.size(); ++j) {
        const int d = HammingDistance(fp[i], fp[j]);
        const bool is_short = std::min(CodePoints(texts[i]), CodePoints(texts[j])) < short_length;
        if (d > (is_short ? 15 : 0)) continue;
        want += "{\"a\":" + std::to_string(i + 1) + ",\"b\":" + std::to_string(j + 1) +
                ",\"distance\":" + std::to_string(d) + "}\n";
      }
    }
    EXPECT_EQ(std::count(want.begin(), want.end(), '\n'), short_length == 40 ? 0 : short_length == 80 ? 1 : 2);
    EXPECT_EQ(ReadFile(dir_.File("pairs.jsonl")), want) << "--short-length " << short_length;
  }
}

TEST_F(QualityCli, ClustersShowTheFirstSnippetWordsOfEachMember) {
  WriteFile(dir_.File("docs.jsonl"),
            "{\"id\":7,\"text\":\"  The  quick\\tbrown fox jumps over the lazy dog\"}\n"
            "{\"id\":8,\"text\":\"The quick brown fox jumps over the lazy dog\"}\n"
            "{\"id\":9,\"text\":\"something else entirely, with other words\"}\n");
  for (const char* words : {"1", "3", "20"}) {
    const RunResult r = RunSimdex(dir_, {"dedup", "--method", "simhash", "--quiet", "--clusters", dir_.File("clusters.jsonl"),
                                         "--snippet-words", words, "-o", dir_.File("out.jsonl"),
                                         dir_.File("docs.jsonl")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string snippet = std::string(words) == "1"   ? "The"
                                : std::string(words) == "3" ? "The quick brown"
                                                            : "The quick brown fox jumps over the lazy dog";
    EXPECT_EQ(ReadFile(dir_.File("clusters.jsonl")),
              "{\"cluster\":7,\"size\":2,\"members\":[{\"id\":7,\"distance\":0,\"representative\":true,\"text\":\"" +
                  snippet + "\"},{\"id\":8,\"distance\":0,\"text\":\"" + snippet + "\"}]}\n")
        << "--snippet-words " << words;
  }
}

TEST_F(QualityCli, SecondStageBadInputIsAUsageErrorWithNoOutput) {
  WriteFile(dir_.File("b.fp"), "1\t00000000000000ff\n");
  const std::vector<std::vector<std::string>> cases = {
      {"dedup", "--method", "simhash", "--confirm", "cosine:0.5", "-o", dir_.File("out.jsonl"), kEdits},
      {"dedup", "--method", "simhash", "--confirm", "jaccard:2", "-o", dir_.File("out.jsonl"), kEdits},
      {"dedup", "--method", "simhash", "--confirm", "jaccard:0.5", "-o", dir_.File("out.jsonl"), "-"},
      {"dedup", "--method", "simhash", "--k-short", "8", "-o", dir_.File("out.jsonl"), dir_.File("b.fp")},
      {"dedup", "--method", "simhash", "--k-short", "8", "--scheme", "t10", "-o", dir_.File("out.jsonl"), kEdits},
  };
  for (const auto& args : cases) {
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_EQ(r.exit_code, 2) << args[2] << " " << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_FALSE(FileExists(dir_.File("out.jsonl")));
  }
}

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// The bucket object `simdex eval` prints from "min_length" to the end of its
// k list, computed from every pair of the labelled set by eval.h's rules: a
// pair is positive iff both documents have the same cluster, a hard negative
// iff not and they share a non-empty topic; it is predicted at k iff both
// have a fingerprint within distance k; it belongs to the bucket of its
// shorter text's code points.
std::string ExpectedBucket(const std::vector<LabelledDocument>& docs, const std::vector<FingerprintResult>& fps,
                           uint32_t min_length, uint32_t max_length, int max_k) {
  uint64_t positives = 0, negatives = 0, hard = 0, positive_pairs = 0, negative_pairs = 0;
  double positive_sum = 0, negative_sum = 0;
  std::vector<uint64_t> tp(max_k + 1), fp(max_k + 1), hard_fp(max_k + 1);
  for (size_t i = 0; i < docs.size(); ++i) {
    for (size_t j = i + 1; j < docs.size(); ++j) {
      const uint32_t shorter = std::min(CodePoints(docs[i].text), CodePoints(docs[j].text));
      if (shorter < min_length || shorter >= max_length) continue;
      const bool positive = docs[i].cluster == docs[j].cluster;
      const bool is_hard = !positive && !docs[i].topic.empty() && docs[i].topic == docs[j].topic;
      (positive ? positives : negatives) += 1;
      hard += is_hard;
      if (fps[i].empty() || fps[j].empty()) continue;
      const int d = HammingDistance(fps[i].fingerprint, fps[j].fingerprint);
      (positive ? positive_sum : negative_sum) += d;
      (positive ? positive_pairs : negative_pairs) += 1;
      for (int k = d; k <= max_k; ++k) {
        (positive ? tp : fp)[k] += 1;
        hard_fp[k] += is_hard;
      }
    }
  }
  std::string out = "\"min_length\":" + std::to_string(min_length) + ",\"max_length\":" +
                    (max_length == UINT32_MAX ? "null" : std::to_string(max_length)) +
                    ",\"positives\":" + std::to_string(positives) + ",\"negatives\":" + std::to_string(negatives) +
                    ",\"hard_negatives\":" + std::to_string(hard) + ",\"mean_positive_distance\":" +
                    (positive_pairs ? Number(positive_sum / positive_pairs) : "null") +
                    ",\"mean_negative_distance\":" +
                    (negative_pairs ? Number(negative_sum / negative_pairs) : "null") +
                    ",\"confirm_calls\":0,\"confirmed\":0,\"k\":[";
  for (int k = 0; k <= max_k; ++k) {
    const double precision = tp[k] + fp[k] == 0 ? 1.0 : static_cast<double>(tp[k]) / (tp[k] + fp[k]);
    const double recall = positives == 0 ? 1.0 : static_cast<double>(tp[k]) / positives;
    const double f1 = precision + recall == 0 ? 0.0 : 2 * precision * recall / (precision + recall);
    if (k > 0) out += ",";
    out += "{\"k\":" + std::to_string(k) + ",\"tp\":" + std::to_string(tp[k]) + ",\"fp\":" + std::to_string(fp[k]) +
           ",\"fn\":" + std::to_string(positives - tp[k]) + ",\"hard_fp\":" + std::to_string(hard_fp[k]) +
           ",\"precision\":" + Number(precision) + ",\"recall\":" + Number(recall) + ",\"f1\":" + Number(f1) + "}";
  }
  return out + "]}";
}

TEST_F(QualityCli, EvalCountsEqualABruteForceOverEveryPair) {
  // Two configurations built here by hand, and buckets by --bounds: the
  // default bounds (140, 500) and three others.
  const struct {
    const char* config;
    std::vector<std::string> bounds_flag;
    std::vector<uint32_t> bounds;
  } cases[] = {{"words,tf,no-stop", {}, {140, 500}}, {"chars3,binary", {"--bounds", "100,300,1000"}, {100, 300, 1000}}};
  for (const auto& c : cases) {
    std::vector<std::string> args = {"eval", "--quiet", "--config", c.config, "--max-k", "4"};
    args.insert(args.end(), c.bounds_flag.begin(), c.bounds_flag.end());
    args.push_back(kEdits);
    const RunResult r = RunSimdex(dir_, args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::vector<std::string> lines = Lines(r.out);
    ASSERT_EQ(lines.size(), 1u) << r.out;
    FingerprintOptions options;  // words, tf, no stop words / char 3-grams, binary, default stop words
    if (std::string(c.config) == "words,tf,no-stop") {
      options.stop_words.clear();
    } else {
      options.tokenizer = Tokenizer::kCharNgrams;
      options.ngram = 3;
      options.weighting = Weighting::kBinary;
    }
    std::unique_ptr<Fingerprinter> f;
    ASSERT_TRUE(Fingerprinter::Create(options, &f).ok());
    std::vector<FingerprintResult> fps;
    for (const LabelledDocument& d : docs_) fps.push_back(f->Fingerprint(d.text));
    EXPECT_EQ(lines[0].find("{\"config\":\"" + std::string(c.config) + "\",\"confirm\":null,\"set\":\"" + kEdits +
                            "\",\"documents\":" + std::to_string(docs_.size()) + ",\"buckets\":[{\"bucket\":"),
              0u)
        << lines[0].substr(0, 200);
    std::vector<uint32_t> lower = {0};
    lower.insert(lower.end(), c.bounds.begin(), c.bounds.end());
    for (size_t b = 0; b < lower.size(); ++b) {
      const uint32_t upper = b + 1 < lower.size() ? lower[b + 1] : UINT32_MAX;
      const std::string want = ExpectedBucket(docs_, fps, lower[b], upper, 4);
      EXPECT_NE(lines[0].find(want), std::string::npos) << c.config << " bucket " << b << ": " << want;
    }
    // The last bucket, "all", sums them: every pair of the set.
    EXPECT_EQ(lines[0].substr(lines[0].rfind("{\"bucket\":")),
              "{\"bucket\":\"all\"," + ExpectedBucket(docs_, fps, 0, UINT32_MAX, 4) + "]}");
  }
}

TEST_F(QualityCli, EvalBadInputNamesFileAndLine) {
  WriteFile(dir_.File("bad.jsonl"), "{\"id\":\"a\",\"text\":\"x\",\"cluster\":\"c\"}\n{\"id\":\"b\"}\n");
  RunResult r = RunSimdex(dir_, {"eval", "-o", dir_.File("out.jsonl"), dir_.File("bad.jsonl")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("bad.jsonl:2: field 'text' is missing"), std::string::npos) << r.err;
  EXPECT_FALSE(FileExists(dir_.File("out.jsonl")));
  r = RunSimdex(dir_, {"eval", "--config", "words,idf", kEdits});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown option 'idf'"), std::string::npos) << r.err;
  r = RunSimdex(dir_, {"eval", "--bounds", "500,140", kEdits});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("bounds must increase"), std::string::npos) << r.err;
}

TEST_F(QualityCli, PairsNamesComeFromTheNamedFields) {
  // Ids 1..4: 1 and 2 one bit apart, 2 and 3 one bit, 1 and 3 two bits; 4
  // far away. Names from --names, keyed by "doc", named by "headline" (a tab
  // in a name becomes a space); id 3 has no name; the "id" and "title"
  // fields are decoys.
  WriteFile(dir_.File("fp.txt"), "1\t0000000000000000\n2\t0000000000000001\n3\t0000000000000003\n4\tffffffffffffffff\n");
  WriteFile(dir_.File("names.jsonl"),
            "{\"doc\":1,\"id\":2,\"headline\":\"One\\tfirst\",\"title\":\"decoy\"}\n"
            "{\"doc\":2,\"id\":1,\"headline\":\"Two\",\"title\":\"decoy\"}\n"
            "{\"doc\":4,\"id\":3,\"headline\":\"Four\",\"title\":\"decoy\"}\n");
  RunResult r = RunSimdex(dir_, {"pairs", "-k", "2", "--names", dir_.File("names.jsonl"), "--name-field", "headline",
                                 "--names-id-field", "doc", dir_.File("fp.txt")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "1\t1\t2\tOne first\tTwo\n1\t2\t3\tTwo\t\n2\t1\t3\tOne first\t\n");
  r = RunSimdex(dir_, {"pairs", "-k", "1", dir_.File("fp.txt")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "1\t1\t2\n1\t2\t3\n");
}

TEST_F(QualityCli, EvalJaccardTruthCountsEqualTheLibrarys) {
  // edits.jsonl's clusters are ignored: the truth is the shingles' Jaccard.
  const RunResult r = RunSimdex(dir_, {"eval", "--quiet", "--truth", "jaccard", "--config", "default", "--baseline",
                                       "--max-k", "4", "--list", dir_.File("pairs.jsonl"), kEdits});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 4u);  // the truth, the fingerprints, the baseline without and with its filter
  EXPECT_EQ(lines[0].rfind("{\"kind\":\"truth\"", 0), 0u) << lines[0];
  EXPECT_NE(lines[2].find("\"method\":\"minhash-lsh\",\"filter\":\"none\",\"num_perm\":128,\"bands\":9,"
                          "\"rows\":13"),
            std::string::npos)
      << lines[2];
  std::unique_ptr<ShingleMaker> maker;
  ASSERT_TRUE(ShingleMaker::Create(ShingleOptions(), &maker).ok());
  std::vector<std::vector<uint64_t>> sets(docs_.size());
  std::vector<std::string_view> texts;
  for (size_t i = 0; i < docs_.size(); ++i) {
    maker->Make(docs_[i].text, &sets[i]);
    texts.push_back(docs_[i].text);
  }
  std::vector<JaccardPair> truth;
  ASSERT_TRUE(FindJaccardPairs(sets, 0.2, &truth).ok());
  TruthOptions options;
  options.max_k = 4;
  options.list_negative_within = 3;
  options.list_positive_beyond = 12;
  std::vector<TruthBucket> buckets;
  std::vector<ListedPair> listed;
  ASSERT_TRUE(EvaluateAgainstTruth(texts, fps_, truth, options, &buckets, &listed).ok());
  for (const TruthBucket& b : buckets) {
    const size_t at = lines[1].find("{\"bucket\":\"" + b.name + "\"");
    ASSERT_NE(at, std::string::npos) << b.name;
    std::string want = "\"positives\":" + std::to_string(b.positives) + ",\"between\":" +
                       std::to_string(b.between) + ",\"negatives\":" + std::to_string(b.negatives);
    EXPECT_NE(lines[1].find(want, at), std::string::npos) << b.name << " " << want;
    // Strict first (every reported pair below --positive is false), then the
    // reported pairs in between, then lenient (those left out).
    want = "{\"k\":3,\"tp\":" + std::to_string(b.tp[3]) + ",\"fn\":" + std::to_string(b.positives - b.tp[3]) +
           ",\"strict_fp\":" + std::to_string(b.fp[3] + b.between_predicted[3]) + ",";
    EXPECT_NE(lines[1].find(want, at), std::string::npos) << b.name << " " << want;
    want = ",\"between\":" + std::to_string(b.between_predicted[3]) + ",\"lenient_fp\":" + std::to_string(b.fp[3]) + ",";
    EXPECT_NE(lines[1].find(want, at), std::string::npos) << b.name << " " << want;
  }
  EXPECT_EQ(Lines(ReadFile(dir_.File("pairs.jsonl"))).size(), listed.size());
}

// --seed picks the hash functions of the baseline and of simdex's
// MinHash-LSH (both records name it); the truth does not depend on it.
TEST_F(QualityCli, EvalSeedIsRecordedAndLeavesTheTruthAlone) {
  std::vector<std::string> outs;
  for (const char* seed : {"1", "7"}) {
    const RunResult r = RunSimdex(dir_, {"eval", "--quiet", "--truth", "jaccard", "--config", "default", "--baseline",
                                         "--minhash", "--seed", seed, kEdits});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::vector<std::string> lines = Lines(r.out);
    ASSERT_EQ(lines.size(), 8u);  // truth, fingerprints, baseline x 2, simdex minhash x 4
    for (size_t i = 2; i < lines.size(); ++i) {
      EXPECT_NE(lines[i].find(std::string(",\"seed\":") + seed + ","), std::string::npos) << lines[i];
    }
    outs.push_back(lines[0].substr(0, lines[0].find(",\"shingle_seconds\"")));  // less its times
  }
  EXPECT_EQ(outs[0], outs[1]);
}

// The --minhash row "default" scores what `simdex dedup` reports at its
// defaults (exact: candidates from the wider bands, each checked by its
// shingle Jaccard): the same number of pairs, none strictly false; the row
// "estimate" is --approximate's.
TEST_F(QualityCli, EvalMinHashDefaultRowIsWhatDedupReportsAtItsDefaults) {
  const RunResult r =
      RunSimdex(dir_, {"eval", "--quiet", "--truth", "jaccard", "--config", "default", "--minhash", kEdits});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto row = [&](const std::string& filter) {
    for (const std::string& line : Lines(r.out)) {
      if (line.find("\"kind\":\"minhash\"") != std::string::npos &&
          line.find("\"filter\":\"" + filter + "\"") != std::string::npos) {
        return line;
      }
    }
    return std::string();
  };
  auto kept = [](const std::string& line) {
    const size_t at = line.find("\"kept\":");
    return at == std::string::npos ? -1 : std::stoll(line.substr(at + 7));
  };
  const std::string exact = row("default"), approximate = row("estimate");
  ASSERT_FALSE(exact.empty()) << r.out;
  EXPECT_NE(exact.find("\"bands\":21,\"rows\":6,"), std::string::npos) << exact;
  EXPECT_NE(approximate.find("\"bands\":16,\"rows\":8,"), std::string::npos) << approximate;
  EXPECT_NE(exact.find("\"strict_fp\":0,"), std::string::npos) << exact;
  for (const std::vector<std::string>& mode : {std::vector<std::string>{}, {"--approximate"}}) {
    std::vector<std::string> args = {"dedup", "-q", "--method", "minhash", "-o", dir_.File("out.jsonl"),
                                     "--pairs", dir_.File("pairs.jsonl"), kEdits};
    args.insert(args.begin() + 1, mode.begin(), mode.end());
    const RunResult d = RunSimdex(dir_, args);
    ASSERT_EQ(d.exit_code, 0) << d.err;
    const long long pairs = static_cast<long long>(Lines(ReadFile(dir_.File("pairs.jsonl"))).size());
    EXPECT_EQ(pairs, kept(mode.empty() ? exact : approximate)) << (mode.empty() ? "exact" : "--approximate");
  }
}

TEST_F(QualityCli, EvalJaccardBadOptionsAreUsageErrorsWithNoOutput) {
  const std::vector<std::vector<std::string>> cases = {
      {"eval", "--truth", "jaccard", "--bands", "5", "-o", dir_.File("out.jsonl"), kEdits},
      {"eval", "--truth", "jaccard", "--bands", "20", "--rows", "10", "-o", dir_.File("out.jsonl"), kEdits},
      {"eval", "--truth", "jaccard", "--negative", "0.9", "-o", dir_.File("out.jsonl"), kEdits},
      {"eval", "--truth", "votes", "-o", dir_.File("out.jsonl"), kEdits},
      {"eval", "--baseline", "-o", dir_.File("out.jsonl"), kEdits},
  };
  for (const auto& args : cases) {
    const RunResult r = RunSimdex(dir_, args);
    EXPECT_EQ(r.exit_code, 2) << args[2] << " " << r.err;
    EXPECT_FALSE(FileExists(dir_.File("out.jsonl")));
  }
}

}  // namespace
}  // namespace simdex::clitest
