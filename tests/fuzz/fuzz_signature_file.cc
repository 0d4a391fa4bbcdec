// Fuzz target for the MinHash signature-file reader (SignatureFileReader:
// engine/io/signature_file_reader.cc, with engine/io/text_record.cc) and,
// for what it accepts, a round trip through the writer. The first byte
// chooses the name (plain, .zst, .gz: bits 4 and 5); the second is unused
// (the seeds' layout is fuzz_fingerprint_file's); the rest is the file.
//
// A bug is: a crash or sanitizer report; an error other than InvalidArgument
// (a bad line, named by file and line) or Corruption (a damaged compressed
// stream); a signature of other than num_perm values; counts that disagree
// with what was returned; a file read whole whose documents, written again
// by SignatureFileWriter with the options of its header, do not read back
// the same, under the same profile.
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "simdex/signature_file.h"
#include "tests/fuzz/fuzz_input_file.h"

namespace {

using simdex::MinHashOptions;
using simdex::SignatureEntry;
using simdex::SignatureFileReader;
using simdex::SignatureFileWriter;
using simdex::Status;
using simdex::fuzz::InputFile;

InputFile& File() { return simdex::fuzz::TheInputFile(); }

bool AllowedError(const Status& s) { return s.IsInvalidArgument() || s.IsCorruption(); }

bool SameEntry(const SignatureEntry& a, const SignatureEntry& b) {
  if (a.id != b.id || a.id_string != b.id_string || a.empty != b.empty) return false;
  return a.empty ? a.empty_reason == b.empty_reason : a.signature == b.signature;
}

// Reads every document of path, or returns the error.
Status ReadAll(const std::string& path, std::string* profile, MinHashOptions* options,
               std::vector<SignatureEntry>* out) {
  std::unique_ptr<SignatureFileReader> reader;
  SIMDEX_RETURN_IF_ERROR(SignatureFileReader::Open(path, &reader));
  *profile = reader->profile();
  *options = reader->options();
  FUZZ_CHECK(simdex::MinHashProfile(*options) == *profile);
  SignatureEntry e;
  uint64_t empty = 0;
  for (bool eof = false;;) {
    SIMDEX_RETURN_IF_ERROR(reader->Next(&e, &eof));
    if (eof) break;
    FUZZ_CHECK(e.empty ? e.signature.empty() : e.signature.size() == static_cast<size_t>(options->num_perm));
    empty += e.empty;
    out->push_back(e);
  }
  FUZZ_CHECK(reader->stats().records + reader->stats().empty == out->size());
  FUZZ_CHECK(reader->stats().empty == empty);
  return Status::OK();
}

void RoundTrip(const std::string& profile, const MinHashOptions& options, const std::vector<SignatureEntry>& entries) {
  const std::string path = File().Scratch("rt.txt");
  std::unique_ptr<SignatureFileWriter> writer;
  FUZZ_CHECK(SignatureFileWriter::Open(path, options, &writer).ok());
  std::vector<SignatureEntry> kept;
  for (const SignatureEntry& e : entries) {
    Status s;
    if (e.empty) {
      // A reason the writer cannot hold (a tab, an end of line) is the caller's mistake: left out.
      if (e.empty_reason.empty() || e.empty_reason.find_first_of("\t\r\n") != std::string::npos) continue;
      s = e.id_string.empty() ? writer->AddEmpty(e.id, e.empty_reason) : writer->AddEmpty(e.id_string, e.empty_reason);
    } else {
      s = e.id_string.empty() ? writer->Add(e.id, e.signature.data()) : writer->Add(e.id_string, e.signature.data());
    }
    FUZZ_CHECK(s.ok());
    kept.push_back(e);
  }
  FUZZ_CHECK(writer->Finish().ok());
  std::string back_profile;
  MinHashOptions back_options;
  std::vector<SignatureEntry> back;
  FUZZ_CHECK(ReadAll(path, &back_profile, &back_options, &back).ok());
  FUZZ_CHECK(back_profile == profile);
  FUZZ_CHECK(back.size() == kept.size());
  for (size_t i = 0; i < kept.size(); ++i) FUZZ_CHECK(SameEntry(back[i], kept[i]));
}

// Seeds: numeric and string ids, an empty document, 1 and 4 values, plain
// and compressed; a file as another tool might write it (CRLF, upper-case
// hex, blank lines).
void WriteSeeds(const std::string& dir) {
  struct Seed {
    const char* name;
    uint8_t mode;
    const char* file;
    int num_perm;
  };
  const Seed seeds[] = {{"perm4", 0x00, "s.txt", 4}, {"perm1", 0x00, "s1.txt", 1},
                        {"perm4_zst", 0x10, "s.txt.zst", 4}, {"perm4_gz", 0x20, "s.txt.gz", 4}};
  const uint32_t values[4] = {0x01234567, 0x89abcdef, 0xffffffff, 0};
  for (const Seed& seed : seeds) {
    MinHashOptions options;
    options.num_perm = seed.num_perm;
    const std::string made = File().Scratch(seed.file);
    std::unique_ptr<SignatureFileWriter> writer;
    FUZZ_CHECK(SignatureFileWriter::Open(made, options, &writer).ok());
    FUZZ_CHECK(writer->Add(1, values).ok());
    FUZZ_CHECK(writer->AddEmpty(2, "no-text").ok());
    FUZZ_CHECK(writer->Add(18446744073709551615u, values).ok());
    FUZZ_CHECK(writer->Add(std::string_view("https://a.example/x"), values).ok());
    FUZZ_CHECK(writer->Finish().ok());
    simdex::fuzz::WriteSeed(dir, seed.name, seed.mode, 0, made);
  }
  const std::string other = File().Scratch("other.txt");
  std::ofstream(other) << "#simdex-signatures\tsimdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold perm:2 "
                          "seed:1\r\n5\t0000001FFFFFFFFF\r\n\n6\t-\tno-text\n";
  simdex::fuzz::WriteSeed(dir, "other_tools", 0x00, 0, other);
}

}  // namespace

SIMDEX_FUZZ_SEED_EMPTY_CORPORA_WITH(WriteSeeds)

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  simdex::fuzz::Input in(data, size);
  const uint8_t mode = in.Byte();
  in.Byte();
  const std::string path = File().Take(&in, mode);
  std::string profile;
  MinHashOptions options;
  std::vector<SignatureEntry> entries;
  Status s = ReadAll(path, &profile, &options, &entries);
  if (!s.ok()) {
    FUZZ_CHECK(AllowedError(s));
    return 0;
  }
  if (entries.size() > 2000) return 0;  // the round trip costs a file write per input
  RoundTrip(profile, options, entries);
  return 0;
}
