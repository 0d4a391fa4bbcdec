/* MinHash-LSH indexes through the C interface, compiled as C11.
 * Usage: capi_lsh_test DIR SIMHASH_INDEX
 *   DIR            written by capi_lsh_fixture: signatures.txt, lsh.sdx and
 *                  lsh_strings.sdx (the same documents under "doc-<id>")
 *   SIMHASH_INDEX  a SimHash index
 * Checks every document's query, at the default filter, at 0 and at 0.5,
 * one at a time and all in one batch (on one and three threads), against a
 * brute-force oracle written from docs/minhash.md (band keys:
 * XXH3-64 of a band's rows as little-endian 32-bit words, seed = the band;
 * the b-bit estimate corrected for chance agreements); the statistics; the
 * kinds of both files and each open function's refusal of the other kind
 * naming both; string ids; capacity, num_perm and NULL errors; query-time
 * thresholds (each match labelled with the highest it passes) and top-k,
 * against the same oracle. Exits 0 when every check passes. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "simdex/simdex_c.h"
#include "check.h"

enum { kNumPerm = 32, kBands = 8, kRows = 4, kBits = 4, kMaxDocs = 1000 };

static uint64_t ids[kMaxDocs];
static uint32_t sigs[kMaxDocs][kNumPerm];
static uint64_t keys[kMaxDocs][kBands];
static int empty[kMaxDocs];
static size_t docs = 0;

static void band_keys(const uint32_t* s, uint64_t* out) {
  for (int j = 0; j < kBands; ++j) {
    unsigned char bytes[4 * kRows];
    for (int r = 0; r < kRows; ++r) {
      const uint32_t v = s[j * kRows + r];
      for (int b = 0; b < 4; ++b) bytes[4 * r + b] = (unsigned char)(v >> (8 * b));
    }
    out[j] = XXH3_64bits_withSeed(bytes, sizeof(bytes), (XXH64_hash_t)j);
  }
}

static double estimate(const uint32_t* a, const uint32_t* b) {
  const uint32_t mask = (1u << kBits) - 1;
  int equal = 0;
  for (int i = 0; i < kNumPerm; ++i) equal += (a[i] & mask) == (b[i] & mask);
  const double p = (double)equal / kNumPerm, chance = 1.0 / (1 << kBits);
  const double e = (p - chance) / (1 - chance);
  return e < 0 ? 0 : e > 1 ? 1 : e;
}

static void read_signatures(const char* path) {
  FILE* f = fopen(path, "r");
  REQUIRE(f != NULL);
  while (docs < kMaxDocs && fscanf(f, "%" SCNu64, &ids[docs]) == 1) {
    empty[docs] = 1;
    for (int i = 0; i < kNumPerm; ++i) {
      REQUIRE(fscanf(f, "%" SCNx32, &sigs[docs][i]) == 1);
      empty[docs] &= sigs[docs][i] == 0xffffffffu;
    }
    band_keys(sigs[docs], keys[docs]);
    ++docs;
  }
  fclose(f);
  REQUIRE(docs > 100);
}

/* The oracle: documents sharing a band key with q (empty signatures are in
 * no band) with an estimate >= min_estimate, in id order. */
static size_t brute_force(const uint32_t* q, double min_estimate, simdex_lsh_match* out) {
  uint64_t qk[kBands];
  band_keys(q, qk);
  int q_empty = 1;
  for (int i = 0; i < kNumPerm; ++i) q_empty &= q[i] == 0xffffffffu;
  size_t n = 0;
  for (size_t d = 0; d < docs && !q_empty; ++d) {
    int shared = 0;
    for (int j = 0; j < kBands && !empty[d]; ++j) shared |= keys[d][j] == qk[j];
    const double e = estimate(q, sigs[d]);
    if (shared && e >= min_estimate) {
      size_t at = n++;
      while (at > 0 && out[at - 1].id > ids[d]) {  /* insertion by id */
        out[at] = out[at - 1];
        --at;
      }
      out[at].id = ids[d];
      out[at].estimate = e;
    }
  }
  return n;
}

static simdex_lsh_index* open_lsh(const char* path) {
  simdex_lsh_index* idx = NULL;
  char* err = NULL;
  simdex_code rc = simdex_lsh_index_open(path, 1, &idx, &err);
  if (rc != SIMDEX_OK) {
    fprintf(stderr, "open %s: %s: %s\n", path, simdex_code_name(rc), err ? err : "");
    exit(1);
  }
  return idx;
}

static void check_queries(simdex_lsh_index* idx, double default_filter) {
  static simdex_lsh_match got[kMaxDocs], want[kMaxDocs];
  const double filters[] = {-1, 0, 0.5};
  size_t total = 0;
  for (int f = 0; f < 3; ++f) {
    for (size_t d = 0; d < docs; ++d) {
      size_t n = 0;
      char* err = NULL;
      CHECK(simdex_lsh_index_query(idx, sigs[d], kNumPerm, filters[f], got, kMaxDocs, &n, &err) == SIMDEX_OK);
      CHECK(err == NULL);
      const size_t m = brute_force(sigs[d], filters[f] < 0 ? default_filter : filters[f], want);
      CHECK(n == m);
      for (size_t i = 0; i < n && i < m; ++i) {
        CHECK(got[i].id == want[i].id);
        CHECK(fabs(got[i].estimate - want[i].estimate) < 1e-12);
      }
      if (!empty[d] && filters[f] == 0) CHECK(n >= 1);  /* finds itself */
      total += n;
    }
  }
  CHECK(total > 3 * docs);  /* the clusters are found */
}

static int contains(const char* s, const char* part) { return s != NULL && strstr(s, part) != NULL; }

/* Every document's signature in one batch (simdex_lsh_index_query_batch),
 * on one thread and on three, at each filter: each query's offsets and
 * matches against the oracle; then the batch's own errors. */
static void check_batch(simdex_lsh_index* idx, double default_filter) {
  static simdex_lsh_match want[kMaxDocs];
  const double filters[] = {-1, 0, 0.5};
  for (int threads = 1; threads <= 3; threads += 2) {
    for (int f = 0; f < 3; ++f) {
      simdex_lsh_results* r = NULL;
      char* err = (char*)1;
      REQUIRE(simdex_lsh_index_query_batch(idx, &sigs[0][0], docs, kNumPerm, filters[f], threads, &r, &err) ==
              SIMDEX_OK);
      CHECK(err == NULL);
      REQUIRE(simdex_lsh_results_nq(r) == docs);
      const size_t* lims = simdex_lsh_results_lims(r);
      const simdex_lsh_match* got = simdex_lsh_results_matches(r);
      CHECK(lims[0] == 0 && got != NULL);
      for (size_t d = 0; d < docs; ++d) {
        const size_t m = brute_force(sigs[d], filters[f] < 0 ? default_filter : filters[f], want);
        CHECK(lims[d + 1] - lims[d] == m);
        for (size_t i = 0; i < m && lims[d] + i < lims[d + 1]; ++i) {
          CHECK(got[lims[d] + i].id == want[i].id);
          CHECK(fabs(got[lims[d] + i].estimate - want[i].estimate) < 1e-12);
        }
      }
      simdex_lsh_results_free(r);
    }
  }
  simdex_lsh_results* r = (simdex_lsh_results*)1;
  char* err = NULL;
  CHECK(simdex_lsh_index_query_batch(idx, NULL, 0, kNumPerm, -1, 1, &r, NULL) == SIMDEX_OK);
  CHECK(simdex_lsh_results_nq(r) == 0 && simdex_lsh_results_lims(r)[0] == 0 && simdex_lsh_results_matches(r) == NULL);
  simdex_lsh_results_free(r);
  CHECK(simdex_lsh_index_query_batch(idx, &sigs[0][0], 2, kNumPerm + 1, -1, 1, &r, &err) == SIMDEX_INVALID_ARGUMENT &&
        r == NULL);
  CHECK(contains(err, "33 values where the index's have 32"));
  simdex_free_string(err);
  CHECK(simdex_lsh_index_query_batch(idx, &sigs[0][0], 2, kNumPerm, 2, 1, &r, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_lsh_index_query_batch(idx, &sigs[0][0], 2, kNumPerm, -1, 0, &r, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_lsh_index_query_batch(idx, NULL, 2, kNumPerm, -1, 1, &r, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_lsh_index_query_batch(idx, &sigs[0][0], 2, kNumPerm, -1, 1, NULL, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_lsh_index_query_batch(NULL, &sigs[0][0], 2, kNumPerm, -1, 1, &r, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_lsh_results_nq(NULL) == 0 && simdex_lsh_results_lims(NULL) == NULL);
  simdex_lsh_results_free(NULL);
}

/* A threshold's filter, as docs/minhash.md states it: two standard errors
 * below it. */
static double filter_of(double t) {
  const double f = t - 2 * sqrt(t * (1 - t) / kNumPerm);
  return f < 0 ? 0 : f;
}

/* The oracle of query-time options: the candidates (filter 0) that pass
 * the lowest threshold, each labelled with the highest it passes, then
 * (top_k > 0) the K highest estimates, highest first, equal ones by id. */
static size_t brute_force_options(const uint32_t* q, const double* thresholds, size_t nt, uint64_t top_k,
                                  simdex_lsh_match* out, double* labels) {
  static simdex_lsh_match all[kMaxDocs];
  const size_t candidates = brute_force(q, 0, all);
  size_t n = 0;
  for (size_t i = 0; i < candidates; ++i) {
    double label = 0;
    for (size_t t = 0; t < nt; ++t) {
      if (all[i].estimate >= filter_of(thresholds[t]) && thresholds[t] > label) label = thresholds[t];
    }
    if (label == 0) continue;
    size_t at = n++;
    while (top_k > 0 && at > 0 && out[at - 1].estimate < all[i].estimate) {  /* stable: ids stay ascending */
      out[at] = out[at - 1];
      labels[at] = labels[at - 1];
      --at;
    }
    out[at] = all[i];
    labels[at] = label;
  }
  return top_k > 0 && n > top_k ? (size_t)top_k : n;
}

/* Query-time thresholds and top-k (simdex_lsh_*_with_options): every
 * document's query, one at a time and in a batch on one and three threads,
 * against the oracle, labels included; the defaults; the options' errors. */
/* A query of the first signature with options o is refused with an
 * invalid argument whose message contains `message`. */
static void check_refused(simdex_lsh_index* idx, const simdex_lsh_query_options* o, const char* message) {
  static simdex_lsh_match got[kMaxDocs];
  char* err = NULL;
  size_t n = 9;
  CHECK(simdex_lsh_index_query_with_options(idx, sigs[0], kNumPerm, o, got, NULL, kMaxDocs, &n, &err) ==
            SIMDEX_INVALID_ARGUMENT && n == 0);
  CHECK(contains(err, message));
  simdex_free_string(err);
}

static void check_query_options(simdex_lsh_index* idx, double default_filter) {
  static simdex_lsh_match got[kMaxDocs], want[kMaxDocs];
  static double got_labels[kMaxDocs], want_labels[kMaxDocs];
  const double sets[][3] = {{0.8, 0, 0}, {0.95, 0.8, 0.9}, {1.0, 0.85, 0}};
  const size_t set_sizes[] = {1, 3, 2};
  const uint64_t top_ks[] = {0, 1, 3};
  size_t labelled_above_lowest = 0, cut = 0;
  for (int t = 0; t < 3; ++t) {
    for (int k = 0; k < 3; ++k) {
      simdex_lsh_query_options o;
      simdex_lsh_query_options_init(&o);
      o.thresholds = sets[t];
      o.threshold_count = set_sizes[t];
      o.top_k = top_ks[k];
      for (size_t d = 0; d < docs; ++d) {
        size_t n = 0;
        char* err = NULL;
        CHECK(simdex_lsh_index_query_with_options(idx, sigs[d], kNumPerm, &o, got, got_labels, kMaxDocs, &n, &err) ==
              SIMDEX_OK);
        CHECK(err == NULL);
        const size_t m = brute_force_options(sigs[d], sets[t], set_sizes[t], top_ks[k], want, want_labels);
        CHECK(n == m);
        for (size_t i = 0; i < n && i < m; ++i) {
          CHECK(got[i].id == want[i].id && fabs(got[i].estimate - want[i].estimate) < 1e-12);
          CHECK(got_labels[i] == want_labels[i]);
          labelled_above_lowest += got_labels[i] > 0.8 && got_labels[i] < 1.0;
        }
        if (top_ks[k] > 0) cut += m == top_ks[k];
      }
      for (int threads = 1; threads <= 3; threads += 2) {
        simdex_lsh_results* r = NULL;
        REQUIRE(simdex_lsh_index_query_batch_with_options(idx, &sigs[0][0], docs, kNumPerm, &o, threads, &r, NULL) ==
                SIMDEX_OK);
        const size_t* lims = simdex_lsh_results_lims(r);
        const simdex_lsh_match* matches = simdex_lsh_results_matches(r);
        const double* labels = simdex_lsh_results_thresholds(r);
        CHECK(labels != NULL);
        for (size_t d = 0; d < docs && labels != NULL; ++d) {
          const size_t m = brute_force_options(sigs[d], sets[t], set_sizes[t], top_ks[k], want, want_labels);
          CHECK(lims[d + 1] - lims[d] == m);
          for (size_t i = 0; i < m && lims[d] + i < lims[d + 1]; ++i) {
            CHECK(matches[lims[d] + i].id == want[i].id && labels[lims[d] + i] == want_labels[i]);
          }
        }
        simdex_lsh_results_free(r);
      }
    }
  }
  CHECK(labelled_above_lowest > 0 && cut > 0);  /* the labels and the cut are exercised */

  /* The defaults: the index's filter, every match, no labels; NULL options
   * alike; top_k alone ranks the default filter's matches. */
  simdex_lsh_query_options o;
  memset(&o, 0xff, sizeof(o));
  simdex_lsh_query_options_init(&o);
  CHECK(o.min_estimate < 0 && o.thresholds == NULL && o.threshold_count == 0 && o.top_k == 0);
  CHECK(o.reserved[0] == 0 && o.reserved[1] == 0 && o.reserved[2] == 0);
  simdex_lsh_query_options_init(NULL);
  simdex_lsh_results* r = NULL;
  REQUIRE(simdex_lsh_index_query_batch_with_options(idx, &sigs[0][0], docs, kNumPerm, NULL, 1, &r, NULL) == SIMDEX_OK);
  CHECK(simdex_lsh_results_thresholds(r) == NULL);
  for (size_t d = 0; d < docs; ++d) {
    const size_t m = brute_force(sigs[d], default_filter, want);
    CHECK(simdex_lsh_results_lims(r)[d + 1] - simdex_lsh_results_lims(r)[d] == m);
  }
  simdex_lsh_results_free(r);
  o.top_k = 2;
  for (size_t d = 0; d < docs; ++d) {
    size_t n = 0;
    CHECK(simdex_lsh_index_query_with_options(idx, sigs[d], kNumPerm, &o, got, NULL, kMaxDocs, &n, NULL) ==
          SIMDEX_OK);
    const size_t m = brute_force(sigs[d], default_filter, want);
    CHECK(n == (m < 2 ? m : 2));
    if (n == 2) CHECK(got[0].estimate >= got[1].estimate);
  }

  /* Errors, each a code and one line naming the option, before any query. */
  char* err = NULL;
  size_t n = 9;
  const double below[] = {0.9, 0.7}, above[] = {1.5}, half[] = {0.85};
  simdex_lsh_query_options_init(&o);
  o.thresholds = below;
  o.threshold_count = 2;
  CHECK(simdex_lsh_index_query_with_options(idx, sigs[0], kNumPerm, &o, got, NULL, kMaxDocs, &n, &err) ==
            SIMDEX_INVALID_ARGUMENT && n == 0);
  CHECK(contains(err, "threshold 0.7 is below the index's 0.8"));
  simdex_free_string(err);
  r = (simdex_lsh_results*)1;
  CHECK(simdex_lsh_index_query_texts_with_options(idx, NULL, NULL, 0, &o, 1, &r, &err) == SIMDEX_INVALID_ARGUMENT &&
        r == NULL);
  CHECK(contains(err, "threshold 0.7 is below"));
  simdex_free_string(err);
  o.thresholds = above;
  o.threshold_count = 1;
  CHECK(simdex_lsh_index_query_batch_with_options(idx, &sigs[0][0], 1, kNumPerm, &o, 1, &r, &err) ==
        SIMDEX_INVALID_ARGUMENT);
  CHECK(contains(err, "threshold 1.5 is not in (0, 1]"));
  simdex_free_string(err);
  o.thresholds = half;
  o.min_estimate = 0.5;
  check_refused(idx, &o, "two filters");
  simdex_lsh_query_options_init(&o);
  o.threshold_count = 1;
  check_refused(idx, &o, "thresholds is NULL");
  simdex_lsh_query_options_init(&o);
  o.reserved[2] = 1;
  check_refused(idx, &o, "reserved[2] is not 0");
  CHECK(simdex_lsh_results_thresholds(NULL) == NULL);
}

static void check_kinds(const char* lsh, const char* simhash) {
  int kind = 7;
  char* err = NULL;
  CHECK(simdex_index_kind(lsh, &kind, &err) == SIMDEX_OK && kind == SIMDEX_KIND_MINHASH_LSH && err == NULL);
  CHECK(simdex_index_kind(simhash, &kind, &err) == SIMDEX_OK && kind == SIMDEX_KIND_SIMHASH);
  CHECK(simdex_index_kind("/nonexistent/x.sdx", &kind, &err) == SIMDEX_IO_ERROR && kind == -1);
  simdex_free_string(err);
  CHECK(simdex_index_kind(NULL, &kind, NULL) == SIMDEX_INVALID_ARGUMENT);

  simdex_index* s = (simdex_index*)1;
  CHECK(simdex_index_open(lsh, 0, &s, &err) == SIMDEX_INVALID_ARGUMENT && s == NULL);
  CHECK(contains(err, "a MinHash-LSH index where a SimHash index is needed"));
  CHECK(contains(err, "simdex_lsh_index_open"));
  simdex_free_string(err);
  simdex_lsh_index* l = (simdex_lsh_index*)1;
  CHECK(simdex_lsh_index_open(simhash, 0, &l, &err) == SIMDEX_INVALID_ARGUMENT && l == NULL);
  CHECK(contains(err, "a SimHash index where a MinHash-LSH index is needed"));
  CHECK(contains(err, "simdex_index_open"));
  simdex_free_string(err);
}

static void check_errors(simdex_lsh_index* idx) {
  simdex_lsh_match few[2];
  size_t n = 99;
  char* err = NULL;
  /* Capacity: the total is reported, the first matches copied. */
  size_t d = 0;
  simdex_lsh_match all[kMaxDocs];
  size_t total = 0;
  for (d = 0; d < docs; ++d) {
    CHECK(simdex_lsh_index_query(idx, sigs[d], kNumPerm, 0, all, kMaxDocs, &total, NULL) == SIMDEX_OK);
    if (total > 2) break;
  }
  REQUIRE(d < docs);
  CHECK(simdex_lsh_index_query(idx, sigs[d], kNumPerm, 0, few, 2, &n, NULL) == SIMDEX_OK && n == total);
  CHECK(few[0].id == all[0].id && few[1].id == all[1].id);
  CHECK(simdex_lsh_index_query(idx, sigs[d], kNumPerm, 0, NULL, 0, &n, NULL) == SIMDEX_OK && n == total);

  CHECK(simdex_lsh_index_query(idx, sigs[0], kNumPerm - 1, -1, few, 2, &n, &err) == SIMDEX_INVALID_ARGUMENT && n == 0);
  CHECK(contains(err, "31 values where the index's have 32"));
  simdex_free_string(err);
  CHECK(simdex_lsh_index_query(idx, sigs[0], kNumPerm, 1.5, few, 2, &n, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_lsh_index_query(idx, sigs[0], kNumPerm, NAN, few, 2, &n, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_lsh_index_query(idx, NULL, kNumPerm, -1, few, 2, &n, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_lsh_index_query(idx, sigs[0], kNumPerm, -1, NULL, 2, &n, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_lsh_index_query(NULL, sigs[0], kNumPerm, -1, few, 2, &n, NULL) == SIMDEX_INVALID_ARGUMENT);

  const char* data = "x";
  size_t size = 9;
  CHECK(simdex_lsh_index_has_string_ids(idx) == 0);
  CHECK(simdex_lsh_index_id_string(idx, 0, &data, &size, &err) == SIMDEX_INVALID_ARGUMENT && data == NULL && size == 0);
  simdex_free_string(err);
  uint64_t number = 0;
  CHECK(simdex_lsh_index_find_id(idx, "doc-1", 5, &number, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_lsh_index_stats(NULL, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_lsh_index_profile(NULL) == NULL);
  simdex_lsh_index_close(NULL);
}

static void check_string_ids(const char* path) {
  simdex_lsh_index* idx = open_lsh(path);
  CHECK(simdex_lsh_index_has_string_ids(idx) == 1);
  static simdex_lsh_match got[kMaxDocs];
  for (size_t d = 0; d < docs; d += 5) {
    size_t n = 0;
    CHECK(simdex_lsh_index_query(idx, sigs[d], kNumPerm, 0, got, kMaxDocs, &n, NULL) == SIMDEX_OK);
    char want[32];
    snprintf(want, sizeof(want), "doc-%" PRIu64, ids[d]);
    int found = 0;
    for (size_t i = 0; i < n; ++i) {
      const char* data = NULL;
      size_t size = 0;
      CHECK(simdex_lsh_index_id_string(idx, got[i].id, &data, &size, NULL) == SIMDEX_OK);
      if (size == strlen(want) && memcmp(data, want, size) == 0) found = got[i].estimate == 1.0;
    }
    CHECK(found == !empty[d]);
    uint64_t number = 0;
    CHECK(simdex_lsh_index_find_id(idx, want, strlen(want), &number, NULL) == SIMDEX_OK);
    const char* data = NULL;
    size_t size = 0;
    CHECK(simdex_lsh_index_id_string(idx, number, &data, &size, NULL) == SIMDEX_OK && size == strlen(want) &&
          memcmp(data, want, size) == 0);
  }
  uint64_t number = 0;
  char* err = NULL;
  CHECK(simdex_lsh_index_find_id(idx, "doc-x", 5, &number, &err) == SIMDEX_NOT_FOUND);
  simdex_free_string(err);
  const char* data = NULL;
  size_t size = 0;
  CHECK(simdex_lsh_index_id_string(idx, docs, &data, &size, NULL) == SIMDEX_INVALID_ARGUMENT);
  simdex_lsh_index_close(idx);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: capi_lsh_test DIR SIMHASH_INDEX\n");
    return 2;
  }
  char path[4096];
  snprintf(path, sizeof(path), "%s/signatures.txt", argv[1]);
  read_signatures(path);
  snprintf(path, sizeof(path), "%s/lsh.sdx", argv[1]);
  simdex_lsh_index* idx = open_lsh(path);

  simdex_lsh_index_info info;
  REQUIRE(simdex_lsh_index_stats(idx, &info) == SIMDEX_OK);
  CHECK(info.documents == docs && info.banded_documents == docs - 2);
  CHECK(info.num_perm == kNumPerm && info.bands == kBands && info.rows == kRows && info.signature_bits == kBits);
  CHECK(info.seed == 1 && info.threshold == 0.8 && info.total_bytes > 0);
  CHECK(fabs(info.default_min_estimate - (0.8 - 2 * sqrt(0.8 * 0.2 / kNumPerm))) < 1e-12);
  char* profile = simdex_lsh_index_profile(idx);
  CHECK(contains(profile, "simdex-minhash/1") && contains(profile, "perm:32 seed:1"));
  simdex_free_string(profile);

  check_queries(idx, info.default_min_estimate);
  check_batch(idx, info.default_min_estimate);
  check_query_options(idx, info.default_min_estimate);
  check_errors(idx);
  check_kinds(path, argv[2]);
  simdex_lsh_index_close(idx);
  snprintf(path, sizeof(path), "%s/lsh_strings.sdx", argv[1]);
  check_string_ids(path);

  return finish("capi_lsh_test");
}
