/* Uses the C interface (simdex/simdex_c.h) as a C program would, compiled as
 * C11. Usage: capi_test INDEX FINGERPRINTS SCRATCH_DIR
 *   INDEX         an index built from FINGERPRINTS (by the CTest fixture)
 *   FINGERPRINTS  its input, "<id>\t<16 hex>" lines (and "<id>\t-\t<reason>")
 *   SCRATCH_DIR   a directory where the test writes damaged files
 * Checks single and batch searches against a brute-force scan of
 * FINGERPRINTS, the capacity/count protocol, the statistics, and the error
 * paths (missing file, garbage, truncated file, bad arguments). Exits 0 when
 * every check passes. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdex/simdex_c.h"
#include "check.h"

typedef struct {
  uint64_t* ids;
  uint64_t* fingerprints;
  size_t n;
} entries;

static entries load_fingerprints(const char* path) {
  entries e = {NULL, NULL, 0};
  size_t cap = 0;
  char line[256];
  FILE* f = fopen(path, "r");
  REQUIRE(f != NULL);
  while (fgets(line, sizeof(line), f) != NULL) {
    uint64_t id, fp;
    char hex[17];
    if (sscanf(line, "%" SCNu64 "\t%16[0-9a-fA-F]", &id, hex) != 2) continue; /* empty documents */
    fp = strtoull(hex, NULL, 16);
    if (e.n == cap) {
      cap = cap ? 2 * cap : 256;
      e.ids = realloc(e.ids, cap * sizeof(uint64_t));
      e.fingerprints = realloc(e.fingerprints, cap * sizeof(uint64_t));
      REQUIRE(e.ids != NULL && e.fingerprints != NULL);
    }
    e.ids[e.n] = id;
    e.fingerprints[e.n] = fp;
    ++e.n;
  }
  fclose(f);
  return e;
}

static int popcount64(uint64_t x) {
  int c = 0;
  for (; x; x &= x - 1) ++c;
  return c;
}

static int compare_matches(const void* a, const void* b) {
  const simdex_match* x = a;
  const simdex_match* y = b;
  if (x->distance != y->distance) return x->distance < y->distance ? -1 : 1;
  if (x->id != y->id) return x->id < y->id ? -1 : 1;
  if (x->fingerprint != y->fingerprint) return x->fingerprint < y->fingerprint ? -1 : 1;
  return 0;
}

/* The expected matches of query within k, in the documented order; returns
 * their number. out holds e->n entries. */
static size_t brute_force(const entries* e, uint64_t query, int k, simdex_match* out) {
  size_t n = 0;
  for (size_t i = 0; i < e->n; ++i) {
    int d = popcount64(e->fingerprints[i] ^ query);
    if (d <= k) {
      simdex_match m = {e->ids[i], e->fingerprints[i], d, 0};
      out[n++] = m;
    }
  }
  qsort(out, n, sizeof(simdex_match), compare_matches);
  return n;
}

static int same_matches(const simdex_match* a, const simdex_match* b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (a[i].id != b[i].id || a[i].fingerprint != b[i].fingerprint ||
        a[i].distance != b[i].distance || a[i].reserved != 0) {
      return 0;
    }
  }
  return 1;
}

static uint64_t xorshift(uint64_t* state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

/* Queries near stored fingerprints (0 to 4 bits flipped) and random ones. */
static uint64_t* make_queries(const entries* e, size_t* nq) {
  uint64_t state = 0x9E3779B97F4A7C15u;
  *nq = e->n + 50;
  uint64_t* q = malloc(*nq * sizeof(uint64_t));
  REQUIRE(q != NULL);
  for (size_t i = 0; i < e->n; ++i) {
    q[i] = e->fingerprints[i];
    for (size_t f = 0; f < i % 5; ++f) q[i] ^= (uint64_t)1 << (xorshift(&state) % 64);
  }
  for (size_t i = e->n; i < *nq; ++i) q[i] = xorshift(&state);
  return q;
}

static void check_single_searches(simdex_index* idx, const entries* e, const uint64_t* queries,
                                  size_t nq, int max_k) {
  simdex_match* want = malloc(e->n * sizeof(simdex_match));
  simdex_match* got = malloc(e->n * sizeof(simdex_match));
  REQUIRE(want != NULL && got != NULL);
  size_t nonempty = 0;
  for (int k = 0; k <= max_k; ++k) {
    for (size_t i = 0; i < nq; ++i) {
      size_t n_want = brute_force(e, queries[i], k, want);
      size_t count = 12345;
      char* err = (char*)"untouched";
      simdex_code rc = simdex_index_search(idx, queries[i], k, got, e->n, &count, &err);
      CHECK(rc == SIMDEX_OK);
      CHECK(err == NULL);
      CHECK(count == n_want);
      CHECK(count == n_want && same_matches(got, want, n_want));
      if (n_want > 0) ++nonempty;
    }
  }
  CHECK(nonempty > nq); /* the planted near-duplicates are found */
  free(want);
  free(got);
}

static void check_capacity_protocol(simdex_index* idx, const entries* e, int k) {
  /* Entry 0's fingerprint is stored, so it has at least one match. */
  simdex_match one[1];
  size_t count = 0;
  CHECK(simdex_index_search(idx, e->fingerprints[0], k, NULL, 0, &count, NULL) == SIMDEX_OK);
  CHECK(count >= 1);
  size_t total = count;
  CHECK(simdex_index_search(idx, e->fingerprints[0], k, one, 1, &count, NULL) == SIMDEX_OK);
  CHECK(count == total);
  CHECK(one[0].distance == 0);
}

static void check_batch_search(simdex_index* idx, const entries* e, const uint64_t* queries,
                               size_t nq, int k) {
  simdex_results* results = NULL;
  char* err = NULL;
  CHECK(simdex_index_search_batch(idx, queries, nq, k, 2, &results, &err) == SIMDEX_OK);
  REQUIRE(results != NULL);
  CHECK(err == NULL);
  CHECK(simdex_results_nq(results) == nq);
  const size_t* lims = simdex_results_lims(results);
  const simdex_match* matches = simdex_results_matches(results);
  simdex_match* want = malloc(e->n * sizeof(simdex_match));
  REQUIRE(want != NULL && lims != NULL && lims[0] == 0);
  for (size_t i = 0; i < nq; ++i) {
    size_t n_want = brute_force(e, queries[i], k, want);
    CHECK(lims[i + 1] - lims[i] == n_want);
    CHECK(lims[i + 1] - lims[i] == n_want && same_matches(matches + lims[i], want, n_want));
  }
  free(want);
  simdex_results_free(results);

  CHECK(simdex_index_search_batch(idx, NULL, 0, k, 1, &results, NULL) == SIMDEX_OK);
  CHECK(simdex_results_nq(results) == 0 && simdex_results_lims(results)[0] == 0);
  CHECK(simdex_results_matches(results) == NULL);
  simdex_results_free(results);
}

/* errmsg is read after the call that fills it has run (argument order is
 * unspecified in C, so the message is passed by address). */
static void expect_error(simdex_code rc, char** errmsg, simdex_code want, const char* what) {
  char* err = *errmsg;
  if (rc != want) {
    fprintf(stderr, "%s: got %s, want %s (%s)\n", what, simdex_code_name(rc),
            simdex_code_name(want), err ? err : "no message");
    ++failures;
  } else if (err == NULL || err[0] == '\0') {
    fprintf(stderr, "%s: %s without a message\n", what, simdex_code_name(rc));
    ++failures;
  } else {
    printf("%s: %s: %s\n", what, simdex_code_name(rc), err);
  }
  simdex_free_string(err);
  *errmsg = NULL;
}

static void check_bad_arguments(simdex_index* idx, int max_k) {
  simdex_match m[4];
  const uint64_t query = 0;
  size_t count = 7;
  char* err = NULL;
  simdex_results* results = NULL;
  expect_error(simdex_index_search(idx, 0, max_k + 1, m, 4, &count, &err), &err,
               SIMDEX_INVALID_ARGUMENT, "k above the scheme's k");
  CHECK(count == 0);
  expect_error(simdex_index_search(idx, 0, -1, m, 4, &count, &err), &err, SIMDEX_INVALID_ARGUMENT,
               "negative k");
  expect_error(simdex_index_search(NULL, 0, 0, m, 4, &count, &err), &err, SIMDEX_INVALID_ARGUMENT,
               "NULL handle");
  expect_error(simdex_index_search(idx, 0, 0, NULL, 4, &count, &err), &err,
               SIMDEX_INVALID_ARGUMENT, "NULL out with capacity");
  expect_error(simdex_index_search_batch(idx, NULL, 3, 0, 1, &results, &err), &err,
               SIMDEX_INVALID_ARGUMENT, "NULL queries");
  CHECK(results == NULL);
  expect_error(simdex_index_search_batch(idx, &query, 1, 0, 0, &results, &err), &err,
               SIMDEX_INVALID_ARGUMENT, "zero threads");
  expect_error(simdex_index_search_batch(idx, &query, 1, max_k + 1, 1, &results, &err), &err,
               SIMDEX_INVALID_ARGUMENT, "batch k above the scheme's k");
  CHECK(simdex_index_stats(NULL, NULL) == SIMDEX_INVALID_ARGUMENT);
}

static void write_file(const char* path, const unsigned char* bytes, size_t n) {
  FILE* f = fopen(path, "wb");
  REQUIRE(f != NULL);
  REQUIRE(fwrite(bytes, 1, n, f) == n);
  REQUIRE(fclose(f) == 0);
}

static unsigned char* read_file(const char* path, size_t* n) {
  FILE* f = fopen(path, "rb");
  REQUIRE(f != NULL);
  REQUIRE(fseek(f, 0, SEEK_END) == 0);
  long size = ftell(f);
  REQUIRE(size > 0);
  rewind(f);
  unsigned char* bytes = malloc((size_t)size);
  REQUIRE(bytes != NULL && fread(bytes, 1, (size_t)size, f) == (size_t)size);
  fclose(f);
  *n = (size_t)size;
  return bytes;
}

static void expect_open_error(const char* path, simdex_code want, const char* what) {
  simdex_index* idx = (simdex_index*)&failures; /* must be reset to NULL */
  char* err = NULL;
  expect_error(simdex_index_open(path, 0, &idx, &err), &err, want, what);
  CHECK(idx == NULL);
}

static void check_open_errors(const char* index_path, const char* scratch) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/no-such-index.sdx", scratch);
  expect_open_error(path, SIMDEX_IO_ERROR, "missing file");

  unsigned char garbage[8192];
  uint64_t state = 12345;
  for (size_t i = 0; i < sizeof(garbage); ++i) garbage[i] = (unsigned char)xorshift(&state);
  snprintf(path, sizeof(path), "%s/garbage.sdx", scratch);
  write_file(path, garbage, sizeof(garbage));
  expect_open_error(path, SIMDEX_CORRUPTION, "garbage file");

  size_t n = 0;
  unsigned char* bytes = read_file(index_path, &n);
  snprintf(path, sizeof(path), "%s/truncated.sdx", scratch);
  write_file(path, bytes, n / 2);
  expect_open_error(path, SIMDEX_CORRUPTION, "truncated file");
  free(bytes);

  simdex_index* idx = NULL;
  char* err = NULL;
  expect_error(simdex_index_open(NULL, 0, &idx, &err), &err, SIMDEX_INVALID_ARGUMENT, "NULL path");
}

/* Puts a copy of src at path the way simdex build and merge do: written to
 * a temporary and renamed over it. */
static void replace_with_copy(const char* path, const char* src_path, size_t keep) {
  char tmp[4200];
  size_t n = 0;
  unsigned char* bytes = read_file(src_path, &n);
  snprintf(tmp, sizeof(tmp), "%s.tmp", path);
  write_file(tmp, bytes, keep < n ? keep : n);
  REQUIRE(rename(tmp, path) == 0);
  free(bytes);
}

/* simdex_index_reload: nothing to do, a refused truncated file (the old one
 * keeps answering), then a sound file switched to. */
static void check_reload(const char* index_path, const char* scratch, const entries* e, const uint64_t* queries,
                         size_t nq, int k) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/reloaded.sdx", scratch);
  replace_with_copy(path, index_path, (size_t)-1);
  simdex_index* idx = NULL;
  char* err = NULL;
  REQUIRE(simdex_index_open(path, 0, &idx, &err) == SIMDEX_OK);
  int switched = -1;
  CHECK(simdex_index_reload(idx, &switched, &err) == SIMDEX_OK && switched == 0 && err == NULL);
  CHECK(simdex_index_version(idx) == 1);

  size_t n = 0;
  free(read_file(index_path, &n));
  replace_with_copy(path, index_path, n / 2);
  expect_error(simdex_index_reload(idx, &switched, &err), &err, SIMDEX_CORRUPTION, "reload of a truncated file");
  CHECK(switched == 0);
  CHECK(simdex_index_version(idx) == 1);
  check_single_searches(idx, e, queries, nq, k);

  replace_with_copy(path, index_path, (size_t)-1);
  CHECK(simdex_index_reload(idx, &switched, &err) == SIMDEX_OK && switched == 1);
  CHECK(simdex_index_version(idx) == 2);
  check_single_searches(idx, e, queries, nq, k);
  simdex_index_close(idx);
  expect_error(simdex_index_reload(NULL, &switched, &err), &err, SIMDEX_INVALID_ARGUMENT, "reload of NULL");
  CHECK(simdex_index_version(NULL) == 0);
}

/* simdex_index_open_with_options: every access and cold_reads gives the
 * brute-force answers (single and batch searches), and values outside
 * their SIMDEX_* names or a reserved field not 0 are refused naming them. */
static void check_open_options(const char* index_path, const entries* e, const uint64_t* queries, size_t nq,
                               int max_k) {
  simdex_open_options o;
  simdex_open_options_init(&o);
  for (int access = SIMDEX_ACCESS_AUTO; access <= SIMDEX_ACCESS_RANDOM; ++access) {
    for (int cold = SIMDEX_COLD_READS_WHEN_MISSING; cold <= SIMDEX_COLD_READS_NEVER; ++cold) {
      o.access = access;
      o.cold_reads = cold;
      simdex_index* idx = NULL;
      char* err = NULL;
      REQUIRE(simdex_index_open_with_options(index_path, &o, &idx, &err) == SIMDEX_OK && idx != NULL && err == NULL);
      check_single_searches(idx, e, queries, nq, max_k);
      check_batch_search(idx, e, queries, nq, max_k);
      simdex_index_close(idx);
    }
  }
  simdex_index* idx = NULL;
  char* err = NULL;
  REQUIRE(simdex_index_open_with_options(index_path, NULL, &idx, &err) == SIMDEX_OK);
  simdex_index_close(idx);
  simdex_open_options_init(&o);
  o.access = 3;
  CHECK(simdex_index_open_with_options(index_path, &o, &idx, &err) == SIMDEX_INVALID_ARGUMENT && idx == NULL);
  CHECK(err != NULL && strcmp(err, "simdex_index_open_with_options: simdex_open_options: access 3 is not one of "
                                   "SIMDEX_ACCESS_AUTO (0), SIMDEX_ACCESS_READ_AROUND (1), SIMDEX_ACCESS_RANDOM (2)") == 0);
  simdex_free_string(err);
  simdex_open_options_init(&o);
  o.cold_reads = -1;
  expect_error(simdex_index_open_with_options(index_path, &o, &idx, &err), &err, SIMDEX_INVALID_ARGUMENT,
               "cold_reads -1");
  simdex_open_options_init(&o);
  o.reserved[1] = 1;
  expect_error(simdex_index_open_with_options(index_path, &o, &idx, &err), &err, SIMDEX_INVALID_ARGUMENT,
               "reserved field not 0");
  CHECK(idx == NULL);
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s INDEX FINGERPRINTS SCRATCH_DIR\n", argv[0]);
    return 2;
  }
  entries e = load_fingerprints(argv[2]);
  REQUIRE(e.n > 0);

  simdex_index* idx = NULL;
  char* err = (char*)"untouched";
  simdex_code rc = simdex_index_open(argv[1], 1, &idx, &err);
  if (rc != SIMDEX_OK) {
    fprintf(stderr, "open %s: %s: %s\n", argv[1], simdex_code_name(rc), err ? err : "");
    return 1;
  }
  CHECK(err == NULL);

  simdex_index_info info;
  REQUIRE(simdex_index_stats(idx, &info) == SIMDEX_OK);
  CHECK(info.entries == e.n);
  CHECK(info.distinct_fingerprints > 0 && info.distinct_fingerprints < e.n);
  CHECK(info.k >= 0 && info.k < info.blocks);
  CHECK(info.tables >= 1);
  CHECK(info.block_size >= 64);
  size_t file_size = 0;
  free(read_file(argv[1], &file_size));
  CHECK(info.total_bytes == file_size);

  size_t nq = 0;
  uint64_t* queries = make_queries(&e, &nq);
  check_single_searches(idx, &e, queries, nq, info.k);
  check_capacity_protocol(idx, &e, info.k);
  check_batch_search(idx, &e, queries, nq, info.k);
  check_bad_arguments(idx, info.k);
  simdex_index_close(idx);
  simdex_index_close(NULL);
  simdex_results_free(NULL);

  check_open_options(argv[1], &e, queries, nq, info.k);
  check_open_errors(argv[1], argv[3]);
  check_reload(argv[1], argv[3], &e, queries, nq, info.k);

  free(queries);
  free(e.ids);
  free(e.fingerprints);
  if (failures > 0) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("all checks passed: %zu entries, %zu queries, k <= %d\n", e.n, nq, (int)info.k);
  return 0;
}
