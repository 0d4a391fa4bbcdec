// The cleaning passes of docs/fingerprint.md's step 0, one rule at a time,
// and the whole cleaner on random bytes (never longer, never a crash).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "engine/text/text_cleaner.h"

namespace simdex::text {
namespace {

// One pass applied to a text.
template <CleanerPass kPass>
std::string Apply(const std::string& in) {
  std::string out;
  ApplyPass(kPass, in, &out);
  return out;
}
constexpr auto Markup = Apply<CleanerPass::kRemoveMarkup>;
constexpr auto References = Apply<CleanerPass::kDecodeCharacterReferences>;
constexpr auto Percent = Apply<CleanerPass::kDecodePercentEscapes>;
constexpr auto Links = Apply<CleanerPass::kRewriteLinks>;

TEST(TextCleaner, TagsCommentsScriptsAndStylesBecomeOneSpace) {
  EXPECT_EQ(Markup("<p class=\"a\">Hi <b>you</b></p>"), " Hi  you  ");
  EXPECT_EQ(Markup("a<!-- x > y -->b"), "a b");
  EXPECT_EQ(Markup("a<SCRIPT type=x>if (a<b) go();</script >b"), "a b");
  EXPECT_EQ(Markup("a<style>p{}</STYLE>b<style>never closed"), "a b ");
  EXPECT_EQ(Markup("<!DOCTYPE html><?xml version=\"1.0\"?><xsl:if test=\"x\"/>"), "   ");
  EXPECT_EQ(Markup("a<!-- never closed <p>"), "a ");
}

TEST(TextCleaner, LessThanThatIsNoTagStaysText) {
  EXPECT_EQ(Markup("if (a<b && c) x"), "if (a<b && c) x");  // no '>' after
  EXPECT_EQ(Markup("#include <stdio.h>"), "#include <stdio.h>");
  EXPECT_EQ(Markup("Helge <debian@helgefjell.de>"), "Helge <debian@helgefjell.de>");
  EXPECT_EQ(Markup("< p> <1a> <"), "< p> <1a> <");
  EXPECT_EQ(Markup("<scripts>x"), " x");  // a tag named scripts, not a script element
}

TEST(TextCleaner, CharacterReferencesAreDecoded) {
  EXPECT_EQ(References("caf&eacute; &amp; &lt;b&gt; &#8212; &#x41;&#X42; &apos;"), "café & <b> — AB '");
  EXPECT_EQ(References("&amp;lt;"), "&lt;");
  EXPECT_EQ(References("&#0; &#xD800; &#x110000;|"), "     |");
  EXPECT_EQ(References("&foo; &Amp; &#12345678; &#x1234567; &#65 &a; &;"),
            "&foo; &Amp; &#12345678; &#x1234567; &#65 &a; &;");
  EXPECT_EQ(References("&nbsp;"), "\xC2\xA0");
}

TEST(TextCleaner, PercentEscapesAreDecodedOnlyToPrintableUtf8) {
  EXPECT_EQ(Percent("%62a%6E%61"), "bana");
  EXPECT_EQ(Percent("caf%C3%A9%20x"), "café x");
  EXPECT_EQ(Percent("%E4%B8 100% %0A %7F %zz %4"), "%E4%B8 100% %0A %7F %zz %4");
  EXPECT_EQ(Percent("%2541"), "%41");
}

TEST(TextCleaner, UrlsBecomeHostAndPathWords) {
  EXPECT_EQ(Links("see https://www.example.com/a/b.html?q=1#f."), "see  example  a b.html.");
  EXPECT_EQ(Links("http://u:p@Docs.Python.ORG:8080/3/x"), " Docs_Python  3 x");
  EXPECT_EQ(Links("(WWW.Debian-Handbook.info/get/)"), "( Debian_Handbook  get )");
  EXPECT_EQ(Links("file:///usr/doc localhost://x"), "   usr doc  x ");
  EXPECT_EQ(Links("x_http://a.b/ 1http://a.b/ www. www.x"), "x_http://a.b/ 1http://a.b/ www.  x ");
  EXPECT_EQ(Links("访问http://example.cn获取"), "访问 example 获取");
}

TEST(TextCleaner, EmailAddressesBecomeOneWord) {
  EXPECT_EQ(Links("<john.doe-1@mail-server.co.uk>"), "<john_doe_1@mail_server_co_uk>");
  EXPECT_EQ(Links("mailto:Me+x@ex.org. a@b x@y."), "mailto:Me_x@ex_org. a@b x@y.");
}

TEST(TextCleaner, TextWithNothingToCleanIsReturnedAsItIs) {
  TextCleaner cleaner;
  const std::string text = "Plain text: 100 % sure, a < b, mail at example dot org.";
  EXPECT_EQ(cleaner.Clean(text).data(), text.data());
}

TEST(TextCleaner, PassesRunInOrder) {
  TextCleaner cleaner;
  // The reference is decoded after the markup pass, so the decoded tag stays;
  // the escape is decoded before the links pass, so the URL's path is a word.
  EXPECT_EQ(cleaner.Clean("&lt;p&gt; <b>x</b> http://a.org/caf%C3%A9"), "<p>  x   a  café");
}

TEST(TextCleaner, RandomBytesNeverGrowAndNeverCrash) {
  static const char* const kPieces[] = {
      "<", ">", "</", "<!--", "-->", "<script", "</script>", "<style ", "<b>", "<p class=\"x\">", "&", "&#",
      "&#x", ";", "amp", "nbsp", "eacute", "65", "1F600", "%", "%4", "%41", "%C3%A9", "%E4", "://", "http",
      "www.", "ftp", "@", ".", "-", "_", "+", "a", "Z", "0", "9", " ", "\n", "/", "?", "#", ":", "\"", "'",
      ")", "\xC3", "\xA9", "\xE4\xB8\xAD", "\xFF", "\x80"};
  std::mt19937_64 rng(20);
  TextCleaner cleaner;
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const size_t pieces = rng() % 40;
    for (size_t i = 0; i < pieces; ++i) text += kPieces[rng() % std::size(kPieces)];
    const std::string cleaned(cleaner.Clean(text));
    EXPECT_LE(cleaned.size(), text.size()) << text;
    EXPECT_EQ(cleaned, Links(Percent(References(Markup(text))))) << text;
  }
}

}  // namespace
}  // namespace simdex::text
