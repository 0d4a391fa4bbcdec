/* MinHash-LSH de-duplication through the C interface, compiled as C11,
 * against `simdex dedup` on the bundled sample.
 * Usage: capi_minhash_dedup_test SAMPLE_DIR DIR SMALL_LSH_INDEX
 *   SAMPLE_DIR       tests/data/sample: docs.jsonl, and docs.txt (the same
 *                    documents one a line, whose records the command writes
 *                    identically)
 *   DIR              where the CTest fixtures put the command's outputs:
 *                    cli_records.jsonl, cli_pairs.jsonl, cli_keep.txt and
 *                    cli_clusters.jsonl of `simdex dedup docs.jsonl`;
 *                    part_lsh.sdx, an index of the first 1,000 documents,
 *                    and cli_against.jsonl, the records against it. The
 *                    test writes its own files there.
 *   SMALL_LSH_INDEX  a MinHash-LSH index of 32-value signatures
 * Checks: the four files written through the C interface equal the
 * command's byte for byte, from files and against an index; the records,
 * ids and pairs read through the accessors equal the command's lines; the
 * texts of docs.txt given in memory give the same records; and the errors,
 * each a code and a message of one line (options out of range: threshold
 * 0 and 1.5, bands x rows past num_perm; reserved fields, a missing file,
 * repeated ids, an index of other signatures, the pairs read twice); the
 * word definition of the shingles, and a value of it refused. Exits
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

static simdex_minhash_dedup_result* run_files(const char* path, int format, const simdex_minhash_dedup_options* o) {
  simdex_document_files files;
  simdex_document_files_init(&files);
  files.paths = &path;
  files.path_count = 1;
  files.format = format;
  simdex_minhash_dedup_result* r = NULL;
  char* err = NULL;
  const simdex_code rc = simdex_minhash_dedup_files(&files, o, &r, &err);
  if (rc != SIMDEX_OK) fprintf(stderr, "%s: %s: %s\n", path, simdex_code_name(rc), err ? err : "");
  REQUIRE(rc == SIMDEX_OK && err == NULL && r != NULL);
  return r;
}

static uint64_t id_of(const simdex_minhash_dedup_result* r, uint64_t ordinal) {
  int is_string = 7;
  uint64_t number = 0;
  const char* data = "x";
  size_t size = 9;
  CHECK(simdex_minhash_dedup_id(r, ordinal, &is_string, &number, &data, &size) == SIMDEX_OK);
  CHECK(is_string == 0 && data == NULL && size == 0);
  return number;
}

/* The command's record line for a document: its id, cluster, duplicate
 * flag, estimate and whether it has no shingles ("empty":"no-text"; the
 * sample's lines of only an ideographic full stop, whose word-chars words
 * are none). */
typedef struct {
  uint64_t id, cluster;
  int duplicate;
  double estimate;
  int empty;
} cli_record;

static cli_record parse_record(const char* line) {
  cli_record c;
  char flag[8];
  REQUIRE(sscanf(line, "{\"id\":%" SCNu64 ",\"cluster\":%" SCNu64 ",\"duplicate\":%7[a-z],\"estimate\":%lf", &c.id,
                 &c.cluster, flag, &c.estimate) == 4);
  c.duplicate = strcmp(flag, "true") == 0;
  c.empty = contains(line, ",\"empty\":\"no-text\"");
  return c;
}

/* Every record of r against the command's records file: ids(o) =
 * ids_offset + the line's id, the cluster the representative's. */
static void check_records_equal_cli(const simdex_minhash_dedup_result* r, uint64_t id_offset) {
  size_t n;
  char* buffer;
  char** lines = read_lines(path_in(dir, "cli_records.jsonl", 0), &n, &buffer);
  REQUIRE(simdex_minhash_dedup_size(r) == n);
  simdex_minhash_dedup_record* records = malloc(n * sizeof(*records));
  REQUIRE(records != NULL);
  REQUIRE(simdex_minhash_dedup_records(r, 0, n, records) == SIMDEX_OK);
  size_t duplicates = 0;
  for (size_t o = 0; o < n; ++o) {
    const cli_record c = parse_record(lines[o]);
    CHECK(id_of(r, o) + id_offset == c.id);
    CHECK(id_of(r, records[o].representative) + id_offset == c.cluster);
    CHECK(records[o].duplicate == c.duplicate);
    CHECK(fabs(records[o].estimate - c.estimate) <= 5e-6);
    CHECK(records[o].against_index == -1 && records[o].empty == c.empty && records[o].reserved == 0);
    duplicates += records[o].duplicate;
  }
  CHECK(duplicates > 100);  /* the sample holds many near-duplicates */
  free(records);
  free(lines);
  free(buffer);
}

/* The pairs accessor against the command's pairs file. */
static void check_pairs_equal_cli(simdex_minhash_dedup_result* r) {
  size_t n;
  char* buffer;
  char** lines = read_lines(path_in(dir, "cli_pairs.jsonl", 0), &n, &buffer);
  const simdex_minhash_dedup_pair* pairs = NULL;
  size_t count = 0;
  char* err = (char*)1;
  REQUIRE(simdex_minhash_dedup_pairs(r, &pairs, &count, &err) == SIMDEX_OK && err == NULL);
  CHECK(count == n && n > 100);
  for (size_t i = 0; i < n && i < count; ++i) {
    uint64_t a, b;
    double estimate, similarity;
    REQUIRE(sscanf(lines[i], "{\"a\":%" SCNu64 ",\"b\":%" SCNu64 ",\"estimate\":%lf,\"similarity\":%lf", &a, &b,
                   &estimate, &similarity) == 4);
    CHECK(pairs[i].a < pairs[i].b);
    CHECK(id_of(r, pairs[i].a) == a && id_of(r, pairs[i].b) == b);
    CHECK(fabs(pairs[i].estimate - estimate) <= 5e-6 && fabs(pairs[i].similarity - similarity) <= 5e-6);
    CHECK(pairs[i].similarity >= 0.8f);  /* the exact check: every pair at or above the threshold */
  }
  /* Read once, kept: the same array again; no file after it. */
  const simdex_minhash_dedup_pair* again = NULL;
  CHECK(simdex_minhash_dedup_pairs(r, &again, &count, NULL) == SIMDEX_OK && again == pairs && count == n);
  CHECK(simdex_minhash_dedup_write_pairs(r, path_in(dir, "c_pairs_again.jsonl", 0), &err) == SIMDEX_INVALID_ARGUMENT);
  CHECK(contains(err, "read once"));
  simdex_free_string(err);
  free(lines);
  free(buffer);
}

/* docs.jsonl with the command's defaults: the four files, the records and
 * the figures. */
static void check_files_equal_cli(void) {
  simdex_minhash_dedup_options o;
  simdex_minhash_dedup_options_init(&o);
  o.keep_pairs = 1;
  o.threads = 2;
  const char* docs = path_in(sample_dir, "docs.jsonl", 1);
  simdex_minhash_dedup_result* r = run_files(docs, SIMDEX_FORMAT_AUTO, &o);
  char* err = NULL;
  CHECK(simdex_minhash_dedup_write_records(r, path_in(dir, "c_records.jsonl", 0), &err) == SIMDEX_OK && err == NULL);
  CHECK(simdex_minhash_dedup_write_pairs(r, path_in(dir, "c_pairs.jsonl", 0), &err) == SIMDEX_OK);
  CHECK(simdex_minhash_dedup_write_keep_list(r, path_in(dir, "c_keep.txt", 0), &err) == SIMDEX_OK);
  CHECK(simdex_minhash_dedup_write_clusters(r, path_in(dir, "c_clusters.jsonl", 0), 8, &err) == SIMDEX_OK);
  CHECK(same_file(path_in(dir, "c_records.jsonl", 0), path_in(dir, "cli_records.jsonl", 2)));
  CHECK(same_file(path_in(dir, "c_pairs.jsonl", 0), path_in(dir, "cli_pairs.jsonl", 2)));
  CHECK(same_file(path_in(dir, "c_keep.txt", 0), path_in(dir, "cli_keep.txt", 2)));
  CHECK(same_file(path_in(dir, "c_clusters.jsonl", 0), path_in(dir, "cli_clusters.jsonl", 2)));
  check_records_equal_cli(r, 0);

  simdex_minhash_dedup_info info;
  REQUIRE(simdex_minhash_dedup_stats(r, &info) == SIMDEX_OK);
  /* Empty: the three lines of only an ideographic full stop (no word-chars words). */
  CHECK(info.documents == simdex_minhash_dedup_size(r) && info.empty == 3 && info.skipped == 0);
  CHECK(info.confirmed > 0 && info.confirmed <= info.confirm_candidates && info.clusters > 0);
  CHECK(info.bands * info.rows <= 128 && info.estimate_filter > 0 && info.estimate_filter < 0.8);
  /* The pairs went to the file: they are read once. */
  const simdex_minhash_dedup_pair* pairs = NULL;
  size_t count = 9;
  CHECK(simdex_minhash_dedup_pairs(r, &pairs, &count, &err) == SIMDEX_INVALID_ARGUMENT && pairs == NULL && count == 0);
  simdex_free_string(err);
  simdex_minhash_dedup_free(r);

  r = run_files(docs, SIMDEX_FORMAT_JSONL, &o);
  check_pairs_equal_cli(r);
  simdex_minhash_dedup_free(r);
}

/* docs.txt as texts in memory (ids 0 .. n - 1) and as a file of lines (ids
 * 1 .. n): the command's records for docs.jsonl, which equal docs.txt's.
 * The caller's texts are freed before the clusters are written. */
static void check_texts_equal_cli(void) {
  size_t n;
  char* buffer;
  char** lines = read_lines(path_in(sample_dir, "docs.txt", 1), &n, &buffer);
  size_t* lengths = malloc(n * sizeof(size_t));
  REQUIRE(lengths != NULL);
  for (size_t i = 0; i < n; ++i) lengths[i] = strlen(lines[i]);
  simdex_minhash_dedup_options o;
  simdex_minhash_dedup_options_init(&o);
  o.keep_pairs = 1;
  simdex_minhash_dedup_result* texts = NULL;
  simdex_minhash_dedup_result* nul_terminated = NULL;
  char* err = NULL;
  REQUIRE(simdex_minhash_dedup_texts((const char* const*)lines, lengths, NULL, n, &o, &texts, &err) == SIMDEX_OK);
  o.threads = 3;
  REQUIRE(simdex_minhash_dedup_texts((const char* const*)lines, NULL, NULL, n, &o, &nul_terminated, &err) == SIMDEX_OK);
  free(lines);
  free(buffer);
  free(lengths);
  check_records_equal_cli(texts, 1);

  simdex_minhash_dedup_result* file = run_files(path_in(sample_dir, "docs.txt", 1), SIMDEX_FORMAT_LINES, &o);
  check_records_equal_cli(file, 0);
  simdex_minhash_dedup_record a, b, c;
  for (uint64_t i = 0; i < simdex_minhash_dedup_size(texts); ++i) {
    REQUIRE(simdex_minhash_dedup_records(texts, i, 1, &a) == SIMDEX_OK);
    REQUIRE(simdex_minhash_dedup_records(nul_terminated, i, 1, &b) == SIMDEX_OK);
    REQUIRE(simdex_minhash_dedup_records(file, i, 1, &c) == SIMDEX_OK);
    CHECK(memcmp(&a, &b, sizeof(a)) == 0 && memcmp(&a, &c, sizeof(a)) == 0);
    CHECK(id_of(texts, i) == i);
  }
  const simdex_minhash_dedup_pair *pa = NULL, *pc = NULL;
  size_t na = 0, nc = 0;
  CHECK(simdex_minhash_dedup_pairs(texts, &pa, &na, NULL) == SIMDEX_OK);
  CHECK(simdex_minhash_dedup_pairs(file, &pc, &nc, NULL) == SIMDEX_OK);
  CHECK(na == nc && na > 100 && memcmp(pa, pc, na * sizeof(*pa)) == 0);
  /* The texts were copied: the clusters' snippets read the result's copy,
   * as those of the file read it again (its ids are line numbers, from 1).
   * GFDL 1.2 and 1.3 share their first 39 characters: the snippets start
   * where they differ. */
  CHECK(simdex_minhash_dedup_write_clusters(texts, path_in(dir, "c_texts_clusters.jsonl", 0), 3, &err) == SIMDEX_OK);
  CHECK(simdex_minhash_dedup_write_clusters(file, path_in(dir, "c_file_clusters.jsonl", 0), 3, &err) == SIMDEX_OK);
  const char* const gfdl = "\"skipped_chars\":39,\"members\":[{\"id\":%d,\"estimate\":1,\"representative\":true,"
                           "\"text\":\"\xe2\x80\xa6 1.2, November 2002\"}";
  char expected[160];
  size_t size;
  char* written = read_file(path_in(dir, "c_texts_clusters.jsonl", 0), &size);
  snprintf(expected, sizeof expected, gfdl, 33);
  CHECK(contains(written, expected));
  free(written);
  written = read_file(path_in(dir, "c_file_clusters.jsonl", 0), &size);
  snprintf(expected, sizeof expected, gfdl, 34);
  CHECK(contains(written, expected));
  free(written);
  simdex_minhash_dedup_free(texts);
  simdex_minhash_dedup_free(nul_terminated);
  simdex_minhash_dedup_free(file);
}

/* Against an index of the first 1,000 documents: the records file equals
 * the command's; those documents match themselves (estimate 1). */
static void check_against_equal_cli(void) {
  simdex_lsh_index* idx = NULL;
  REQUIRE(simdex_lsh_index_open(path_in(dir, "part_lsh.sdx", 0), 0, &idx, NULL) == SIMDEX_OK);
  simdex_minhash_dedup_options o;
  simdex_minhash_dedup_options_init(&o);
  const simdex_lsh_index* against[1] = {idx};
  o.against = against;
  o.against_count = 1;
  simdex_minhash_dedup_result* r = run_files(path_in(sample_dir, "docs.jsonl", 1), SIMDEX_FORMAT_AUTO, &o);
  char* err = NULL;
  CHECK(simdex_minhash_dedup_write_records(r, path_in(dir, "c_against.jsonl", 0), &err) == SIMDEX_OK);
  CHECK(same_file(path_in(dir, "c_against.jsonl", 0), path_in(dir, "cli_against.jsonl", 2)));
  simdex_minhash_dedup_record rec;
  size_t matched = 0;
  for (uint64_t i = 0; i < simdex_minhash_dedup_size(r); ++i) {
    REQUIRE(simdex_minhash_dedup_records(r, i, 1, &rec) == SIMDEX_OK);
    if (i < 1000) CHECK(rec.against_index == 0 && rec.against_estimate == 1 && rec.duplicate == 1);
    matched += rec.against_index == 0;
  }
  CHECK(matched >= 1000);
  simdex_minhash_dedup_info info;
  CHECK(simdex_minhash_dedup_stats(r, &info) == SIMDEX_OK && info.against_duplicates == matched);
  simdex_minhash_dedup_free(r);
  simdex_lsh_index_close(idx);
}

/* A message of one line (no newline) that holds `part`; says what it got if not. */
static int one_line_with(const char* err, const char* part) {
  const int ok = contains(err, part) && strchr(err, '\n') == NULL;
  if (!ok) fprintf(stderr, "expected one line with '%s', got: %s\n", part, err ? err : "(null)");
  return ok;
}

/* Runs texts with options o and expects code `want` with a one-line message holding `part`. */
static void expect_texts_error(const simdex_minhash_dedup_options* o, const char* const* texts, const size_t* lengths,
                               size_t n, simdex_code want, const char* part) {
  simdex_minhash_dedup_result* r = (simdex_minhash_dedup_result*)1;
  char* err = NULL;
  const simdex_code rc = simdex_minhash_dedup_texts(texts, lengths, NULL, n, o, &r, &err);
  CHECK(rc == want && r == NULL);
  CHECK(one_line_with(err, part));
  simdex_free_string(err);
}

static void check_errors(const char* small_lsh) {
  const char* texts[3] = {"one two three four five six", NULL, "one two three four five seven"};
  const size_t lengths[3] = {27, 0, 29};
  simdex_minhash_dedup_options o;
  simdex_minhash_dedup_options_init(&o);
  simdex_minhash_dedup_result* r = NULL;
  REQUIRE(simdex_minhash_dedup_texts(texts, lengths, NULL, 3, &o, &r, NULL) == SIMDEX_OK);
  simdex_minhash_dedup_record rec[4];
  CHECK(simdex_minhash_dedup_size(r) == 3);
  CHECK(simdex_minhash_dedup_records(r, 0, 3, rec) == SIMDEX_OK && rec[1].empty == 1 && rec[1].duplicate == 0);
  CHECK(simdex_minhash_dedup_records(r, 1, 3, rec) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_minhash_dedup_records(r, 4, 0, rec) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_minhash_dedup_records(r, 3, 0, NULL) == SIMDEX_OK);
  CHECK(simdex_minhash_dedup_records(NULL, 0, 1, rec) == SIMDEX_INVALID_ARGUMENT);
  int is_string;
  uint64_t number;
  const char* data;
  size_t size;
  CHECK(simdex_minhash_dedup_id(r, 3, &is_string, &number, &data, &size) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_minhash_dedup_stats(r, NULL) == SIMDEX_INVALID_ARGUMENT);
  const simdex_minhash_dedup_pair* pairs;
  size_t count;
  char* err = NULL;
  CHECK(simdex_minhash_dedup_pairs(r, &pairs, &count, &err) == SIMDEX_INVALID_ARGUMENT);  /* no keep_pairs */
  CHECK(contains(err, "keep_pairs"));
  simdex_free_string(err);
  CHECK(simdex_minhash_dedup_write_records(r, "/nonexistent-dir/records.jsonl", &err) == SIMDEX_IO_ERROR);
  CHECK(contains(err, "/nonexistent-dir/records.jsonl"));
  simdex_free_string(err);
  simdex_minhash_dedup_free(r);
  simdex_minhash_dedup_free(NULL);
  CHECK(simdex_minhash_dedup_size(NULL) == 0);

  simdex_minhash_dedup_options bad = o;
  bad.threshold = 0;
  expect_texts_error(&bad, texts, lengths, 3, SIMDEX_INVALID_ARGUMENT, "threshold 0 is not in (0, 1]");
  bad.threshold = 1.5;
  expect_texts_error(&bad, texts, lengths, 3, SIMDEX_INVALID_ARGUMENT, "threshold 1.5 is not in (0, 1]");
  bad = o;
  bad.bands = 40;  /* 160 values of 128 */
  bad.rows = 4;
  expect_texts_error(&bad, texts, lengths, 3, SIMDEX_INVALID_ARGUMENT,
                     "40 bands x 4 rows must be at least 1 x 1 and at most num_perm (128) values");
  bad.exact = 0;  /* the approximate mode's bands are checked alike */
  expect_texts_error(&bad, texts, lengths, 3, SIMDEX_INVALID_ARGUMENT, "40 bands x 4 rows");
  bad = o;
  bad.num_perm = 0;
  expect_texts_error(&bad, texts, lengths, 3, SIMDEX_INVALID_ARGUMENT, "num_perm");
  bad = o;
  bad.signature_bits = 3;
  expect_texts_error(&bad, texts, lengths, 3, SIMDEX_INVALID_ARGUMENT, "signature_bits");
  bad = o;
  bad.threads = 0;
  expect_texts_error(&bad, texts, lengths, 3, SIMDEX_INVALID_ARGUMENT, "threads");
  bad = o;
  bad.bands = 4;  /* without rows */
  expect_texts_error(&bad, texts, lengths, 3, SIMDEX_INVALID_ARGUMENT, "bands");
  bad = o;
  bad.reserved[5] = 1;
  expect_texts_error(&bad, texts, lengths, 3, SIMDEX_INVALID_ARGUMENT, "reserved[5]");
  bad = o;
  bad.keep = 9;
  expect_texts_error(&bad, texts, lengths, 3, SIMDEX_INVALID_ARGUMENT, "SIMDEX_KEEP_");
  bad = o;
  bad.keep = SIMDEX_KEEP_MAX_SCORE;
  expect_texts_error(&bad, texts, lengths, 3, SIMDEX_INVALID_ARGUMENT, "scores");
  bad = o;
  bad.confirm = "cosine:0.5";
  expect_texts_error(&bad, texts, lengths, 3, SIMDEX_INVALID_ARGUMENT, "cosine");
  const size_t long_null[3] = {27, 5, 29};
  expect_texts_error(&o, texts, long_null, 3, SIMDEX_INVALID_ARGUMENT, "texts[1] is NULL");
  expect_texts_error(NULL, texts, lengths, 3, SIMDEX_INVALID_ARGUMENT, "must not be NULL");
  expect_texts_error(&o, NULL, NULL, 3, SIMDEX_INVALID_ARGUMENT, "must not be NULL");

  /* An index of 32-value signatures is not comparable with 128-value ones. */
  simdex_lsh_index* idx = NULL;
  REQUIRE(simdex_lsh_index_open(small_lsh, 0, &idx, NULL) == SIMDEX_OK);
  const simdex_lsh_index* against[2] = {idx, NULL};
  bad = o;
  bad.against = against;
  bad.against_count = 1;
  expect_texts_error(&bad, texts, lengths, 3, SIMDEX_INVALID_ARGUMENT, "perm:32");
  bad.against_count = 2;
  expect_texts_error(&bad, texts, lengths, 3, SIMDEX_INVALID_ARGUMENT, "against[1] is NULL");
  simdex_lsh_index_close(idx);

  /* Files: a missing one, a bad format value, repeated ids. */
  simdex_document_files files;
  simdex_document_files_init(&files);
  CHECK(files.id_field != NULL && strcmp(files.id_field, "id") == 0);
  const char* missing = "/nonexistent-dir/docs.jsonl";
  files.paths = &missing;
  files.path_count = 1;
  r = (simdex_minhash_dedup_result*)1;
  CHECK(simdex_minhash_dedup_files(&files, &o, &r, &err) == SIMDEX_NOT_FOUND && r == NULL);
  CHECK(one_line_with(err, missing));
  simdex_free_string(err);
  files.format = 5;
  CHECK(simdex_minhash_dedup_files(&files, &o, &r, &err) == SIMDEX_INVALID_ARGUMENT && contains(err, "format"));
  simdex_free_string(err);
  files.format = SIMDEX_FORMAT_AUTO;
  files.reserved32 = 1;
  CHECK(simdex_minhash_dedup_files(&files, &o, &r, &err) == SIMDEX_INVALID_ARGUMENT && contains(err, "reserved32"));
  simdex_free_string(err);
  files.reserved32 = 0;
  bad = o;
  bad.keep = SIMDEX_KEEP_MAX_SCORE;
  CHECK(simdex_minhash_dedup_files(&files, &bad, &r, &err) == SIMDEX_INVALID_ARGUMENT && contains(err, "score_field"));
  simdex_free_string(err);
  CHECK(simdex_minhash_dedup_files(NULL, &o, &r, NULL) == SIMDEX_INVALID_ARGUMENT);

  const char* repeated = path_in(dir, "repeated_ids.jsonl", 0);
  FILE* f = fopen(repeated, "w");
  REQUIRE(f != NULL);
  fputs("{\"id\":\"a-1\",\"text\":\"one two three four five six\"}\n"
        "{\"id\":\"b-2\",\"text\":\"seven eight nine ten eleven\"}\n"
        "{\"id\":\"a-1\",\"text\":\"something else entirely here now\"}\n", f);
  fclose(f);
  files.paths = &repeated;
  CHECK(simdex_minhash_dedup_files(&files, &o, &r, &err) == SIMDEX_INVALID_ARGUMENT && r == NULL);
  CHECK(contains(err, "a-1") && contains(err, "allow_duplicate_ids"));
  simdex_free_string(err);
  o.allow_duplicate_ids = 1;
  REQUIRE(simdex_minhash_dedup_files(&files, &o, &r, &err) == SIMDEX_OK);
  CHECK(simdex_minhash_dedup_id(r, 2, &is_string, &number, &data, &size) == SIMDEX_OK && is_string == 1 &&
        size == 3 && memcmp(data, "a-1", 3) == 0 && number == 0);
  simdex_minhash_dedup_free(r);
}

/* The word definition: two texts that differ in their punctuation only are
 * one document under word-chars, two under space-split; another value is
 * refused. */
static void check_shingles(void) {
  const char* texts[2] = {"One, two; three. Four! five? six (seven)", "one two three four five six seven"};
  simdex_minhash_dedup_options o;
  simdex_minhash_dedup_options_init(&o);
  CHECK(o.shingles == SIMDEX_SHINGLES_AUTO);
  const int32_t words[2] = {SIMDEX_SHINGLES_WORD_CHARS, SIMDEX_SHINGLES_SPACE_SPLIT};
  for (int i = 0; i < 2; ++i) {
    o.shingles = words[i];
    simdex_minhash_dedup_result* r = NULL;
    REQUIRE(simdex_minhash_dedup_texts(texts, NULL, NULL, 2, &o, &r, NULL) == SIMDEX_OK);
    simdex_minhash_dedup_record rec[2];
    CHECK(simdex_minhash_dedup_records(r, 0, 2, rec) == SIMDEX_OK);
    CHECK(rec[1].duplicate == (i == 0));
    simdex_minhash_dedup_free(r);
  }
  o.shingles = 3;
  expect_texts_error(&o, texts, NULL, 2, SIMDEX_INVALID_ARGUMENT, "shingles 3 is not a SIMDEX_SHINGLES_* value");
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: capi_minhash_dedup_test SAMPLE_DIR DIR SMALL_LSH_INDEX\n");
    return 2;
  }
  sample_dir = argv[1];
  dir = argv[2];
  check_files_equal_cli();
  check_texts_equal_cli();
  check_against_equal_cli();
  check_errors(argv[3]);
  check_shingles();
  return finish("capi_minhash_dedup_test");
}
