/* SimHash de-duplication through the C interface, compiled as C11, against
 * `simdex dedup --method simhash` on the bundled sample.
 * Usage: capi_simhash_dedup_test SAMPLE_DIR DIR
 *   SAMPLE_DIR  tests/data/sample: docs.jsonl, and docs.txt (the same
 *               documents one a line)
 *   DIR         where the CTest fixtures put the command's outputs:
 *               cli_sh_records.jsonl, cli_sh_pairs.jsonl, cli_sh_keep.txt
 *               and cli_sh_clusters.jsonl of `simdex dedup --method simhash
 *               docs.jsonl`; cli_sh_confirm_pairs.jsonl, its pairs under
 *               --confirm jaccard-shingles:0.8; part_sh.sdx, a SimHash index
 *               of the first 1,000 documents, and cli_sh_against.jsonl, the
 *               records against it. The test writes its own files there.
 * Checks: the four files written through the C interface equal the
 * command's byte for byte (default options, and the pairs under a confirm
 * spec; against an index, the records); the records, ids and pairs read
 * through the accessors equal the command's lines; the texts of docs.txt
 * given in memory give the same records; the options' defaults are the
 * library's; and the errors, each a code and a message of one line. Exits
 * 0 when every check passes. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdex/simdex_c.h"
#include "check.h"
#include "files.h"

static const char* sample_dir;
static const char* dir;

static int contains(const char* s, const char* part) { return s != NULL && strstr(s, part) != NULL; }

static simdex_simhash_dedup_result* run_files(const char* path, const simdex_simhash_dedup_options* o) {
  simdex_document_files files;
  simdex_document_files_init(&files);
  files.paths = &path;
  files.path_count = 1;
  simdex_simhash_dedup_result* r = NULL;
  char* err = NULL;
  const simdex_code rc = simdex_simhash_dedup_files(&files, o, &r, &err);
  if (rc != SIMDEX_OK) fprintf(stderr, "%s: %s: %s\n", path, simdex_code_name(rc), err ? err : "");
  REQUIRE(rc == SIMDEX_OK && err == NULL && r != NULL);
  return r;
}

static uint64_t id_of(const simdex_simhash_dedup_result* r, uint64_t ordinal) {
  int is_string = 7;
  uint64_t number = 0;
  const char* data = "x";
  size_t size = 9;
  CHECK(simdex_simhash_dedup_id(r, ordinal, &is_string, &number, &data, &size) == SIMDEX_OK);
  CHECK(is_string == 0 && data == NULL && size == 0);
  return number;
}

/* Every record of r against the command's records file `name`: ids(o) =
 * id_offset + the line's id, the cluster the representative's, the
 * distance, and the index match's distance when the line has one. */
static void check_records_equal_cli(const simdex_simhash_dedup_result* r, const char* name, uint64_t id_offset) {
  size_t n;
  char* buffer;
  char** lines = read_lines(path_in(dir, name, 0), &n, &buffer);
  REQUIRE(simdex_simhash_dedup_size(r) == n);
  simdex_simhash_dedup_record* records = malloc(n * sizeof(*records));
  REQUIRE(records != NULL);
  REQUIRE(simdex_simhash_dedup_records(r, 0, n, records) == SIMDEX_OK);
  size_t duplicates = 0;
  for (size_t o = 0; o < n; ++o) {
    uint64_t id, cluster;
    char flag[8];
    int distance;
    REQUIRE(sscanf(lines[o], "{\"id\":%" SCNu64 ",\"cluster\":%" SCNu64 ",\"duplicate\":%7[a-z],\"distance\":%d", &id,
                   &cluster, flag, &distance) == 4);
    CHECK(id_of(r, o) + id_offset == id && id_of(r, records[o].representative) + id_offset == cluster);
    CHECK(records[o].duplicate == (strcmp(flag, "true") == 0) && records[o].distance == distance);
    CHECK(records[o].empty == contains(lines[o], ",\"empty\":") && records[o].reserved == 0);
    const char* against = strstr(lines[o], "\"against\":{");
    CHECK((records[o].against_index >= 0) == (against != NULL));
    int against_distance = -1;
    if (against != NULL) {
      CHECK(sscanf(strstr(against, "\"distance\":"), "\"distance\":%d", &against_distance) == 1);
      CHECK(records[o].against_distance == against_distance);
    }
    duplicates += records[o].duplicate;
  }
  CHECK(duplicates > 100);  /* the sample holds many near-duplicates */
  free(records);
  free(lines);
  free(buffer);
}

/* The pairs accessor against the command's pairs file `name`. */
static void check_pairs_equal_cli(simdex_simhash_dedup_result* r, const char* name, int confirmed) {
  size_t n;
  char* buffer;
  char** lines = read_lines(path_in(dir, name, 0), &n, &buffer);
  const simdex_simhash_dedup_pair* pairs = NULL;
  size_t count = 0;
  char* err = (char*)1;
  REQUIRE(simdex_simhash_dedup_pairs(r, &pairs, &count, &err) == SIMDEX_OK && err == NULL);
  CHECK(count == n && n > 100);
  for (size_t i = 0; i < n && i < count; ++i) {
    uint64_t a, b;
    int distance;
    double similarity = -1;
    REQUIRE(sscanf(lines[i], "{\"a\":%" SCNu64 ",\"b\":%" SCNu64 ",\"distance\":%d,\"similarity\":%lf", &a, &b,
                   &distance, &similarity) == 3 + confirmed);
    CHECK(pairs[i].a < pairs[i].b && id_of(r, pairs[i].a) == a && id_of(r, pairs[i].b) == b);
    CHECK(pairs[i].distance == distance && fabs(pairs[i].similarity - similarity) <= 5e-6);
    if (confirmed) CHECK(pairs[i].similarity >= 0.8f);
  }
  const simdex_simhash_dedup_pair* again = NULL;
  CHECK(simdex_simhash_dedup_pairs(r, &again, &count, NULL) == SIMDEX_OK && again == pairs && count == n);
  CHECK(simdex_simhash_dedup_write_pairs(r, path_in(dir, "c_sh_pairs_again.jsonl", 0), &err) ==
        SIMDEX_INVALID_ARGUMENT);
  CHECK(contains(err, "simdex_simhash_dedup_pairs; they are read once"));
  simdex_free_string(err);
  free(lines);
  free(buffer);
}

/* docs.jsonl with the command's defaults: the four files, the records and
 * the figures; then the pairs under a confirm spec. */
static void check_files_equal_cli(void) {
  simdex_simhash_dedup_options o;
  simdex_simhash_dedup_options_init(&o);
  o.keep_pairs = 1;
  o.threads = 2;
  const char* docs = path_in(sample_dir, "docs.jsonl", 1);
  simdex_simhash_dedup_result* r = run_files(docs, &o);
  char* err = NULL;
  CHECK(simdex_simhash_dedup_write_records(r, path_in(dir, "c_sh_records.jsonl", 0), &err) == SIMDEX_OK && !err);
  CHECK(simdex_simhash_dedup_write_pairs(r, path_in(dir, "c_sh_pairs.jsonl", 0), &err) == SIMDEX_OK);
  CHECK(simdex_simhash_dedup_write_keep_list(r, path_in(dir, "c_sh_keep.txt", 0), &err) == SIMDEX_OK);
  CHECK(simdex_simhash_dedup_write_clusters(r, path_in(dir, "c_sh_clusters.jsonl", 0), 8, &err) == SIMDEX_OK);
  CHECK(same_file(path_in(dir, "c_sh_records.jsonl", 0), path_in(dir, "cli_sh_records.jsonl", 2)));
  CHECK(same_file(path_in(dir, "c_sh_pairs.jsonl", 0), path_in(dir, "cli_sh_pairs.jsonl", 2)));
  CHECK(same_file(path_in(dir, "c_sh_keep.txt", 0), path_in(dir, "cli_sh_keep.txt", 2)));
  CHECK(same_file(path_in(dir, "c_sh_clusters.jsonl", 0), path_in(dir, "cli_sh_clusters.jsonl", 2)));
  check_records_equal_cli(r, "cli_sh_records.jsonl", 0);
  simdex_simhash_dedup_info info;
  REQUIRE(simdex_simhash_dedup_stats(r, &info) == SIMDEX_OK);
  CHECK(info.documents == simdex_simhash_dedup_size(r) && info.skipped == 0 && info.clusters > 0);
  CHECK(info.k == 3 && info.join_k == 3 && info.pairs > 100 && info.duplicates > 100);
  simdex_simhash_dedup_free(r);

  r = run_files(docs, &o);
  check_pairs_equal_cli(r, "cli_sh_pairs.jsonl", 0);
  simdex_simhash_dedup_free(r);
  o.confirm = "jaccard-shingles:0.8";
  r = run_files(docs, &o);
  check_pairs_equal_cli(r, "cli_sh_confirm_pairs.jsonl", 1);
  REQUIRE(simdex_simhash_dedup_stats(r, &info) == SIMDEX_OK);
  CHECK(info.k == 8 && info.confirmed > 0 && info.confirmed <= info.confirm_candidates);
  simdex_simhash_dedup_free(r);
}

/* docs.txt as texts in memory (ids 0 .. n - 1): the command's records for
 * docs.jsonl, whose ids are 1 .. n. */
static void check_texts_equal_cli(void) {
  size_t n;
  char* buffer;
  char** lines = read_lines(path_in(sample_dir, "docs.txt", 1), &n, &buffer);
  simdex_simhash_dedup_options o;
  simdex_simhash_dedup_options_init(&o);
  simdex_simhash_dedup_result* r = NULL;
  REQUIRE(simdex_simhash_dedup_texts((const char* const*)lines, NULL, NULL, n, &o, &r, NULL) == SIMDEX_OK);
  free(lines);
  free(buffer);
  check_records_equal_cli(r, "cli_sh_records.jsonl", 1);
  simdex_simhash_dedup_free(r);
}

/* Against a SimHash index of the first 1,000 documents: the records file
 * equals the command's; those documents match themselves (distance 0). */
static void check_against_equal_cli(void) {
  simdex_index* idx = NULL;
  REQUIRE(simdex_index_open(path_in(dir, "part_sh.sdx", 0), 0, &idx, NULL) == SIMDEX_OK);
  simdex_simhash_dedup_options o;
  simdex_simhash_dedup_options_init(&o);
  const simdex_index* against[1] = {idx};
  o.against = against;
  o.against_count = 1;
  simdex_simhash_dedup_result* r = run_files(path_in(sample_dir, "docs.jsonl", 1), &o);
  char* err = NULL;
  CHECK(simdex_simhash_dedup_write_records(r, path_in(dir, "c_sh_against.jsonl", 0), &err) == SIMDEX_OK);
  CHECK(same_file(path_in(dir, "c_sh_against.jsonl", 0), path_in(dir, "cli_sh_against.jsonl", 2)));
  check_records_equal_cli(r, "cli_sh_against.jsonl", 0);
  simdex_simhash_dedup_record rec;
  size_t matched = 0;
  for (uint64_t i = 0; i < simdex_simhash_dedup_size(r); ++i) {
    REQUIRE(simdex_simhash_dedup_records(r, i, 1, &rec) == SIMDEX_OK);
    if (i < 1000 && !rec.empty) CHECK(rec.against_index == 0 && rec.against_distance == 0 && rec.duplicate == 1);
    matched += rec.against_index == 0;
  }
  simdex_simhash_dedup_info info;
  CHECK(simdex_simhash_dedup_stats(r, &info) == SIMDEX_OK && info.against_duplicates == matched && matched >= 990);
  simdex_index_close(idx);  /* the result holds the file it read */
  CHECK(simdex_simhash_dedup_write_records(r, path_in(dir, "c_sh_against_closed.jsonl", 0), &err) == SIMDEX_OK);
  CHECK(same_file(path_in(dir, "c_sh_against_closed.jsonl", 0), path_in(dir, "cli_sh_against.jsonl", 2)));
  simdex_simhash_dedup_free(r);
}

/* The options' defaults: SimHashDedupOptions' and FingerprintOptions', as
 * `simdex dedup --method simhash` has them. */
static void check_defaults(void) {
  simdex_simhash_dedup_options o;
  memset(&o, 0xff, sizeof(o));
  simdex_simhash_dedup_options_init(&o);
  CHECK(o.k == -1 && o.k_short == -1 && o.short_length == 140 && o.scheme == NULL && o.confirm == NULL);
  CHECK(o.tokenizer == SIMDEX_TOKENIZER_WORDS && o.ngram == 3 && o.weighting == SIMDEX_WEIGHTING_TF);
  CHECK(o.normalize == 1 && o.clean_text == 1 && o.cap_numbers == 1 && o.stop_words == 1 && o.seed == 0);
  CHECK(o.learn_idf == 0 && isinf(o.max_idf) && o.keep == SIMDEX_KEEP_FIRST && o.keep_pairs == 0);
  CHECK(o.allow_duplicate_ids == 0 && o.threads == 1 && o.against_strategy == SIMDEX_AGAINST_AUTO);
  CHECK(o.memory_bytes == (uint64_t)1 << 30 && o.tmpdir == NULL && o.against == NULL && o.against_count == 0);
  for (int i = 0; i < 6; ++i) CHECK(o.reserved[i] == 0);
  simdex_simhash_dedup_options_init(NULL);
}

/* Runs texts with options o and expects code `want` with a one-line
 * message holding `part`. */
static void expect_error(const simdex_simhash_dedup_options* o, simdex_code want, const char* part) {
  const char* texts[3] = {"one two three four five six", "", "one two three four five seven"};
  simdex_simhash_dedup_result* r = (simdex_simhash_dedup_result*)1;
  char* err = NULL;
  CHECK(simdex_simhash_dedup_texts(texts, NULL, NULL, 3, o, &r, &err) == want && r == NULL);
  const int ok = contains(err, part) && strchr(err, '\n') == NULL;
  if (!ok) fprintf(stderr, "expected one line with '%s', got: %s\n", part, err ? err : "(null)");
  CHECK(ok);
  simdex_free_string(err);
}

static void check_errors(void) {
  simdex_simhash_dedup_options o, bad;
  simdex_simhash_dedup_options_init(&o);
  bad = o;
  bad.k = 65;
  expect_error(&bad, SIMDEX_INVALID_ARGUMENT, "k 65 is not in -1..64");
  bad = o;
  bad.scheme = "t99";
  expect_error(&bad, SIMDEX_INVALID_ARGUMENT, "t99");
  bad = o;
  bad.tokenizer = 3;
  expect_error(&bad, SIMDEX_INVALID_ARGUMENT, "tokenizer 3 is not a SIMDEX_TOKENIZER_* value");
  bad = o;
  bad.weighting = -1;
  expect_error(&bad, SIMDEX_INVALID_ARGUMENT, "weighting -1 is not a SIMDEX_WEIGHTING_* value");
  bad = o;
  bad.against_strategy = 3;
  expect_error(&bad, SIMDEX_INVALID_ARGUMENT, "against_strategy 3");
  bad = o;
  bad.threads = 0;
  expect_error(&bad, SIMDEX_INVALID_ARGUMENT, "threads");
  bad = o;
  bad.keep = 9;
  expect_error(&bad, SIMDEX_INVALID_ARGUMENT, "SIMDEX_KEEP_");
  bad = o;
  bad.reserved[0] = 1;
  expect_error(&bad, SIMDEX_INVALID_ARGUMENT, "reserved[0]");
  bad = o;
  bad.confirm = "cosine:0.5";
  expect_error(&bad, SIMDEX_INVALID_ARGUMENT, "cosine");
  const simdex_index* against[1] = {NULL};
  bad = o;
  bad.against = against;
  bad.against_count = 1;
  expect_error(&bad, SIMDEX_INVALID_ARGUMENT, "against[0] is NULL");
  expect_error(NULL, SIMDEX_INVALID_ARGUMENT, "must not be NULL");

  /* Text options reach the fingerprints: under binary weights, two texts
   * that differ in stop words only are one fingerprint while the stop
   * words are dropped (the default), and are no pair once every feature
   * is kept. */
  const char* texts[2] = {"alpha beta gamma delta epsilon the of and to in is it",
                          "alpha beta gamma delta epsilon"};
  simdex_simhash_dedup_result* r = NULL;
  o.weighting = SIMDEX_WEIGHTING_BINARY;
  REQUIRE(simdex_simhash_dedup_texts(texts, NULL, NULL, 2, &o, &r, NULL) == SIMDEX_OK);
  simdex_simhash_dedup_record rec[2];
  CHECK(simdex_simhash_dedup_records(r, 0, 2, rec) == SIMDEX_OK && rec[1].duplicate == 1 && rec[1].distance == 0);
  simdex_simhash_dedup_free(r);
  o.stop_words = 0;
  REQUIRE(simdex_simhash_dedup_texts(texts, NULL, NULL, 2, &o, &r, NULL) == SIMDEX_OK);
  CHECK(simdex_simhash_dedup_records(r, 0, 2, rec) == SIMDEX_OK && rec[1].duplicate == 0 && rec[1].representative == 1);
  CHECK(simdex_simhash_dedup_pairs(r, NULL, NULL, NULL) == SIMDEX_INVALID_ARGUMENT);
  simdex_simhash_dedup_free(r);
  simdex_simhash_dedup_free(NULL);
  CHECK(simdex_simhash_dedup_size(NULL) == 0 && simdex_simhash_dedup_stats(NULL, NULL) == SIMDEX_INVALID_ARGUMENT);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: capi_simhash_dedup_test SAMPLE_DIR DIR\n");
    return 2;
  }
  sample_dir = argv[1];
  dir = argv[2];
  check_defaults();
  check_files_equal_cli();
  check_texts_equal_cli();
  check_against_equal_cli();
  check_errors();
  return finish("capi_simhash_dedup_test");
}
