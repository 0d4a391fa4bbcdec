// simdex-synthetic-lines N: N documents, one per line, for end-to-end runs
// of `simdex dedup` at scale (docs/benchmarks.md). Each has 15 words from a
// 50,000-word vocabulary of 3-9 letters (about 105 bytes a line). One
// document in four copies an earlier one's text (following copies back to
// an original): one in twenty exactly, the rest with the last word replaced
// (word 5-shingle Jaccard 10/12 = 0.83 with its original). Deterministic.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/mix64.h"

namespace {

using simdex::bench::Mix64;

constexpr int kWords = 15;

// 0-4 of 20: a copy (0 exact, 1-4 with its last word replaced); else an original.
uint64_t Kind(uint64_t d) { return d == 0 ? 19 : Mix64(d ^ 0xabcdef) % 20; }
uint64_t Source(uint64_t d) { return Mix64(d) % d; }
uint64_t Origin(uint64_t d) {
  while (Kind(d) < 5) d = Source(d);
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: simdex-synthetic-lines N\n");
    return 2;
  }
  const uint64_t n = std::strtoull(argv[1], nullptr, 10);
  std::vector<std::string> vocabulary(50000);
  for (size_t i = 0; i < vocabulary.size(); ++i) {
    uint64_t h = Mix64(i + 1);
    const int letters = 3 + static_cast<int>(h % 7);
    for (int k = 0; k < letters; ++k) {
      h = Mix64(h);
      vocabulary[i] += static_cast<char>('a' + h % 26);
    }
  }
  auto word = [&](uint64_t doc, int w) -> const std::string& { return vocabulary[Mix64(doc * 64 + w) % vocabulary.size()]; };
  std::string line;
  for (uint64_t d = 0; d < n; ++d) {
    const uint64_t origin = Origin(d);
    const bool replaced = Kind(d) >= 1 && Kind(d) < 5;
    line.clear();
    for (int w = 0; w < kWords; ++w) {
      line += w == kWords - 1 && replaced ? word(d, 99) : word(origin, w);
      line += w == kWords - 1 ? '\n' : ' ';
    }
    if (std::fwrite(line.data(), 1, line.size(), stdout) != line.size()) return 1;
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}
