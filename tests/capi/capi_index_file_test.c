/* simdex_index_file_*: one handle for an index file of either kind, opened
 * by the kind its header records; its kind, size, verify summary, inspect
 * JSON and preload, and the errors of a missing file and NULL arguments;
 * and its merger, which grows a file of either kind by that kind's records
 * and refuses the other kind's.
 * Usage: capi_index_file_test SIMHASH_INDEX LSH_INDEX */
#include <stdio.h>
#include <string.h>

#include "simdex/simdex_c.h"
#include "check.h"

static int starts_with(const char* s, const char* prefix) {
  return s != NULL && strncmp(s, prefix, strlen(prefix)) == 0;
}

static void check_file(const char* path, int kind, const char* summary_part, const char* json_prefix) {
  simdex_index_file* file = NULL;
  char* err = NULL;
  REQUIRE(simdex_index_file_open(path, 1, &file, &err) == SIMDEX_OK && file != NULL && err == NULL);
  CHECK(simdex_index_file_kind(file) == kind);
  CHECK(simdex_index_file_records(file) > 0);
  char* summary = NULL;
  CHECK(simdex_index_file_verify(file, &summary, &err) == SIMDEX_OK);
  CHECK(summary != NULL && strstr(summary, summary_part) != NULL);
  simdex_free_string(summary);
  char* json = NULL;
  CHECK(simdex_index_file_inspect(file, &json, &err) == SIMDEX_OK);
  CHECK(starts_with(json, json_prefix));
  simdex_free_string(json);
  int locked = 7;
  CHECK(simdex_index_file_preload(file, 0, &locked, &err) == SIMDEX_OK && locked == 0);
  simdex_index_file_close(file);
}

/* Merges into the file at path, through the merger of its kind, the record
 * of the given kind with id 987654321987 (signatures of num_perm values),
 * and deletes id 999999999 (no record's); the new file holds one record
 * more than the old. The other kind's records are refused, naming both
 * kinds. */
static void check_merge(const char* path, int kind, size_t num_perm) {
  char out[4096];
  snprintf(out, sizeof out, "%s.merged.sdx", path);
  simdex_index_file* old = NULL;
  char* err = NULL;
  REQUIRE(simdex_index_file_open(path, 0, &old, &err) == SIMDEX_OK);
  simdex_merge_options options;
  simdex_merge_options_init(&options);
  options.existing_ids = SIMDEX_EXISTING_IDS_REFUSE;
  simdex_index_file_merger* merger = NULL;
  REQUIRE(simdex_index_file_merger_create(old, out, &options, &merger, &err) == SIMDEX_OK && merger != NULL);
  const uint64_t id = 987654321987ULL, fingerprint = 0x0123456789abcdefULL;
  uint32_t signature[256];
  for (size_t i = 0; i < num_perm && i < 256; ++i) signature[i] = (uint32_t)(i * 2654435761u);
  const simdex_code wrong = kind == SIMDEX_KIND_SIMHASH
                                ? simdex_index_file_merger_add_signatures(merger, &id, signature, 1, &err)
                                : simdex_index_file_merger_add_fingerprints(merger, &id, &fingerprint, 1, &err);
  CHECK(wrong == SIMDEX_INVALID_ARGUMENT);
  CHECK(err != NULL && strstr(err, kind == SIMDEX_KIND_SIMHASH ? "a simhash index merges fingerprints, not signatures"
                                                               : "a minhash-lsh index merges signatures, not fingerprints"));
  simdex_free_string(err);
  err = NULL;
  const simdex_code right = kind == SIMDEX_KIND_SIMHASH
                                ? simdex_index_file_merger_add_fingerprints(merger, &id, &fingerprint, 1, &err)
                                : simdex_index_file_merger_add_signatures(merger, &id, signature, 1, &err);
  CHECK(right == SIMDEX_OK && err == NULL);
  const uint64_t gone = 999999999;
  CHECK(simdex_index_file_merger_delete(merger, &gone, 1, &err) == SIMDEX_OK);
  simdex_merge_stats stats;
  CHECK(simdex_index_file_merger_finish(merger, &stats, &err) == SIMDEX_OK);
  CHECK(stats.old_records == simdex_index_file_records(old) && stats.added == 1 && stats.ids_not_found == 1);
  CHECK(stats.deleted == 0 && stats.records == stats.old_records + 1 && stats.file_bytes > 0);
  simdex_index_file_merger_close(merger);
  simdex_index_file* merged = NULL;
  REQUIRE(simdex_index_file_open(out, 1, &merged, &err) == SIMDEX_OK);
  CHECK(simdex_index_file_kind(merged) == kind && simdex_index_file_records(merged) == stats.records);
  CHECK(simdex_index_file_verify(merged, NULL, &err) == SIMDEX_OK);
  simdex_index_file_close(merged);
  simdex_index_file_close(old);
  CHECK(remove(out) == 0);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: capi_index_file_test SIMHASH_INDEX LSH_INDEX\n");
    return 2;
  }
  check_file(argv[1], SIMDEX_KIND_SIMHASH, " entries, ", "{\n  \"entries\": ");
  check_file(argv[2], SIMDEX_KIND_MINHASH_LSH, " documents, 8 band tables", "{\n  \"kind\": \"minhash-lsh\",\n  \"documents\": ");

  check_merge(argv[1], SIMDEX_KIND_SIMHASH, 0);
  check_merge(argv[2], SIMDEX_KIND_MINHASH_LSH, 32);
  CHECK(simdex_index_file_merger_create(NULL, "x", NULL, NULL, NULL) == SIMDEX_INVALID_ARGUMENT);
  simdex_index_file_merger_close(NULL);

  simdex_index_file* file = (simdex_index_file*)1;
  char* err = NULL;
  /* The options reach both kinds' openers: random access opens and
   * verifies either file; an unknown access is refused by each. */
  simdex_open_options o;
  simdex_open_options_init(&o);
  o.access = SIMDEX_ACCESS_RANDOM;
  o.cold_reads = SIMDEX_COLD_READS_ALWAYS;
  for (int i = 1; i <= 2; ++i) {
    REQUIRE(simdex_index_file_open_with_options(argv[i], &o, &file, &err) == SIMDEX_OK && err == NULL);
    CHECK(simdex_index_file_verify(file, NULL, &err) == SIMDEX_OK);
    simdex_index_file_close(file);
  }
  simdex_lsh_index* lsh = NULL;
  REQUIRE(simdex_lsh_index_open_with_options(argv[2], &o, &lsh, &err) == SIMDEX_OK && lsh != NULL);
  simdex_lsh_index_close(lsh);
  o.access = 9;
  CHECK(simdex_index_file_open_with_options(argv[1], &o, &file, &err) == SIMDEX_INVALID_ARGUMENT && file == NULL);
  CHECK(err != NULL && strstr(err, "simdex_index_file_open_with_options: simdex_open_options: access 9 is not one of"));
  simdex_free_string(err);
  err = NULL;
  CHECK(simdex_lsh_index_open_with_options(argv[2], &o, &lsh, &err) == SIMDEX_INVALID_ARGUMENT && lsh == NULL);
  CHECK(err != NULL && strstr(err, "simdex_lsh_index_open_with_options: simdex_open_options: access 9"));
  simdex_free_string(err);
  err = NULL;
  file = (simdex_index_file*)1;
  CHECK(simdex_index_file_open("/nonexistent/x.sdx", 0, &file, &err) == SIMDEX_IO_ERROR && file == NULL);
  CHECK(err != NULL && strstr(err, "/nonexistent/x.sdx") != NULL);
  simdex_free_string(err);
  CHECK(simdex_index_file_open(NULL, 0, &file, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_index_file_inspect(NULL, NULL, NULL) == SIMDEX_INVALID_ARGUMENT);
  simdex_index_file_close(NULL);
  return finish("capi_index_file_test");
}
