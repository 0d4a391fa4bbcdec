// DetectBatchFormat: what an input holds, judged by its first non-blank
// line, and standard input read again in full after it was judged.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <string>
#include <thread>
#include <tuple>

#include <gtest/gtest.h>

#include "engine/io/input_stream.h"
#include "simdex/document_reader.h"
#include "simdex/fingerprint_file.h"
#include "tests/io/io_test_util.h"

namespace simdex {
namespace {

using testing::Compress;
using testing::TempDir;

class BatchFormatTest : public ::testing::Test {
 protected:
  BatchFormat Detect(const std::string& name, const std::string& bytes) {
    BatchFormat format = BatchFormat::kLines;
    const Status s = DetectBatchFormat(dir_.Write(name, bytes), &format);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return format;
  }
  TempDir dir_;
};

TEST_F(BatchFormatTest, JsonLinesStartWithABrace) {
  EXPECT_EQ(Detect("a", "{\"id\":1,\"text\":\"x\"}\n"), BatchFormat::kJsonl);
  EXPECT_EQ(Detect("b", "\n  \r\n\t {\"id\":1}"), BatchFormat::kJsonl) << "blank lines and indentation first";
  EXPECT_EQ(Detect("c", "\xEF\xBB\xBF{\"id\":1}\n"), BatchFormat::kJsonl) << "after a byte order mark";
}

TEST_F(BatchFormatTest, FingerprintLinesAsSimdexWritesThem) {
  EXPECT_EQ(Detect("a", "1\t0123456789abcdef\n2\t-\tno-text\n"), BatchFormat::kFingerprints);
  EXPECT_EQ(Detect("b", "\n7\t-\tno-features\n"), BatchFormat::kFingerprints);
  EXPECT_EQ(Detect("c", "https://a.example/x\t0123456789ABCDEF\r\n"), BatchFormat::kFingerprints);
}

TEST_F(BatchFormatTest, AMinHashSignatureFileByItsHeader) {
  const std::string header = "#simdex-signatures\tsimdex-minhash/1 words:5 chars:5 unspaced:0.5 nfkc-casefold perm:1 seed:1\n";
  EXPECT_EQ(Detect("a", header + "1\t0123abcd\n"), BatchFormat::kSignatures);
  EXPECT_EQ(Detect("b", "\xEF\xBB\xBF" + header), BatchFormat::kSignatures) << "after a byte order mark";
  EXPECT_EQ(Detect("c.gz", Compress(header, ".gz")), BatchFormat::kSignatures);
  EXPECT_EQ(Detect("d", "#simdex-signatures\n"), BatchFormat::kLines) << "no tab: a line of text";
}

// A signature file without its header line was read as documents (`query`
// answered every line with no match, `build --method minhash` indexed the
// hex): its lines are recognised and the input refused, naming the line.
TEST_F(BatchFormatTest, SignaturesWithoutTheirHeaderLineAreRefusedNamingTheLine) {
  const std::string three_values = "0123abcd4567ef01deadbeef";
  std::string full(1024, 'a');  // num_perm 128, the default
  for (const auto& [name, bytes, line] :
       {std::tuple<std::string, std::string, int>{"a", "1\t" + full + "\n2\t" + full + "\n", 1},
        {"b", "\n\ndoc/7\t" + three_values + "\n", 3},
        {"c.gz", Compress("7\t" + full + "\r\n", ".gz"), 1}}) {
    SCOPED_TRACE(name);
    const std::string path = dir_.Write(name, bytes);
    BatchFormat format = BatchFormat::kJsonl;
    const Status s = DetectBatchFormat(path, &format);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_EQ(s.message(), path + ":" + std::to_string(line) +
                               ": a MinHash signature without the '#simdex-signatures<TAB><profile>' line that opens "
                               "a signature file (simdex fingerprint --method minhash writes it first); --format "
                               "lines reads the file as text");
    EXPECT_EQ(format, BatchFormat::kJsonl) << "untouched";
  }
  // What only resembles them stays text: too few values, a digit count
  // that is not a multiple of 8, a letter that is not hex, no id.
  EXPECT_EQ(Detect("d", "1\t0123abcd\n"), BatchFormat::kLines);
  EXPECT_EQ(Detect("e", "1\t" + three_values + "0\n"), BatchFormat::kLines);
  EXPECT_EQ(Detect("f", "1\t" + three_values.substr(0, 23) + "g\n"), BatchFormat::kLines);
  EXPECT_EQ(Detect("g", three_values + "\n"), BatchFormat::kLines);
}

TEST_F(BatchFormatTest, BinaryFingerprintFile) {
  const std::string path = dir_.Path("fp.bin");
  std::unique_ptr<FingerprintFileWriter> writer;
  ASSERT_TRUE(FingerprintFileWriter::Open(path, FingerprintFileForm::kBinary, &writer).ok());
  ASSERT_TRUE(writer->Add(1, 2).ok());
  ASSERT_TRUE(writer->Finish().ok());
  BatchFormat format;
  ASSERT_TRUE(DetectBatchFormat(path, &format).ok());
  EXPECT_EQ(format, BatchFormat::kFingerprints);
}

TEST_F(BatchFormatTest, TextThatOnlyResemblesThemIsLines) {
  EXPECT_EQ(Detect("a", "alpha beta\n{not first}\n"), BatchFormat::kLines);
  EXPECT_EQ(Detect("b", "2023\tface\n"), BatchFormat::kLines) << "short hex: too likely in a text";
  EXPECT_EQ(Detect("c", "1\t0123456789abcdef0\n"), BatchFormat::kLines);
  EXPECT_EQ(Detect("d", ""), BatchFormat::kLines);
  EXPECT_EQ(Detect("e", "\n\n"), BatchFormat::kLines);
  EXPECT_EQ(Detect("f", "SDXFPv"), BatchFormat::kLines) << "a prefix of the binary magic";
}

TEST_F(BatchFormatTest, CompressedInputIsJudgedDecompressed) {
  EXPECT_EQ(Detect("d.gz", Compress("{\"id\":1}\n", ".gz")), BatchFormat::kJsonl);
  EXPECT_EQ(Detect("f.zst", Compress("1\t0123456789abcdef\n", ".zst")), BatchFormat::kFingerprints);
}

TEST_F(BatchFormatTest, MissingFileIsAnErrorNamingIt) {
  BatchFormat format;
  const Status s = DetectBatchFormat(dir_.Path("absent"), &format);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_NE(s.message().find("absent"), std::string::npos);
}

// Standard input replaced by a pipe for the test's duration.
class PipedStdin {
 public:
  explicit PipedStdin(const std::string& bytes) {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    saved_ = ::dup(STDIN_FILENO);
    ::dup2(fds[0], STDIN_FILENO);
    ::close(fds[0]);
    writer_ = std::thread([fd = fds[1], bytes] {
      size_t at = 0;
      while (at < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + at, bytes.size() - at);
        if (n <= 0) break;
        at += static_cast<size_t>(n);
      }
      ::close(fd);
    });
  }
  ~PipedStdin() {
    writer_.join();
    ::dup2(saved_, STDIN_FILENO);
    ::close(saved_);
  }

 private:
  int saved_;
  std::thread writer_;
};

TEST(BatchFormatStdin, JudgedStandardInputIsReadAgainInFull) {
  std::string docs;
  for (int i = 1; i <= 3000; ++i) docs += "{\"id\":" + std::to_string(i) + ",\"text\":\"document " + std::to_string(i) + "\"}\n";
  PipedStdin in(docs);  // 100 KB: more than a pipe holds, so the judge sees only the start
  BatchFormat format;
  ASSERT_TRUE(DetectBatchFormat("-", &format).ok());
  EXPECT_EQ(format, BatchFormat::kJsonl);
  std::unique_ptr<DocumentReader> reader;
  ASSERT_TRUE(DocumentReader::Open("-", DocumentReaderOptions{}, &reader).ok());
  Document doc;
  uint64_t n = 0;
  for (bool eof = false;;) {
    const Status s = reader->Next(&doc, &eof);
    ASSERT_TRUE(s.ok()) << s.ToString();
    if (eof) break;
    ++n;
    ASSERT_EQ(doc.id, n);
  }
  EXPECT_EQ(n, 3000u);
}

// A pipe given by its path (bash's <(...), a FIFO) cannot be opened again
// from its start: what was read to judge it must reach the reader, and the
// pipe must stay open between the two (its writer may be done by then).
TEST(BatchFormatPipe, JudgedPipeIsReadAgainInFull) {
  // Bounds: a writer whose reader left gets EPIPE, not a signal; a reader
  // waiting for a writer that is gone ends the test after 60 s (SIGALRM).
  std::signal(SIGPIPE, SIG_IGN);
  ::alarm(60);
  TempDir dir;
  const std::string fifo = dir.Path("docs.pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string docs;
  for (int i = 1; i <= 3000; ++i) docs += "{\"id\":" + std::to_string(i) + ",\"text\":\"w " + std::to_string(i) + "\"}\n";
  std::thread writer([&] {
    const int fd = ::open(fifo.c_str(), O_WRONLY);  // waits for the judge to open it
    size_t at = 0;
    while (fd >= 0 && at < docs.size()) {
      const ssize_t n = ::write(fd, docs.data() + at, docs.size() - at);
      if (n <= 0) break;
      at += static_cast<size_t>(n);
    }
    if (fd >= 0) ::close(fd);
  });
  BatchFormat format;
  const Status judged = DetectBatchFormat(fifo, &format);
  std::unique_ptr<DocumentReader> reader;
  const Status opened = judged.ok() ? DocumentReader::Open(fifo, DocumentReaderOptions{}, &reader) : judged;
  uint64_t n = 0;
  Status read = opened;
  for (bool eof = false; read.ok() && !eof;) {
    Document doc;
    read = reader->Next(&doc, &eof);
    if (read.ok() && !eof && doc.id == n + 1) ++n;
  }
  writer.join();
  ::alarm(0);
  ASSERT_TRUE(read.ok()) << read.ToString();
  EXPECT_EQ(format, BatchFormat::kJsonl);
  EXPECT_EQ(n, 3000u);
}

}  // namespace
}  // namespace simdex
