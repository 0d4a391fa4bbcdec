#include "engine/service/api.h"

#include <cstdio>
#include <string>

#include <simdjson.h>

#include "engine/service/article_json.h"
#include "engine/service/stats_fields.h"
#include "engine/util/json_text.h"

namespace simdex::service {

namespace {

constexpr size_t kMaxQueryFingerprints = 10000;

HttpResponse Json(std::string body, Route route) {
  HttpResponse r;
  r.body = std::move(body);
  r.body.push_back('\n');
  r.route = route;
  return r;
}

HttpResponse AnswerJson(const DocIdAnswer& answer, Route route) {
  std::string body;
  AppendAnswer(&body, answer);
  return Json(std::move(body), route);
}

// 400 for what the caller got wrong, 404 for what is not there, 503 when
// the database refused a write or cannot be read (a full disk, no
// descriptors: nothing was acknowledged; a retry may succeed), 500 for the
// rest (corrupt state).
int StatusFor(const Status& s) {
  if (s.IsInvalidArgument()) return 400;
  if (s.IsNotFound()) return 404;
  if (s.IsIOError()) return 503;
  return 500;
}

// Each match: its fingerprint and distance, or (a MinHash band match) its
// estimated similarity.
void AppendMatches(std::string* out, const std::vector<ServiceMatch>& matches) {
  out->append("[");
  for (size_t i = 0; i < matches.size(); ++i) {
    if (i > 0) out->push_back(',');
    out->append("{\"docId\":\"").append(FormatDocId(matches[i].doc_id)).append("\"");
    if (matches[i].similarity > 0) {
      char number[32];
      std::snprintf(number, sizeof number, "%g", matches[i].similarity);
      out->append(",\"similarity\":").append(number);
      if (matches[i].threshold > 0) {
        std::snprintf(number, sizeof number, "%g", matches[i].threshold);
        out->append(",\"threshold\":").append(number);
      }
      out->push_back('}');
      continue;
    }
    out->append(",\"fingerprint\":\"").append(FormatHexFingerprint(matches[i].fingerprint));
    out->append("\",\"distance\":").append(std::to_string(matches[i].distance)).push_back('}');
  }
  out->append("]");
}

// A query's "threshold" (a number in (0, 1], or a non-empty array of
// them) and "top_k" (an integer >= 1), when given; false with *bad the
// error message for anything else.
bool ParseContentSearch(simdjson::dom::object object, ContentSearchOptions* options, std::string* bad) {
  simdjson::dom::element tv, kv;
  if (!object.at_key("threshold").get(tv)) {
    const auto add = [options](simdjson::dom::element e) {
      double t = -1;
      if (e.get_double().get(t) || !(t > 0 && t <= 1)) return false;
      options->thresholds.push_back(t);
      return true;
    };
    simdjson::dom::array list;
    bool ok = true;
    if (tv.get_array().get(list)) {
      ok = add(tv);
    } else {
      ok = list.size() > 0;
      for (simdjson::dom::element e : list) ok = ok && add(e);
    }
    if (!ok) {
      *bad = "field 'threshold' must be a number in (0, 1] or an array of them";
      return false;
    }
  }
  if (!object.at_key("top_k").get(kv)) {
    int64_t k = 0;
    if (kv.get_int64().get(k) || k < 1) {
      *bad = "field 'top_k' must be an integer of at least 1";
      return false;
    }
    options->top_k = static_cast<uint64_t>(k);
  }
  return true;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes %XX escapes and '+' (a space) of a URL query value; false on a
// bad escape.
bool DecodeQueryValue(std::string_view in, std::string* out) {
  out->clear();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '+') {
      out->push_back(' ');
    } else if (in[i] == '%') {
      if (i + 2 >= in.size()) return false;
      const int hi = HexDigit(in[i + 1]), lo = HexDigit(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      out->push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out->push_back(in[i]);
    }
  }
  return true;
}

}  // namespace

bool QueryParameter(std::string_view target, std::string_view name, std::string* value) {
  const size_t q = target.find('?');
  if (q == std::string_view::npos) return false;
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const size_t eq = pair.find('=');
    if (pair.substr(0, eq) == name) {
      return DecodeQueryValue(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1), value);
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return false;
}

Api::Api(DocIdService* service, const Metrics* metrics) : service_(service), metrics_(metrics) {}

HttpResponse Api::Error(int status, std::string_view message, Route route) {
  std::string body = "{\"status\":\"error\",\"error\":";
  util::AppendJsonString(&body, message);
  body.push_back('}');
  HttpResponse r = Json(std::move(body), route);
  r.status = status;
  return r;
}

HttpResponse Api::Handle(const HttpRequest& req) const {
  const std::string_view path = Path(req.target);
  const bool get = req.method == "GET", post = req.method == "POST";
  auto wrong_method = [&](Route route, const char* allowed) {
    return Error(405, std::string("use ") + allowed + " for " + std::string(path), route);
  };
  if (path == "/v1/docid") return post ? DocId(req.body, Route::kDocId) : wrong_method(Route::kDocId, "POST");
  if (path == "/docId/getDocId") {
    if (!get) return wrong_method(Route::kGetDocId, "GET");
    std::string json;
    if (!QueryParameter(req.target, "json", &json)) {
      return Error(400, "the query must carry the article as json=<url-encoded JSON>", Route::kGetDocId);
    }
    return DocId(json, Route::kGetDocId);
  }
  if (path == "/v1/docid:batch") return post ? Batch(req.body) : wrong_method(Route::kBatch, "POST");
  if (path == "/v1/query") return post ? Query(req.body) : wrong_method(Route::kQuery, "POST");
  if (path.starts_with("/v1/docid/")) {
    return get ? Representative(path.substr(10)) : wrong_method(Route::kLookup, "GET");
  }
  if (path == "/v1/article") return get ? Lookup(req.target) : wrong_method(Route::kLookup, "GET");
  if (path == "/v1/stats") return get ? Stats() : wrong_method(Route::kStats, "GET");
  if (path == "/healthz") return get ? Json("{\"status\":\"ok\"}", Route::kHealth) : wrong_method(Route::kHealth, "GET");
  if (path == "/metrics") {
    if (!get) return wrong_method(Route::kMetrics, "GET");
    HttpResponse r;
    r.content_type = "text/plain; version=0.0.4";
    r.body = metrics_->Render(service_->stats(), service_->options());
    r.route = Route::kMetrics;
    return r;
  }
  return Error(404, "no route " + std::string(path.substr(0, 200)));
}

HttpResponse Api::DocId(std::string_view json, Route route) const {
  ParsedArticle article;
  Status s = ParseArticle(json, service_->options().keep_field, &article);
  if (!s.ok()) return Error(400, s.message(), route);
  DocIdAnswer answer;
  s = service_->Submit(article.view(), &answer);
  if (!s.ok()) return Error(StatusFor(s), s.message(), route);
  return AnswerJson(answer, route);
}

// The answers of a batch, a piece at a time: one answer line per article
// line, in order; a bad line gets an error line and the others are still
// answered. Blank lines are skipped.
class BatchAnswers : public BodyStream {
 public:
  BatchAnswers(const Api* api, std::string_view body) : api_(api), body_(body) {}

  // Appends answers to *out until it holds kBodyPiece bytes or the body
  // has ended. A store failure (a status >= 500) ends it: the lines before
  // were decided (a retry replays them by their ids), the failing one and
  // those after it are not.
  Status Fill(std::string* out) {
    ParsedArticle article;
    while (!body_.empty() && out->size() < kBodyPiece) {
      const size_t nl = body_.find('\n');
      std::string_view line = body_.substr(0, nl);
      body_.remove_prefix(nl == std::string_view::npos ? body_.size() : nl + 1);
      ++line_number_;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
      Status s = ParseArticle(line, api_->service_->options().keep_field, &article);
      DocIdAnswer answer;
      if (s.ok()) s = api_->service_->Submit(article.view(), &answer);
      if (!s.ok()) {
        if (StatusFor(s) >= 500) return s;
        AppendLineError(out, s.message());
        continue;
      }
      AppendAnswer(out, answer);
      out->push_back('\n');
    }
    return Status::OK();
  }

  bool done() const { return body_.empty(); }
  bool failed() const override { return failed_; }

  bool Next(std::string* piece) override {
    piece->clear();
    if (done() || failed_) return false;
    Status s = Fill(piece);
    if (!s.ok()) {
      failed_ = true;
      AppendLineError(piece, s.message() + "; this line and the ones after it were not answered");
    }
    return true;
  }

 private:
  void AppendLineError(std::string* out, std::string_view message) const {
    out->append("{\"status\":\"error\",\"line\":").append(std::to_string(line_number_)).append(",\"error\":");
    util::AppendJsonString(out, message);
    out->append("}\n");
  }

  const Api* api_;
  std::string_view body_;  // what is left to answer
  size_t line_number_ = 0;
  bool failed_ = false;
};

HttpResponse Api::Batch(std::string_view body) const {
  auto answers = std::make_unique<BatchAnswers>(this, body);
  HttpResponse r;
  Status s = answers->Fill(&r.body);
  // A failure in the first piece, before anything is sent, fails the
  // whole answer.
  if (!s.ok()) return Error(StatusFor(s), s.message(), Route::kBatch);
  r.content_type = "application/x-ndjson";
  r.route = Route::kBatch;
  if (!answers->done()) r.rest = std::move(answers);
  return r;
}

std::string WholeBody(HttpResponse* response) {
  std::string body = std::move(response->body), piece;
  while (response->rest != nullptr && response->rest->Next(&piece)) body += piece;
  response->rest.reset();
  return body;
}

HttpResponse Api::Query(std::string_view body) const {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto err = parser.parse(body.data(), body.size()).get(root)) {
    return Error(400, std::string("not valid JSON: ") + simdjson::error_message(err), Route::kQuery);
  }
  simdjson::dom::object object;
  if (root.get_object().get(object)) return Error(400, "the query must be a JSON object", Route::kQuery);
  simdjson::dom::element fingerprints, texts;
  const bool by_fingerprint = !object.at_key("fingerprints").get(fingerprints);
  const bool by_text = !object.at_key("texts").get(texts);
  if (!by_fingerprint && !by_text) {
    // An article: the cascade's answer, nothing inserted.
    ParsedArticle article;
    Status s = ParseArticle(body, service_->options().keep_field, &article);
    if (!s.ok()) return Error(400, s.message() + " (a query is an article, or has 'fingerprints' or 'texts')",
                              Route::kQuery);
    DocIdAnswer answer;
    s = service_->Check(article.view(), &answer);
    if (!s.ok()) return Error(StatusFor(s), s.message(), Route::kQuery);
    return AnswerJson(answer, Route::kQuery);
  }
  Field field = Field::kContent;
  simdjson::dom::element fv;
  if (!object.at_key("field").get(fv)) {
    std::string_view name;
    if (fv.get_string().get(name) || (name != "title" && name != "content")) {
      return Error(400, "field 'field' must be \"title\" or \"content\"", Route::kQuery);
    }
    if (name == "title") field = Field::kTitle;
  }
  int64_t k = field == Field::kTitle ? service_->options().k_title : service_->options().k;
  simdjson::dom::element kv;
  if (!object.at_key("k").get(kv) && kv.get_int64().get(k)) return Error(400, "field 'k' must be an integer", Route::kQuery);
  // A MinHash state matches contents by their texts' signatures.
  const bool minhash = field == Field::kContent && service_->options().content_method == ContentMethod::kMinHash;
  if (minhash && by_fingerprint) {
    return Error(400,
                 "this service matches contents by MinHash signatures of their texts: query contents with \"texts\" "
                 "(fingerprints search titles, with \"field\":\"title\")",
                 Route::kQuery);
  }
  ContentSearchOptions content;
  std::string bad;
  if (!ParseContentSearch(object, &content, &bad)) return Error(400, bad, Route::kQuery);
  if (!minhash && (!content.thresholds.empty() || content.top_k > 0)) {
    return Error(400, std::string("field '") + (content.top_k > 0 ? "top_k" : "threshold") +
                          "' is for contents matched by MinHash", Route::kQuery);
  }
  simdjson::dom::array list;
  if ((by_fingerprint ? fingerprints : texts).get_array().get(list)) {
    return Error(400, std::string("field '") + (by_fingerprint ? "fingerprints" : "texts") + "' must be an array",
                 Route::kQuery);
  }
  if (list.size() > kMaxQueryFingerprints) {
    return Error(400, "at most " + std::to_string(kMaxQueryFingerprints) + " queries per request", Route::kQuery);
  }
  std::string out = "{\"status\":\"success\",\"results\":[";
  std::vector<ServiceMatch> matches;
  size_t i = 0;
  for (simdjson::dom::element e : list) {
    std::string_view s;
    if (e.get_string().get(s)) return Error(400, "query " + std::to_string(i) + " must be a string", Route::kQuery);
    matches.clear();
    Status st;
    std::string fingerprint;  // the result's "fingerprint" field with its comma (none under MinHash)
    if (minhash) {
      st = service_->SearchContent(s, content, &matches);
    } else {
      uint64_t fp = 0;
      bool empty = false;
      if (by_fingerprint) {
        if (!ParseHexFingerprint(s, &fp)) {
          return Error(400, "query " + std::to_string(i) + " is not a fingerprint of 1 to 16 hex digits",
                       Route::kQuery);
        }
      } else {
        const FingerprintResult r = service_->FingerprintText(s);
        empty = r.empty();
        fp = r.fingerprint;
      }
      if (!empty) st = service_->Search(field, fp, static_cast<int>(k), &matches);
      fingerprint = empty ? "\"fingerprint\":null," : "\"fingerprint\":\"" + FormatHexFingerprint(fp) + "\",";
    }
    if (!st.ok()) return Error(StatusFor(st), st.message(), Route::kQuery);
    out.append(i++ > 0 ? ",{" : "{").append(fingerprint).append("\"matches\":");
    AppendMatches(&out, matches);
    out.push_back('}');
  }
  out.append("]}");
  return Json(std::move(out), Route::kQuery);
}

HttpResponse Api::Representative(std::string_view hex) const {
  uint64_t doc_id;
  if (!ParseDocId(hex, &doc_id)) return Error(400, "a docId is 16 hex digits", Route::kLookup);
  std::string json;
  Status s = service_->GetRepresentative(doc_id, &json);
  if (!s.ok()) return Error(StatusFor(s), s.message(), Route::kLookup);
  std::string out = "{\"docId\":\"" + FormatDocId(doc_id) + "\",\"status\":\"success\",\"representative\":";
  out.append(json).push_back('}');
  return Json(std::move(out), Route::kLookup);
}

HttpResponse Api::Lookup(std::string_view target) const {
  std::string id;
  if (!QueryParameter(target, "id", &id) || id.empty()) {
    return Error(400, "the query must carry the article id as JSON: id=42 or id=%22a-1%22", Route::kLookup);
  }
  std::string id_json;
  Status s = ParseArticleId(id, "the id", &id_json);
  if (!s.ok()) return Error(400, s.message(), Route::kLookup);
  DocIdAnswer answer;
  s = service_->LookupArticle(id_json, &answer);
  if (!s.ok()) return Error(StatusFor(s), s.message(), Route::kLookup);
  return AnswerJson(answer, Route::kLookup);
}

HttpResponse Api::Stats() const {
  const ServiceStats s = service_->stats();
  const ServiceOptions& o = service_->options();
  std::string out = "{\"status\":\"success\"";
  auto field = [&](const char* name, uint64_t v) { out.append(",\"").append(name).append("\":").append(std::to_string(v)); };
  for (const StatsField& f : StatsFields()) {
    if (f.json != nullptr) field(f.json, static_cast<uint64_t>(f.value(s, o)));
  }
  for (int i = 0; i < 4; ++i) {
    field((std::string("reason_") + FilterReasonName(static_cast<FilterReason>(i))).c_str(), s.by_reason[i]);
  }
  for (int i = 0; i < 4; ++i) {
    field((std::string("total_reason_") + FilterReasonName(static_cast<FilterReason>(i))).c_str(), s.total_by_reason[i]);
  }
  out.append(",\"last_error\":");
  util::AppendJsonString(&out, s.last_error);
  out.append(",\"profile\":");
  util::AppendJsonString(&out, service_->profile());
  out.append(",\"content_method\":\"").append(ContentMethodName(o.content_method)).push_back('"');
  if (o.content_method == ContentMethod::kMinHash) {
    char threshold[32];
    std::snprintf(threshold, sizeof threshold, "%g", o.threshold);
    out.append(",\"threshold\":").append(threshold);
    out.append(",\"minhash_profile\":");
    util::AppendJsonString(&out, MinHashProfile(o.minhash));
  }
  out.push_back('}');
  return Json(std::move(out), Route::kStats);
}

}  // namespace simdex::service
