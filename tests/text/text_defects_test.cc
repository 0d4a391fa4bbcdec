// The text defects of issue 20 (docs/generated/quality-defects.md), each on small texts
// modelled on the real pairs that showed it, at the default options: URLs,
// e-mail addresses, percent-escapes, markup and number lists must not make a
// fingerprint of their pieces. Each test failed on profile 2's pipeline.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "simdex/fingerprint.h"

namespace simdex {
namespace {

std::unique_ptr<Fingerprinter> Defaults() {
  std::unique_ptr<Fingerprinter> fp;
  Status s = Fingerprinter::Create(FingerprintOptions(), &fp);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return fp;
}

uint64_t Print(Fingerprinter* fp, const std::string& text) {
  FingerprintResult r = fp->Fingerprint(text);
  EXPECT_FALSE(r.empty()) << text.substr(0, 80);
  return r.fingerprint;
}

int Distance(Fingerprinter* fp, const std::string& a, const std::string& b) {
  return HammingDistance(Print(fp, a), Print(fp, b));
}

std::vector<WeightedFeature> Features(Fingerprinter* fp, const std::string& text) {
  std::vector<WeightedFeature> features;
  fp->ExtractFeatures(text, &features);
  return features;
}

bool Has(const std::vector<WeightedFeature>& features, const std::string& text) {
  return std::any_of(features.begin(), features.end(), [&](const auto& f) { return f.text == text; });
}

double WeightOf(const std::vector<WeightedFeature>& features, const std::string& text) {
  for (const auto& f : features) {
    if (f.text == text) return f.weight;
  }
  return 0;
}

// 240 distinct made-up words, so that texts built from them share nothing.
std::string Word(int i) {
  static const char* const kSyllables[] = {"ka", "lo", "mi", "ru", "te", "sa", "po", "ni", "vu", "de",
                                           "go", "ba", "zi", "fe", "xo", "ju"};
  return std::string(kSyllables[i % 16]) + kSyllables[(i / 16) % 16] + kSyllables[(i * 7 + 3) % 16];
}

// The shop page and the link list of issue 20: an 11k-character page and a
// 163k-character list of links to other sites came out 2 bits apart (Jaccard
// 0.00), both made of the pieces every URL repeats (scheme, www, com, query
// parameters), not of what the links point to.
TEST(TextDefects, ShopPageAndUnrelatedLinkListAreFarApart) {
  const std::string tracking = "?utm_source=newsletter&utm_medium=email&utm_campaign=spring";
  std::string shop;
  for (int i = 0; i < 100; ++i) shop += Word(i % 60) + (i % 12 == 11 ? ".\n" : " ");
  for (int i = 0; i < 150; ++i) shop += "https://www.shop.com/" + Word(i % 50) + tracking + "\n";
  std::string links;
  for (int i = 0; i < 2000; ++i) {
    links += "https://" + Word(100 + i % 120) + ".org/" + Word(200 + i % 40) + "/" + tracking + "\n";
  }
  auto fp = Defaults();
  EXPECT_GT(Distance(fp.get(), shop, links), 12);
}

TEST(TextDefects, UrlBecomesItsHostAndPathWords) {
  auto fp = Defaults();
  auto f = Features(fp.get(), "Download https://www.example.com/pub/tools?id=42#top now");
  EXPECT_TRUE(Has(f, "example"));
  EXPECT_TRUE(Has(f, "pub"));
  EXPECT_TRUE(Has(f, "tools"));
  for (const char* piece : {"https", "www", "com", "www.example.com", "id", "42", "top"}) {
    EXPECT_FALSE(Has(f, piece)) << piece;
  }
  // The same link without scheme, with www. only, or with other letter case.
  EXPECT_EQ(Print(fp.get(), "Download https://www.example.com/pub/tools now"),
            Print(fp.get(), "Download www.example.com/pub/tools now"));
  EXPECT_EQ(Print(fp.get(), "Download http://example.org/pub/tools/ now"),
            Print(fp.get(), "Download www.example.com/pub/tools now"));
}

// Translators' addresses (`Helge Kreutzmann <debian@helgefjell.de>`) and
// addresses with digits and dashes were cut into pieces such as `1@mail`.
TEST(TextDefects, EmailAddressIsOneFeature) {
  auto fp = Defaults();
  auto f = Features(fp.get(), "Write to john.doe-1@mail-server.co.uk today");
  EXPECT_EQ(f.size(), 3u);  // write, the address, today ("to" is a stop word)
  EXPECT_TRUE(Has(f, "john_doe_1@mail_server_co_uk"));
  EXPECT_FALSE(Has(f, "1@mail"));
  EXPECT_FALSE(Has(f, "server.co.uk"));
}

TEST(TextDefects, PercentEscapesAreDecoded) {
  auto fp = Defaults();
  EXPECT_EQ(Print(fp.get(), "%62a%6e%61%6e%61 split"), Print(fp.get(), "banana split"));
  EXPECT_EQ(Print(fp.get(), "caf%C3%A9%20cr%C3%A8me"), Print(fp.get(), "café crème"));
  auto f = Features(fp.get(), "%e4%b8%ad%e6%96%87%E6%96%87%E6%A1%A3");
  EXPECT_FALSE(Has(f, "e4"));
  EXPECT_FALSE(Has(f, "b8"));
}

TEST(TextDefects, MarkupIsRemovedAndReferencesDecoded) {
  auto fp = Defaults();
  const std::string text = "Hello world, this is the café page — naïve readers welcome.";
  const std::string page =
      "<!DOCTYPE html><html><head><style>body { color: red; }</style>"
      "<script type=\"text/javascript\">var span = 1; if (a < b) { go(); }</script></head>"
      "<body><!-- navigation --><p class=\"lead\" id=\"x\">Hello <b>world</b>, this is the "
      "caf&eacute; page &#8212; na&#xEF;ve readers welcome.</p><br/></body></html>";
  EXPECT_EQ(Print(fp.get(), page), Print(fp.get(), text));
}

// The Python documentation's pages: unrelated texts, both more than half
// `span` and `class` from syntax highlighting, came out 0 bits apart.
TEST(TextDefects, HighlightedCodePagesOfUnrelatedTextsAreFarApart) {
  auto page = [](int first) {
    std::string html = "<html><body><div class=\"body\" role=\"main\">";
    for (int i = 0; i < 150; ++i) {
      html += "<span class=\"n\">" + Word(first + i % 50) + "</span><span class=\"p\">(</span>";
      if (i % 10 == 9) html += "</pre></div><div class=\"highlight\"><pre>";
    }
    return html + "</div></body></html>";
  };
  auto fp = Defaults();
  EXPECT_GT(Distance(fp.get(), page(0), page(120)), 12);
}

// Every "SEE ALSO" list (`cmp(1), comm(1), diff3(1)`) got the fingerprint of
// its section number: the (1) outweighed each name.
TEST(TextDefects, SeeAlsoListIsNotItsSectionNumber) {
  auto fp = Defaults();
  const std::string see_also = "cmp(1), comm(1), diff3(1), sdiff(1), patch(1), wdiff(1), merge(1), kompare(1)";
  EXPECT_GT(Distance(fp.get(), see_also, "1"), 12);
  auto f = Features(fp.get(), see_also);
  EXPECT_TRUE(Has(f, "1"));  // kept as evidence, counted once
  EXPECT_EQ(WeightOf(f, "1"), 1.0);
  EXPECT_EQ(WeightOf(f, "cmp"), 1.0);
}

// manpages-dev's undocumented.3 (`3` 136 times) and libvformat-dev's
// vf_create_object.3 (`3` 35 times): Jaccard 0.00, 0 bits apart.
TEST(TextDefects, ManPagesSharingOnlyTheirSectionNumberAreFarApart) {
  std::string a = "undocumented undocumented library functions ";
  for (int i = 0; i < 136; ++i) a += Word(i % 40) + "(3), ";
  std::string b = "vf_create_object create a new object ";
  for (int i = 0; i < 35; ++i) b += Word(120 + i) + "(3) ";
  auto fp = Defaults();
  EXPECT_GT(Distance(fp.get(), a, b), 12);
}

TEST(TextDefects, NumbersStillTellTextsApart) {
  auto fp = Defaults();
  const std::string a = "release 2023 notes";
  const std::string b = "release 2024 notes";
  EXPECT_NE(Print(fp.get(), a), Print(fp.get(), b));
  // A text of numbers alone still gets a fingerprint.
  EXPECT_FALSE(fp->Fingerprint("1 2 3 4 5 6 1 1").empty());
}

}  // namespace
}  // namespace simdex
