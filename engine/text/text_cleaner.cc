// The cleaning passes of docs/fingerprint.md, step 0. Each pass scans for its
// trigger byte with memchr and copies nothing until it first changes the text.
#include "engine/text/text_cleaner.h"

#include <algorithm>
#include <vector>

#include "engine/util/json_text.h"
#include "engine/util/utf.h"

namespace simdex::text {
namespace {

constexpr size_t kNone = std::string_view::npos;

inline bool IsAlpha(unsigned char c) { return static_cast<unsigned>((c | 32) - 'a') < 26u; }
inline bool IsDigit(unsigned char c) { return static_cast<unsigned>(c - '0') < 10u; }
inline bool IsAlnum(unsigned char c) { return IsAlpha(c) || IsDigit(c); }
inline int HexValue(unsigned char c) { return util::kHexValue[c] <= 0xf ? util::kHexValue[c] : -1; }

// True iff in[pos, pos + lower.size()) equals `lower` ignoring ASCII case.
bool StartsNoCase(std::string_view in, size_t pos, std::string_view lower) {
  if (in.size() - pos < lower.size()) return false;
  for (size_t k = 0; k < lower.size(); ++k) {
    unsigned char c = static_cast<unsigned char>(in[pos + k]);
    if ((IsAlpha(c) ? (c | 32) : c) != static_cast<unsigned char>(lower[k])) return false;
  }
  return true;
}

size_t FindNoCase(std::string_view in, size_t pos, std::string_view lower) {
  for (size_t p = in.find('<', pos); p != kNone; p = in.find('<', p + 1)) {
    if (StartsNoCase(in, p, lower)) return p;
  }
  return kNone;
}

// Collects the output of a pass: nothing is copied until the first change.
class Rewriter {
 public:
  Rewriter(std::string_view in, std::string* out) : in_(in), out_(out) {}
  // Replaces in[begin, end) with `with`. REQUIRES: begin >= the last end.
  void Replace(size_t begin, size_t end, std::string_view with) {
    if (!changed_) out_->clear();
    changed_ = true;
    out_->append(in_, copied_, begin - copied_);
    out_->append(with);
    copied_ = end;
  }
  // Returns whether anything changed; if so *out holds the whole result.
  bool Finish() {
    if (changed_) out_->append(in_, copied_);
    return changed_;
  }

 private:
  std::string_view in_;
  std::string* out_;
  size_t copied_ = 0;
  bool changed_ = false;
};

// --- pass 1: markup -------------------------------------------------------------------

// End of the markup that starts with the '<' at p, or 0 if none does.
// last_gt: the position of the text's last '>' (kNone if none).
size_t MarkupEnd(std::string_view in, size_t p, size_t last_gt) {
  const size_t n = in.size();
  if (in.compare(p, 4, "<!--") == 0) {
    size_t e = in.find("-->", p + 4);
    return e == kNone ? n : e + 3;
  }
  for (std::string_view name : {std::string_view("script"), std::string_view("style")}) {
    size_t q = p + 1 + name.size();
    if (q < n && StartsNoCase(in, p + 1, name) && (util::IsAsciiSpace(in[q]) || in[q] == '/' || in[q] == '>')) {
      std::string closing = "</" + std::string(name);
      size_t c = FindNoCase(in, q, closing);
      if (c == kNone) return n;
      size_t gt = in.find('>', c + closing.size());
      return gt == kNone ? n : gt + 1;
    }
  }
  size_t q = p + 1;
  if (q < n && (in[q] == '/' || in[q] == '!' || in[q] == '?')) ++q;
  if (q >= n || !IsAlpha(in[q])) return 0;
  for (++q; q < n && (IsAlnum(in[q]) || in[q] == ':' || in[q] == '_' || in[q] == '-');) ++q;
  if (q >= n || !(util::IsAsciiSpace(in[q]) || in[q] == '/' || in[q] == '>')) return 0;
  if (last_gt == kNone || last_gt < q) return 0;
  return in.find('>', q) + 1;
}

bool RemoveMarkupPass(std::string_view in, std::string* out, CleanerScratch*) {
  Rewriter w(in, out);
  size_t p = in.find('<');
  if (p == kNone) return false;
  const size_t last_gt = in.rfind('>');
  while (p != kNone) {
    size_t end = MarkupEnd(in, p, last_gt);
    if (end == 0) {
      p = in.find('<', p + 1);
      continue;
    }
    w.Replace(p, end, " ");
    p = in.find('<', end);
  }
  return w.Finish();
}

// --- pass 2: character references -----------------------------------------------------

// Length of the run of bytes from p that satisfy pred.
template <typename Pred>
size_t RunLength(std::string_view in, size_t p, Pred pred) {
  size_t q = p;
  while (q < in.size() && pred(static_cast<unsigned char>(in[q]))) ++q;
  return q - p;
}

bool DecodeCharacterReferencesPass(std::string_view in, std::string* out, CleanerScratch*) {
  Rewriter w(in, out);
  const size_t n = in.size();
  char utf8[4];
  for (size_t p = in.find('&'); p != kNone; p = in.find('&', p + 1)) {
    size_t q = p + 1;
    uint64_t value = 0;
    bool numeric = false;
    if (q < n && in[q] == '#') {
      size_t d = RunLength(in, q + 1, IsDigit);
      if (d >= 1 && d <= 7 && q + 1 + d < n && in[q + 1 + d] == ';') {
        for (size_t k = 0; k < d; ++k) value = value * 10 + (in[q + 1 + k] - '0');
        numeric = true;
        q += 1 + d;
      } else if (q + 1 < n && (in[q + 1] | 32) == 'x') {
        size_t h = RunLength(in, q + 2, [](unsigned char c) { return HexValue(c) >= 0; });
        if (h >= 1 && h <= 6 && q + 2 + h < n && in[q + 2 + h] == ';') {
          for (size_t k = 0; k < h; ++k) value = value * 16 + HexValue(in[q + 2 + k]);
          numeric = true;
          q += 2 + h;
        }
      }
      if (!numeric) continue;
    } else {
      if (q >= n || !IsAlpha(in[q])) continue;
      size_t len = RunLength(in, q, IsAlnum);
      if (len < 2 || len > 32 || q + len >= n || in[q + len] != ';') continue;
      value = HtmlEntityCodePoint(in.substr(q, len));
      if (value == 0) {  // not a known name: left as it is
        p = q + len;
        continue;
      }
      q += len;
    }
    // q is at the ';'.
    if (value == 0 || (value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF) {
      w.Replace(p, q + 1, " ");
    } else {
      w.Replace(p, q + 1, std::string_view(utf8, util::EncodeUtf8(static_cast<uint32_t>(value), utf8)));
    }
    p = q;
  }
  return w.Finish();
}

// --- pass 3: percent-escapes ----------------------------------------------------------

bool DecodePercentEscapesPass(std::string_view in, std::string* out, CleanerScratch* scratch) {
  Rewriter w(in, out);
  const size_t n = in.size();
  std::string& bytes = scratch->bytes;
  for (size_t p = in.find('%'); p != kNone;) {
    size_t q = p;
    bytes.clear();
    while (q + 2 < n && in[q] == '%' && HexValue(in[q + 1]) >= 0 && HexValue(in[q + 2]) >= 0) {
      bytes.push_back(static_cast<char>(HexValue(in[q + 1]) * 16 + HexValue(in[q + 2])));
      q += 3;
    }
    if (q == p) {
      p = in.find('%', p + 1);
      continue;
    }
    bool ok = true;
    for (size_t k = 0; ok && k < bytes.size();) {
      unsigned char c = static_cast<unsigned char>(bytes[k]);
      size_t len = util::ValidUtf8SequenceLength(bytes, k);
      ok = len > 0 && c >= 0x20 && c != 0x7F;
      k += len;
    }
    if (ok) w.Replace(p, q, bytes);
    p = in.find('%', q);
  }
  return w.Finish();
}

// --- pass 4: URLs and e-mail addresses ------------------------------------------------

// The byte classes of links, one bit each in a table.
enum LinkClass : uint8_t {
  kWord = 1,      // [A-Za-z0-9._%+-]: an e-mail address's local part; no link starts after one
  kScheme = 2,    // [A-Za-z0-9+.-]
  kUrl = 4,       // [^\s<>"'`\x80-\xff]
  kLabel = 8,     // [A-Za-z0-9-]: a domain label
  kTrailing = 16  // [.,;:!?)\]}]: given back from the end of a URL
};
struct LinkClasses {
  uint8_t of[256];
  constexpr LinkClasses() : of() {
    for (int c = 0; c < 256; ++c) {
      const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      const bool space = c == ' ' || (c >= '\t' && c <= '\r');
      of[c] = static_cast<uint8_t>(
          ((alnum || c == '.' || c == '_' || c == '%' || c == '+' || c == '-') ? kWord : 0) |
          ((alnum || c == '+' || c == '.' || c == '-') ? kScheme : 0) |
          ((c < 0x80 && !space && c != '<' && c != '>' && c != '"' && c != '\'' && c != '`') ? kUrl : 0) |
          ((alnum || c == '-') ? kLabel : 0));
    }
    for (char c : {'.', ',', ';', ':', '!', '?', ')', ']', '}'}) of[static_cast<unsigned char>(c)] |= kTrailing;
  }
};
constexpr LinkClasses kLinkClasses;

inline bool Is(char c, LinkClass cls) { return (kLinkClasses.of[static_cast<unsigned char>(c)] & cls) != 0; }
inline bool IsWordByte(char c) { return Is(c, kWord); }

// Length of the run of bytes from p of class cls.
size_t RunOf(std::string_view in, size_t p, LinkClass cls) {
  return RunLength(in, p, [cls](char c) { return Is(c, cls); });
}

// The URL starting at p, as [p, *end) with the host and path read from
// [*rest, *end) and the stripped punctuation [*end, *extent); false if none.
bool MatchUrl(std::string_view in, size_t p, size_t* rest, size_t* end, size_t* extent) {
  if (!IsAlpha(in[p])) return false;
  const size_t q = p + 1 + RunOf(in, p + 1, kScheme);
  if (in.compare(q, 3, "://") == 0) {
    *rest = q + 3;
  } else if (p + 4 < in.size() && StartsNoCase(in, p, "www.") && IsAlnum(in[p + 4])) {
    *rest = p;
  } else {
    return false;
  }
  *extent = *rest + RunOf(in, *rest, kUrl);
  *end = *extent;
  while (*end > *rest && Is(in[*end - 1], kTrailing)) --*end;
  return true;
}

// " host path-words": the host without userinfo, port, a first label "www"
// and its last label, each byte other than a letter or digit made '_'; the
// path before any query or fragment with '/' made ' '. No space after the
// path: a URL cut short by a non-ASCII byte (a decoded escape) keeps its last
// word whole ("/caf" + "é").
void AppendUrlWords(std::string_view url, std::string* out) {
  size_t auth_end = url.find_first_of("/?#");
  if (auth_end == kNone) auth_end = url.size();
  std::string_view host = url.substr(0, auth_end);
  if (size_t at = host.rfind('@'); at != kNone) host = host.substr(at + 1);
  if (size_t colon = host.find(':'); colon != kNone) host = host.substr(0, colon);
  if (size_t dot = host.find('.'); dot == 3 && StartsNoCase(host, 0, "www")) host = host.substr(4);
  if (size_t dot = host.rfind('.'); dot != kNone) host = host.substr(0, dot);
  out->push_back(' ');
  for (char c : host) out->push_back(IsAlnum(c) ? c : '_');
  out->push_back(' ');
  std::string_view path = url.substr(auth_end);
  path = path.substr(0, path.find_first_of("?#"));
  for (char c : path) out->push_back(c == '/' ? ' ' : c);
}

// The e-mail address starting at p: its end, or 0 if none starts there.
size_t MatchEmail(std::string_view in, size_t p) {
  const size_t n = in.size();
  size_t at = p + RunOf(in, p, kWord);
  if (at == p || at >= n || in[at] != '@') return 0;
  size_t end = at + 1 + RunOf(in, at + 1, kLabel);
  if (end == at + 1) return 0;
  int labels = 1;
  while (end < n && in[end] == '.') {
    size_t label = RunOf(in, end + 1, kLabel);
    if (label == 0) break;
    end += 1 + label;
    ++labels;
  }
  return labels >= 2 ? end : 0;
}

// Every position where a link could start, ascending: a link starts at a
// word byte that does not follow one, and holds "://" after its scheme, '@'
// after its local part, or starts with "www.". Found from those anchors
// instead of trying every word: the same matches, at a fraction of the cost.
void LinkCandidates(std::string_view in, std::vector<size_t>* starts) {
  starts->clear();
  for (size_t a = in.find("://"); a != kNone; a = in.find("://", a + 1)) {
    size_t s = a;
    while (s > 0 && Is(in[s - 1], kScheme)) --s;
    if (s < a) starts->push_back(s);
  }
  for (size_t a = in.find('@'); a != kNone; a = in.find('@', a + 1)) {
    size_t s = a;
    while (s > 0 && Is(in[s - 1], kWord)) --s;
    if (s < a) starts->push_back(s);
  }
  for (size_t d = in.find('.', 3); d != kNone; d = in.find('.', d + 1)) {
    if ((in[d - 1] | 32) == 'w' && StartsNoCase(in, d - 3, "www")) starts->push_back(d - 3);
  }
  std::sort(starts->begin(), starts->end());
  starts->erase(std::unique(starts->begin(), starts->end()), starts->end());
}

bool RewriteLinksPass(std::string_view in, std::string* out, CleanerScratch* scratch) {
  Rewriter w(in, out);
  std::vector<size_t>& starts = scratch->starts;
  LinkCandidates(in, &starts);
  std::string& with = scratch->bytes;
  size_t next = 0;  // the end of the last link: links do not overlap
  for (size_t p : starts) {
    if (p < next || (p > 0 && IsWordByte(in[p - 1]))) continue;
    size_t rest, end, extent;
    if (MatchUrl(in, p, &rest, &end, &extent)) {
      with.clear();
      AppendUrlWords(in.substr(rest, end - rest), &with);
      w.Replace(p, end, with);
      next = extent;
    } else if (size_t e = MatchEmail(in, p); e != 0) {
      with.assign(in.substr(p, e - p));
      for (char& c : with) {
        if (!IsAlnum(c) && c != '@') c = '_';
      }
      w.Replace(p, e, with);
      next = e;
    }
  }
  return w.Finish();
}

// The passes in the order Clean() runs them, as CleanerPass numbers them.
constexpr bool (*kPasses[])(std::string_view, std::string*, CleanerScratch*) = {
    &RemoveMarkupPass, &DecodeCharacterReferencesPass, &DecodePercentEscapesPass, &RewriteLinksPass};

}  // namespace

void ApplyPass(CleanerPass pass, std::string_view in, std::string* out) {
  CleanerScratch scratch;
  if (!kPasses[static_cast<int>(pass)](in, out, &scratch)) *out = in;
}

std::string_view TextCleaner::Clean(std::string_view utf8) {
  std::string_view text = utf8;
  std::string* next = &first_;
  for (auto pass : kPasses) {
    if (pass(text, next, &scratch_)) {
      text = *next;
      next = next == &first_ ? &second_ : &first_;
    }
  }
  return text;
}

}  // namespace simdex::text
