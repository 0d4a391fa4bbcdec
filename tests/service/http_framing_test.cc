// Request framing against smuggling (RFC 9112 section 6): every shape of
// Transfer-Encoding and Content-Length that two HTTP implementations could
// read as different message boundaries is refused, and the connection is
// closed, so that nothing after it on the connection is read as a request.
// Each case sends the shape followed by a second request that would be
// answered if the first one's body had been taken for the next request.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/http_server.h"
#include "tests/service/http_client.h"
#include "tests/service/served_service.h"

namespace simdex {
namespace {

using servicetest::HttpClient;
using servicetest::HttpReply;
using servicetest::JsonField;

// What a smuggler hides in the body: a request of its own.
const std::string kSmuggled = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

std::string Post(const std::string& framing, const std::string& body, const std::string& version = "HTTP/1.1") {
  return "POST /v1/docid " + version + "\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" + framing +
         "\r\n" + body;
}

struct Shape {
  const char* name;
  std::string bytes;
  int status;  // the refusal's status
};

std::vector<Shape> SmugglingShapes() {
  const std::string article = servicetest::ArticleJson("", "http://f/1", "t", "framing");
  const std::string cl = "Content-Length: " + std::to_string(kSmuggled.size()) + "\r\n";
  return {
      {"chunked, gzip", Post("Transfer-Encoding: chunked, gzip\r\n", kSmuggled), 501},
      {"identity", Post("Transfer-Encoding: identity\r\n", kSmuggled), 501},
      {"gzip", Post("Transfer-Encoding: gzip\r\n", kSmuggled), 501},
      {"gzip, chunked", Post("Transfer-Encoding: gzip, chunked\r\n", "0\r\n\r\n" + kSmuggled), 501},
      {"xchunked with a Content-Length", Post("Transfer-Encoding: xchunked\r\n" + cl, kSmuggled), 501},
      {"chunked, chunked", Post("Transfer-Encoding: chunked, chunked\r\n", "0\r\n\r\n" + kSmuggled), 501},
      {"two Transfer-Encoding fields",
       Post("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n" + kSmuggled), 400},
      {"gzip field then chunked field",
       Post("Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n" + kSmuggled), 501},
      {"chunked and a Content-Length",
       Post("Transfer-Encoding: chunked\r\n" + cl, "0\r\n\r\n" + kSmuggled), 400},
      {"a Content-Length and chunked",
       Post(cl + "Transfer-Encoding: chunked\r\n", "0\r\n\r\n" + kSmuggled), 400},
      {"chunked in HTTP/1.0", Post("Transfer-Encoding: chunked\r\n", "0\r\n\r\n" + kSmuggled, "HTTP/1.0"), 400},
      {"a space before the colon", Post("Transfer-Encoding : chunked\r\n", "0\r\n\r\n" + kSmuggled), 400},
      {"a folded value", Post("Transfer-Encoding: gzip,\r\n chunked\r\n", "0\r\n\r\n" + kSmuggled), 501},
      {"two different lengths",
       Post("Content-Length: 0\r\nContent-Length: " + std::to_string(kSmuggled.size()) + "\r\n", kSmuggled), 400},
      {"a signed length", Post("Content-Length: +" + std::to_string(kSmuggled.size()) + "\r\n", kSmuggled), 400},
      {"a hexadecimal length", Post("Content-Length: 0x10\r\n", kSmuggled), 400},
      {"a chunk size past 64 bits",
       Post("Transfer-Encoding: chunked\r\n", "10000000000000000\r\n" + kSmuggled), 400},
      {"bare line feeds", "POST /v1/docid HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\n" + cl + "\n" +
                              kSmuggled, 400},
      {"a NUL in a field", Post(std::string("X-A: a\0b\r\n", 10) + cl, kSmuggled), 400},
  };
}

// The number of responses in what a server sent (status lines).
int Responses(const std::string& bytes) {
  int n = 0;
  for (size_t at = bytes.find("HTTP/1."); at != std::string::npos; at = bytes.find("HTTP/1.", at + 1)) {
    if (at == 0 || bytes[at - 1] == '\n') ++n;
  }
  return n;
}

// The first request is refused with `status`, and nothing more is answered
// on its connection: the server closes it, and the smuggled request is
// never read.
TEST(HttpFraming, AmbiguousFramingIsRefusedAndTheConnectionClosed) {
  servicetest::ServedService served;
  ASSERT_TRUE(served.ok());
  for (const Shape& shape : SmugglingShapes()) {
    HttpClient client(served.port(), std::chrono::seconds(5));
    ASSERT_TRUE(client.Send(shape.bytes)) << shape.name;
    bool closed = false;
    const std::string bytes = client.ReadUntilClosed(&closed);
    EXPECT_TRUE(closed) << shape.name << ": the connection stayed open";
    EXPECT_EQ(Responses(bytes), 1) << shape.name << ": the body was read as a request\n" << bytes;
    EXPECT_TRUE(bytes.starts_with("HTTP/1.1 " + std::to_string(shape.status) + " ")) << shape.name << "\n" << bytes;
    EXPECT_NE(bytes.find("Connection: close"), std::string::npos) << shape.name << "\n" << bytes;
  }
  EXPECT_EQ(served.service().stats().articles, 0u) << "a refused request inserted an article";
  EXPECT_EQ(HttpClient(served.port()).Get("/healthz").status, 200);
}

TEST(HttpFraming, UnknownTransferCodingNamesItself) {
  servicetest::ServedService served;
  ASSERT_TRUE(served.ok());
  const std::vector<HttpReply> r =
      HttpClient(served.port()).Raw(Post("Transfer-Encoding: gzip, chunked\r\n", "0\r\n\r\n"), 1);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(JsonField(r[0].body, "error"),
            "Transfer-Encoding 'gzip, chunked' is not supported: send chunked alone, or a Content-Length");
}

// What RFC 9112 allows is still served: chunked in any case, with optional
// white space, and a Content-Length repeated with the same value.
TEST(HttpFraming, PlainFramingIsServed) {
  servicetest::ServedService served;
  ASSERT_TRUE(served.ok());
  const std::string article = servicetest::ArticleJson("", "http://f/2", "t", "plain framing");
  char size[16];
  std::snprintf(size, sizeof size, "%zx", article.size());
  const std::string chunked = std::string(size) + "\r\n" + article + "\r\n0\r\n\r\n";
  const std::string length = std::to_string(article.size());
  for (const std::string& bytes : {Post("Transfer-Encoding: chunked\r\n", chunked),
                                   Post("Transfer-Encoding:\tChunked \r\n", chunked),
                                   Post("Content-Length: " + length + "\r\nContent-Length: " + length + "\r\n", article)}) {
    const std::vector<HttpReply> r = HttpClient(served.port()).Raw(bytes, 1);
    ASSERT_EQ(r.size(), 1u) << bytes;
    EXPECT_EQ(r[0].status, 200) << bytes << "\n" << r[0].body;
    EXPECT_TRUE(r[0].keep_alive) << bytes;
  }
}

}  // namespace
}  // namespace simdex
