// Usage: cxx_consumer INDEX HEX...: prints one line per match, "<query> <id>
// <fingerprint> <distance>", as consumer.c does, through the C++ API.
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <vector>

#include <simdex/fingerprint.h>
#include <simdex/index.h>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: cxx_consumer INDEX HEX...\n");
    return 2;
  }
  std::unique_ptr<simdex::IndexReader> reader;
  simdex::Status s = simdex::IndexReader::Open(argv[1], simdex::ReaderOptions(), &reader);
  if (!s.ok()) {
    std::fprintf(stderr, "cxx_consumer: %s\n", s.ToString().c_str());
    return 1;
  }
  for (int i = 2; i < argc; ++i) {
    uint64_t query;
    if (!simdex::ParseHexFingerprint(argv[i], &query)) return 2;
    std::vector<simdex::Match> matches;
    s = reader->Search(query, reader->scheme().k(), &matches);
    if (!s.ok()) {
      std::fprintf(stderr, "cxx_consumer: %s\n", s.ToString().c_str());
      return 1;
    }
    for (const simdex::Match& m : matches) {
      std::printf("%s %" PRIu64 " %s %d\n", simdex::FormatHexFingerprint(query).c_str(), m.id,
                  simdex::FormatHexFingerprint(m.fingerprint).c_str(), m.distance);
    }
  }
  return 0;
}
