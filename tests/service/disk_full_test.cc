// The docId service on a disk that fills up: a 16 MiB tmpfs mounted by the
// fixture (the test runs as root, as CI does; it fails, never skips, when
// it cannot mount) holds the whole state. While the disk is full, writes
// are answered 503 and nothing is acknowledged; once a filler file is
// deleted the service writes again (it reopens its database), and every
// answer it gave is still there after a restart. A compaction that fails
// on the full disk loses no index entry.
#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/http_server.h"
#include "simdex/service.h"
#include "tests/index/test_data.h"
#include "tests/service/http_client.h"
#include "tests/service/served_service.h"
#include "tests/service/service_test_util.h"

namespace simdex {
namespace {

using servicetest::HttpClient;
using servicetest::HttpReply;
using servicetest::JsonField;

class DiskFullTest : public ::testing::Test {
 protected:
  void SetUp() override {
    mount_point_ = dir_.File("mnt");
    std::filesystem::create_directories(mount_point_);
    if (mount("tmpfs", mount_point_.c_str(), "tmpfs", 0, "size=16m") != 0) {
      FAIL() << "cannot mount a 16 MiB tmpfs at " << mount_point_ << " (" << std::strerror(errno)
             << "): this test needs root, as CI runs it";
    }
    mounted_ = true;
    data_ = mount_point_ + "/state";
  }

  void TearDown() override {
    served_.reset();
    service_.reset();
    if (mounted_ && umount2(mount_point_.c_str(), MNT_DETACH) != 0) {
      ADD_FAILURE() << "cannot unmount " << mount_point_ << ": " << std::strerror(errno);
    }
  }

  // Writes a filler file until the file system is full.
  void Fill() {
    const std::string path = mount_point_ + "/filler";
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0) << std::strerror(errno);
    const std::string chunk(64 << 10, 'f');
    size_t written = 0;
    for (int i = 0; i < 1024; ++i) {  // 64 MiB at most: more than the file system holds
      const ssize_t n = ::write(fd, chunk.data(), chunk.size());
      if (n < 0) break;
      written += static_cast<size_t>(n);
    }
    const int err = errno;
    ::close(fd);
    ASSERT_EQ(err, ENOSPC) << "the filler stopped at " << written << " bytes: " << std::strerror(err);
  }
  void Free() { ASSERT_EQ(::unlink((mount_point_ + "/filler").c_str()), 0); }

  ServiceOptions Options() const {
    ServiceOptions o;
    o.content_method = ContentMethod::kSimHash;  // the SimHash content stage
    o.data_dir = data_;
    o.background_compaction = false;
    return o;
  }

  testing::ScopedTempDir dir_;
  std::string mount_point_, data_;
  bool mounted_ = false;
  std::unique_ptr<servicetest::ServedService> served_;
  std::unique_ptr<DocIdService> service_;
};

double Metric(const std::string& text, const std::string& name) {
  const size_t at = text.find("\n" + name + " ");
  return at == std::string::npos ? -1 : std::stod(text.substr(at + name.size() + 2));
}

// Without and with `sync` (the log fsync'ed before each answer).
class DiskFullHttpTest : public DiskFullTest, public ::testing::WithParamInterface<bool> {};

TEST_P(DiskFullHttpTest, WritesGet503WhileTheDiskIsFullAndNothingAcknowledgedIsLost) {
  ServiceOptions options = Options();
  options.sync = GetParam();
  served_ = std::make_unique<servicetest::ServedService>(options);
  ASSERT_TRUE(served_->ok());
  HttpClient client(served_->port());
  std::map<std::string, std::string> acknowledged;  // id -> docId
  int next = 0;
  auto post = [&]() {
    const std::string id = std::to_string(next++);
    const HttpReply r = client.Post("/v1/docid", servicetest::ArticleJson(id, "http://full/" + id, "",
                                                                          servicetest::RandomText(next, 150)));
    if (r.status == 200) acknowledged[id] = JsonField(r.body, "docId");
    return r;
  };
  for (int i = 0; i < 20; ++i) ASSERT_EQ(post().status, 200);

  ASSERT_NO_FATAL_FAILURE(Fill());
  // The log's last page may take a few more articles; then 503.
  HttpReply refused;
  for (int i = 0; i < 2000 && refused.status != 503; ++i) {
    const HttpReply r = post();
    ASSERT_TRUE(r.status == 200 || r.status == 503) << r.status << ": " << r.body << r.error;
    if (r.status == 503) refused = r;
  }
  ASSERT_EQ(refused.status, 503) << "2,000 articles went into a full disk";
  EXPECT_NE(JsonField(refused.body, "error").find("No space left on device"), std::string::npos) << refused.body;
  for (int i = 0; i < 3; ++i) {
    const HttpReply r = post();
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_EQ(client.Get("/healthz").status, 200);
  }
  // Reads go on.
  EXPECT_EQ(JsonField(client.Get("/v1/article?id=0").body, "docId"), acknowledged["0"]);
  std::string metrics = client.Get("/metrics").body;
  EXPECT_GE(Metric(metrics, "simdex_store_write_errors_total"), 1) << metrics;
  EXPECT_NE(metrics.find("simdex_http_requests_total{route=\"docid\",code=\"503\"} 4"), std::string::npos);

  ASSERT_NO_FATAL_FAILURE(Free());
  // The database is reopened at the first write at least a second after
  // the last attempt.
  HttpReply back;
  for (int i = 0; i < 100 && back.status != 200; ++i) {
    back = post();
    if (back.status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(back.status, 200) << back.body;
  for (int i = 0; i < 20; ++i) EXPECT_EQ(post().status, 200);
  metrics = client.Get("/metrics").body;
  EXPECT_EQ(Metric(metrics, "simdex_store_reopens_total"), 1) << metrics;

  // Restarted: every acknowledged answer, the same docId; a copy of an
  // article written before the disk filled is still matched by its content.
  served_.reset();
  ASSERT_TRUE(DocIdService::Open(Options(), &service_).ok());
  for (const auto& [id, doc_id] : acknowledged) {
    DocIdAnswer a;
    ASSERT_TRUE(service_->LookupArticle(id, &a).ok()) << id;
    EXPECT_EQ(FormatDocId(a.doc_id), doc_id) << id;
  }
  EXPECT_GE(acknowledged.size(), 41u);
  const std::string copy = servicetest::RandomText(1, 150);
  Article article;
  article.content = copy;
  article.json = "{}";
  DocIdAnswer a;
  ASSERT_TRUE(service_->Submit(article, &a).ok());
  EXPECT_EQ(FormatDocId(a.doc_id), acknowledged["0"]);
}

INSTANTIATE_TEST_SUITE_P(Sync, DiskFullHttpTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& p) { return p.param ? "Sync" : "NoSync"; });

// A compaction on a full disk cannot write its files: it fails, the
// frozen delta stays searchable, and the next compaction writes it too
// (it used to drop it unwritten, losing its entries).
TEST_F(DiskFullTest, CompactionThatFailsOnAFullDiskLosesNoEntries) {
  ASSERT_TRUE(DocIdService::Open(Options(), &service_).ok());
  std::vector<uint64_t> fps, doc_ids;
  auto submit = [&](int n) {
    for (int i = 0; i < n; ++i) {
      const std::string text = servicetest::RandomText(1000 + fps.size(), 150);
      Article article;
      article.content = text;
      article.json = "{}";
      DocIdAnswer a;
      ASSERT_TRUE(service_->Submit(article, &a).ok());
      fps.push_back(service_->FingerprintText(text).fingerprint);
      doc_ids.push_back(a.doc_id);
    }
  };
  auto expect_all_found = [&](const char* when) {
    for (size_t i = 0; i < fps.size(); ++i) {
      std::vector<ServiceMatch> found;
      ASSERT_TRUE(service_->Search(Field::kContent, fps[i], 0, &found).ok());
      ASSERT_EQ(found.size(), 1u) << when << ": article " << i;
      EXPECT_EQ(found[0].doc_id, doc_ids[i]) << when << ": article " << i;
    }
  };
  ASSERT_NO_FATAL_FAILURE(submit(50));
  ASSERT_NO_FATAL_FAILURE(Fill());
  const Status failed = service_->Compact();
  EXPECT_TRUE(failed.IsIOError()) << failed.ToString();
  expect_all_found("after the failed compaction");
  ASSERT_NO_FATAL_FAILURE(Free());
  ASSERT_NO_FATAL_FAILURE(submit(50));
  ASSERT_TRUE(service_->Compact().ok());
  ServiceStats st = service_->stats();
  EXPECT_EQ(st.delta_entries, 0u);
  EXPECT_EQ(st.file_entries, 100u);
  expect_all_found("after the second compaction");
  service_.reset();
  ASSERT_TRUE(DocIdService::Open(Options(), &service_).ok());
  st = service_->stats();
  EXPECT_EQ(st.file_entries + st.delta_entries, 100u);
  expect_all_found("after a restart");
}

}  // namespace
}  // namespace simdex
