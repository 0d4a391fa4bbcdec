/* Batch queries of texts against a MinHash-LSH index through the C
 * interface (simdex_lsh_index_query_texts), compiled as C11, against
 * `simdex query` of the same index and texts.
 * Usage: capi_lsh_texts_test SAMPLE_DIR DIR
 *   SAMPLE_DIR  tests/data/sample: docs.txt, one document a line
 *   DIR         part_lsh.sdx (`simdex build --method minhash` of the first
 *               1,000 documents of docs.jsonl), and the command's answers
 *               for every line of docs.txt: cli_query_default.jsonl (the
 *               index's default filter) and cli_query_half.jsonl
 *               (--min-estimate 0.5)
 * Each answer is printed as the command prints it ({"id":<line>,"matches":
 * [{"id":..,"estimate":%.4g},...]}) and compared line by line; then the
 * texts as NUL-terminated strings, and the errors. Exits 0 when every
 * check passes. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdex/simdex_c.h"
#include "check.h"
#include "files.h"

static int contains(const char* s, const char* part) { return s != NULL && strstr(s, part) != NULL; }

/* Query i's answer as `simdex query` prints it, for document line i + 1. */
static void format_answer(const simdex_lsh_results* r, size_t i, char* out, size_t size) {
  const size_t* lims = simdex_lsh_results_lims(r);
  const simdex_lsh_match* m = simdex_lsh_results_matches(r);
  size_t at = (size_t)snprintf(out, size, "{\"id\":%zu,\"matches\":[", i + 1);
  for (size_t j = lims[i]; j < lims[i + 1] && at < size; ++j) {
    at += (size_t)snprintf(out + at, size - at, "%s{\"id\":%" PRIu64 ",\"estimate\":%.4g}", j > lims[i] ? "," : "",
                           m[j].id, m[j].estimate);
  }
  if (at < size) snprintf(out + at, size - at, "]}");
}

/* The answers to every text equal the command's file, line by line. */
static void check_equal_cli(const simdex_lsh_results* r, const char* cli_path, size_t n) {
  size_t lines_n;
  char* buffer;
  char** lines = read_lines(cli_path, &lines_n, &buffer);
  REQUIRE(lines_n == n && simdex_lsh_results_nq(r) == n);
  static char line[1 << 16];
  size_t found_others = 0;
  for (size_t i = 0; i < n; ++i) {
    format_answer(r, i, line, sizeof(line));
    /* A text without shingles finds nothing; the command also says why. */
    static const char kEmpty[] = ",\"empty\":\"no-text\"";
    char* empty = strstr(lines[i], kEmpty);
    if (empty != NULL) memmove(empty, empty + strlen(kEmpty), strlen(empty + strlen(kEmpty)) + 1);
    if (strcmp(line, lines[i]) != 0) fprintf(stderr, "line %zu:\n  C:   %s\n  CLI: %s\n", i + 1, line, lines[i]);
    CHECK(strcmp(line, lines[i]) == 0);
    const size_t* lims = simdex_lsh_results_lims(r);
    found_others += i >= 1000 && lims[i + 1] > lims[i];
  }
  CHECK(found_others > 0);  /* documents outside the index find their near-duplicates in it */
  free(lines);
  free(buffer);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: capi_lsh_texts_test SAMPLE_DIR DIR\n");
    return 2;
  }
  const char* dir = argv[2];
  size_t n;
  char* buffer;
  char** texts = read_lines(path_in(argv[1], "docs.txt", 0), &n, &buffer);
  size_t* lengths = malloc(n * sizeof(size_t));
  REQUIRE(lengths != NULL);
  for (size_t i = 0; i < n; ++i) lengths[i] = strlen(texts[i]);
  simdex_lsh_index* idx = NULL;
  REQUIRE(simdex_lsh_index_open(path_in(dir, "part_lsh.sdx", 0), 0, &idx, NULL) == SIMDEX_OK);

  simdex_lsh_results* r = NULL;
  char* err = (char*)1;
  REQUIRE(simdex_lsh_index_query_texts(idx, (const char* const*)texts, lengths, n, -1, 2, &r, &err) == SIMDEX_OK);
  CHECK(err == NULL);
  check_equal_cli(r, path_in(dir, "cli_query_default.jsonl", 0), n);
  simdex_lsh_results* nul_terminated = NULL;
  REQUIRE(simdex_lsh_index_query_texts(idx, (const char* const*)texts, NULL, n, -1, 1, &nul_terminated, NULL) ==
          SIMDEX_OK);
  const size_t total = simdex_lsh_results_lims(r)[n];
  CHECK(memcmp(simdex_lsh_results_lims(r), simdex_lsh_results_lims(nul_terminated), (n + 1) * sizeof(size_t)) == 0);
  CHECK(memcmp(simdex_lsh_results_matches(r), simdex_lsh_results_matches(nul_terminated),
               total * sizeof(simdex_lsh_match)) == 0);
  simdex_lsh_results_free(nul_terminated);
  simdex_lsh_results_free(r);
  REQUIRE(simdex_lsh_index_query_texts(idx, (const char* const*)texts, lengths, n, 0.5, 3, &r, NULL) == SIMDEX_OK);
  check_equal_cli(r, path_in(dir, "cli_query_half.jsonl", 0), n);
  CHECK(simdex_lsh_results_lims(r)[n] > total);  /* a lower filter keeps more */
  simdex_lsh_results_free(r);

  /* An empty text and a NULL one of length 0 find nothing; a NULL one of
   * any other length is refused. */
  const char* odd[3] = {"", NULL, texts[0]};
  size_t odd_lengths[3] = {0, 0, lengths[0]};
  REQUIRE(simdex_lsh_index_query_texts(idx, odd, odd_lengths, 3, -1, 1, &r, NULL) == SIMDEX_OK);
  const size_t* lims = simdex_lsh_results_lims(r);
  CHECK(lims[1] == 0 && lims[2] == 0 && lims[3] >= 1);
  simdex_lsh_results_free(r);
  odd_lengths[1] = 4;
  r = (simdex_lsh_results*)1;
  CHECK(simdex_lsh_index_query_texts(idx, odd, odd_lengths, 3, -1, 1, &r, &err) == SIMDEX_INVALID_ARGUMENT && r == NULL);
  CHECK(contains(err, "texts[1] is NULL"));
  simdex_free_string(err);
  /* NUL-terminated, a NULL text has no length: refused. */
  CHECK(simdex_lsh_index_query_texts(idx, odd, NULL, 3, -1, 1, &r, NULL) == SIMDEX_INVALID_ARGUMENT);
  odd_lengths[1] = 0;
  CHECK(simdex_lsh_index_query_texts(idx, NULL, odd_lengths, 3, -1, 1, &r, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_lsh_index_query_texts(idx, odd, odd_lengths, 3, -1, 0, &r, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_lsh_index_query_texts(idx, odd, odd_lengths, 3, 1.5, 1, &r, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_lsh_index_query_texts(idx, odd, odd_lengths, 3, -1, 1, NULL, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_lsh_index_query_texts(NULL, odd, odd_lengths, 3, -1, 1, &r, NULL) == SIMDEX_INVALID_ARGUMENT);
  REQUIRE(simdex_lsh_index_query_texts(idx, NULL, NULL, 0, -1, 4, &r, NULL) == SIMDEX_OK);
  CHECK(simdex_lsh_results_nq(r) == 0 && simdex_lsh_results_lims(r)[0] == 0);
  simdex_lsh_results_free(r);

  simdex_lsh_index_close(idx);
  free(lengths);
  free(texts);
  free(buffer);
  return finish("capi_lsh_texts_test");
}
