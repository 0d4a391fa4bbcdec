/* The C interface to simdex indexes, for services written in Go, Rust, Java,
 * Python or C that search an index through FFI. It wraps IndexReader
 * (simdex/index.h): open a file, search it for fingerprints within Hamming
 * distance k (inclusive), read its statistics, close it; and LshIndexReader
 * (simdex/lsh_index.h) for MinHash-LSH index files (simdex_lsh_index_*,
 * below; simdex_index_kind tells which kind a file holds), queried by
 * signatures or by texts. It also de-duplicates batches of documents
 * (simdex_minhash_dedup_* and simdex_simhash_dedup_*, below), as `simdex
 * dedup` does.
 *
 *   simdex_index* idx;
 *   char* err;
 *   if (simdex_index_open("corpus.sdx", 0, &idx, &err) != SIMDEX_OK) {
 *     fprintf(stderr, "%s\n", err);
 *     simdex_free_string(err);
 *     return 1;
 *   }
 *   simdex_match m[16];
 *   size_t n;
 *   if (simdex_index_search(idx, 0x9f3a0c71d2e4b856u, 3, m, 16, &n, &err) == SIMDEX_OK) ...
 *   simdex_index_close(idx);
 *
 * Errors. Every fallible call returns a simdex_code: SIMDEX_OK (0) on
 * success, otherwise the code of the failure. Calls that take `char** errmsg`
 * set *errmsg (when errmsg is not NULL) to NULL on success and to a one-line,
 * NUL-terminated message on failure ("block 12 of table 3: checksum
 * mismatch"). The caller owns that string, as every char* the library
 * returns (a malloc'ed, NUL-terminated copy: messages, profiles, the
 * verify summary, the inspect JSON), and releases it with
 * simdex_free_string(). If even the message cannot be allocated, *errmsg is
 * NULL and the code still tells what failed. No C++ exception ever leaves
 * this interface: running out of memory is SIMDEX_OUT_OF_MEMORY.
 *
 * Objects and options. A call that makes an object (a handle, a results
 * object, a de-duplication result) stores it in *out on success, to be
 * released with that object's _close or _free function, and sets *out to
 * NULL on failure. Every _close, _free and _init function accepts NULL and
 * does nothing. An options struct starts from its init function (the
 * library's defaults); its layout is fixed (sizes below are on 64-bit
 * systems) and ends in reserved fields that init sets to 0 and the calls
 * require to be 0 (else SIMDEX_INVALID_ARGUMENT), so that a later version
 * can give them a meaning without changing the layout. The _stats
 * functions fill *out and return SIMDEX_INVALID_ARGUMENT when an argument
 * is NULL; *out is then untouched.
 *
 * Searches and queries. One into a buffer out[] of `capacity` matches (out
 * may be NULL only when capacity is 0) copies the first min(total,
 * capacity) and sets *count (not NULL) to the total, which may exceed
 * capacity: call again with a buffer of *count entries to get them all. On
 * failure *count is 0; a damaged block met is SIMDEX_CORRUPTION naming
 * table and block. A batch of `nq` queries runs on up to `threads` threads
 * (threads >= 1; the results do not depend on the count), its queries'
 * array may be NULL only when nq is 0, and its error is that of the first
 * failing query in query order.
 *
 * Thread safety. An open simdex_index may be shared by any number of threads
 * that call simdex_index_search, simdex_index_search_batch and
 * simdex_index_stats on it concurrently; an open simdex_lsh_index by threads
 * that call its queries and accessors. simdex_index_close must not run
 * concurrently with any other call on the same handle, and the handle must
 * not be used after it. A simdex_results or simdex_lsh_results is
 * immutable: its accessors may be called from any thread until it is freed. Processes that open the
 * same file share its pages through the page cache (the file is memory
 * mapped read-only).
 *
 * This header compiles as C11 and as C++.
 */
#ifndef SIMDEX_SIMDEX_C_H_
#define SIMDEX_SIMDEX_C_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Result codes. Values 1 to 5 are those of simdex::Status::Code. */
typedef enum simdex_code {
  SIMDEX_OK = 0,
  SIMDEX_INVALID_ARGUMENT = 1, /* the caller passed something unusable (NULL handle, k too large) */
  SIMDEX_CORRUPTION = 2,       /* the file is not a sound simdex index */
  SIMDEX_IO_ERROR = 3,         /* the operating system refused to open or map the file */
  SIMDEX_NOT_FOUND = 4,
  SIMDEX_NOT_SUPPORTED = 5,    /* e.g. a file of a newer format version */
  SIMDEX_OUT_OF_MEMORY = 6,    /* an allocation failed; the handle is still usable */
  SIMDEX_INTERNAL = 7          /* an unexpected failure inside the library */
} simdex_code;

/* A short stable name for a code: "OK", "InvalidArgument", "Corruption",
 * "IOError", "NotFound", "NotSupported", "OutOfMemory", "Internal"; "Unknown"
 * for any other value. The string is static; do not free it. */
const char* simdex_code_name(int code);

/* An open, read-only index. Opaque. */
typedef struct simdex_index simdex_index;

/* One entry within distance of a query. 24 bytes, no implicit padding. */
typedef struct simdex_match {
  uint64_t id;
  uint64_t fingerprint;
  int32_t distance; /* Hamming distance to the query, 0..k */
  uint32_t reserved; /* always 0 */
} simdex_match;

/* Opens the index file at `path` (maps it read-only and validates header,
 * footer, metadata, section bounds and the head index, rank index and id map
 * checksums). Searches check each block's checksum the first time they
 * decode it and the id section's the first time they read an id. If
 * verify_block_checksums is nonzero, every block and the id section are
 * checked here instead (the whole file is read), so that any damage fails
 * the open. Errors: SIMDEX_IO_ERROR when the file cannot be opened or
 * mapped, SIMDEX_CORRUPTION when it is not a sound index,
 * SIMDEX_NOT_SUPPORTED for an unknown format version,
 * SIMDEX_INVALID_ARGUMENT when path or out is NULL. */
simdex_code simdex_index_open(const char* path, int verify_block_checksums, simdex_index** out,
                              char** errmsg);

/* Unmaps the file and frees the handle. */
void simdex_index_close(simdex_index* idx);

/* How an opener reads its file (ReaderOptions in include/simdex/index_file.h;
 * 32 bytes), for simdex_index_open_with_options,
 * simdex_lsh_index_open_with_options and simdex_index_file_open_with_options.
 * access: how the mapping is advised. AUTO: RANDOM for a file larger than
 * half of the machine's memory, else READ_AROUND; READ_AROUND: the
 * kernel's default, a page fault also reads its neighbours; RANDOM
 * (MADV_RANDOM): a fault reads its own page.
 * cold_reads: whether a SimHash search asks the kernel for all the blocks
 * it is about to read at once (MADV_WILLNEED), so that a cold query waits
 * for about one disk read instead of one per table. WHEN_MISSING: under
 * random access, when the reader's last search waited for the disk;
 * ALWAYS: every search; NEVER: none. Speed only: answers are the same. */
#define SIMDEX_ACCESS_AUTO 0
#define SIMDEX_ACCESS_READ_AROUND 1
#define SIMDEX_ACCESS_RANDOM 2
#define SIMDEX_COLD_READS_WHEN_MISSING 0
#define SIMDEX_COLD_READS_ALWAYS 1
#define SIMDEX_COLD_READS_NEVER 2

typedef struct simdex_open_options {
  int32_t verify_block_checksums; /* nonzero: as simdex_index_open's argument */
  int32_t verify_heads_on_open;   /* nonzero: check the head indexes, rank index and id map in the open;
                                     0: each the first time a search needs it */
  int32_t access;                 /* SIMDEX_ACCESS_* */
  int32_t cold_reads;             /* SIMDEX_COLD_READS_* (SimHash searches; other kinds ignore it) */
  uint64_t reserved[2];           /* 0 */
} simdex_open_options;

/* ReaderOptions()'s defaults: access AUTO, cold_reads WHEN_MISSING, head
 * checks on open, no block checks. */
void simdex_open_options_init(simdex_open_options* options);

/* simdex_index_open with options (NULL: the defaults). An access or
 * cold_reads outside its SIMDEX_* values, or a reserved field not 0, is
 * SIMDEX_INVALID_ARGUMENT naming the field, its value and the allowed ones;
 * other errors as simdex_index_open's. A reload opens the new file with the
 * same options. */
simdex_code simdex_index_open_with_options(const char* path, const simdex_open_options* options,
                                           simdex_index** out, char** errmsg);

/* Reloading. A service that keeps a handle open while `simdex build` or
 * `simdex merge` puts a new file in its place (they write a temporary and
 * rename it over the path) calls simdex_index_reload, e.g. on a timer or a
 * signal. When the path names another file than the one serving (device,
 * inode, size or modification time differ), the new file is opened and
 * checked as simdex_index_open does and then serves every call that starts
 * after the switch; calls in flight on other threads finish on the old file,
 * which is unmapped when the last of them returns. No call waits for a
 * reload. Sets *switched (when not NULL) to 1 if the handle switched, else
 * 0. A new file that fails its checks, or whose scheme differs from the
 * serving one's (SIMDEX_INVALID_ARGUMENT), is refused with its error and the
 * old file keeps serving; the same file is not tried again until it changes.
 * Ids and id strings belong to one version: resolve a match's string id
 * (simdex_index_id_string) before reloading, and do not use a string from
 * before a switch after it. May run concurrently with searches, not with
 * simdex_index_close. */
simdex_code simdex_index_reload(simdex_index* idx, int* switched, char** errmsg);

/* 1 for the file opened by simdex_index_open, one more per switch; 0 for
 * NULL. */
uint64_t simdex_index_version(const simdex_index* idx);

/* Finds every entry whose fingerprint is within Hamming distance k
 * (inclusive) of `query`, ordered by distance, then id, then fingerprint; an
 * entry is reported once. REQUIRES: 0 <= k <= the index's k
 * (simdex_index_stats), else SIMDEX_INVALID_ARGUMENT. */
simdex_code simdex_index_search(const simdex_index* idx, uint64_t query, int k, simdex_match* out,
                                size_t capacity, size_t* count, char** errmsg);

/* Results of a batch search in offset-array form: the matches of query i
 * are matches[lims[i]], ..., matches[lims[i+1] - 1], ordered as for
 * simdex_index_search. Opaque: simdex_results_nq is the number of queries
 * (0 for NULL), _lims nq + 1 offsets into the matches (lims[0] is 0 and
 * lims[nq] the total number of matches), _matches the lims[nq] matches
 * grouped by query (NULL when there are none), valid until
 * simdex_results_free. */
typedef struct simdex_results simdex_results;

/* Searches `nq` queries for distance k into a new results object.
 * REQUIRES: 0 <= k <= the index's k. */
simdex_code simdex_index_search_batch(const simdex_index* idx, const uint64_t* queries, size_t nq,
                                      int k, int threads, simdex_results** out, char** errmsg);

size_t simdex_results_nq(const simdex_results* results);
const size_t* simdex_results_lims(const simdex_results* results);
const simdex_match* simdex_results_matches(const simdex_results* results);
void simdex_results_free(simdex_results* results);

/* Size and shape of an open index. */
typedef struct simdex_index_info {
  uint64_t entries;               /* (id, fingerprint) pairs stored */
  uint64_t distinct_fingerprints;
  uint64_t total_bytes;           /* size of the file */
  uint32_t block_size;            /* bytes per block */
  int32_t k;                      /* the largest distance searches may ask for */
  int32_t tables;                 /* permuted tables in the file */
  int32_t blocks;                 /* blocks the scheme cuts a fingerprint into */
} simdex_index_info;

/* SIMDEX_OUT_OF_MEMORY when memory runs out (*out untouched). */
simdex_code simdex_index_stats(const simdex_index* idx, simdex_index_info* out);

/* The fingerprint profile the index records (docs/fingerprint.md,
 * "Profiles"), printable ASCII; NULL when the index records none, idx is
 * NULL or memory runs out. Queries with fingerprints of another profile are
 * not meaningful. */
char* simdex_index_profile(const simdex_index* idx);

/* String ids. An index built from string ids (URLs, article ids) keeps them
 * in an id map sorted bytewise; a simdex_match's id is then the number of
 * its string in that map, and the calls below turn one into the other. An
 * index of numeric ids has no map: its match ids are the ids themselves. */

/* 1 when the index keeps string ids, 0 when its ids are numbers or idx is
 * NULL. */
int simdex_index_has_string_ids(const simdex_index* idx);

/* The string of id number `id` (a simdex_match id of this index): *data
 * points into the mapped file and is NOT NUL-terminated; *size is its length
 * in bytes (1 to 4096, UTF-8). Valid until simdex_index_close or a
 * simdex_index_reload that switches. Returns
 * SIMDEX_INVALID_ARGUMENT when the index holds numeric ids, when id is not a
 * number of its map, or when an argument is NULL; *data is then NULL and
 * *size 0. */
simdex_code simdex_index_id_string(const simdex_index* idx, uint64_t id, const char** data, size_t* size,
                                   char** errmsg);

/* The number of the string id data[0..size) in the index's map: SIMDEX_OK
 * with *id set, SIMDEX_NOT_FOUND when no entry has that id, or
 * SIMDEX_INVALID_ARGUMENT for an index of numeric ids or a NULL argument
 * (data may be NULL only when size is 0). O(log K). */
simdex_code simdex_index_find_id(const simdex_index* idx, const char* data, size_t size, uint64_t* id,
                                 char** errmsg);

/* MinHash-LSH indexes (docs/minhash.md, "Indexes"), written by `simdex
 * build --method minhash`: band tables of the documents' MinHash signatures
 * and their b-bit signatures. A query gives a signature of num_perm values
 * made as the index's documents were (the index's profile, e.g. with
 * simdex.MinHasher(num_perm=, seed=) in Python) and finds the documents that
 * share a band key with it and whose estimate of the Jaccard similarity is
 * at least a filter. */

/* The kinds of index file simdex_index_kind reports. */
enum { SIMDEX_KIND_SIMHASH = 0, SIMDEX_KIND_MINHASH_LSH = 1 };

/* Reads the header and footer of the file at `path` and sets *kind to
 * SIMDEX_KIND_SIMHASH (open it with simdex_index_open) or
 * SIMDEX_KIND_MINHASH_LSH (simdex_lsh_index_open). Errors as
 * simdex_index_open's for a missing, damaged or foreign file; *kind is then
 * -1. Each open function refuses the other kind with
 * SIMDEX_INVALID_ARGUMENT and a message naming both ("x.sdx: a MinHash-LSH
 * index where a SimHash index is needed"). */
simdex_code simdex_index_kind(const char* path, int* kind, char** errmsg);

/* An open index file of either kind (docs/architecture.md, "Seam 2"),
 * opened by the kind its header records: what every kind answers alike.
 * Opaque; its calls may run concurrently from any number of threads. */
typedef struct simdex_index_file simdex_index_file;

/* Opens the file at `path` with the reader of its kind (checking every
 * checksum first when verify_block_checksums is nonzero). Errors as
 * simdex_index_open's. Close with simdex_index_file_close. */
simdex_code simdex_index_file_open(const char* path, int verify_block_checksums, simdex_index_file** out,
                                   char** errmsg);
/* simdex_index_file_open with options, as simdex_index_open_with_options
 * takes them. */
simdex_code simdex_index_file_open_with_options(const char* path, const simdex_open_options* options,
                                                simdex_index_file** out, char** errmsg);
void simdex_index_file_close(simdex_index_file* file);
/* SIMDEX_KIND_SIMHASH or SIMDEX_KIND_MINHASH_LSH. */
int simdex_index_file_kind(const simdex_index_file* file);
/* The entries (SimHash) or documents (MinHash-LSH) the file holds. */
uint64_t simdex_index_file_records(const simdex_index_file* file);
/* Checks every rule of docs/format.md for the file's kind (reads the whole
 * file). On success *summary (if not NULL) is what `simdex verify` prints
 * after "ok: " ("1000 entries, 10 tables", "5 documents, 16 band tables");
 * on failure SIMDEX_CORRUPTION naming the first problem. */
simdex_code simdex_index_file_verify(const simdex_index_file* file, char** summary, char** errmsg);
/* *json: the file's size and shape as `simdex inspect` prints it. */
simdex_code simdex_index_file_inspect(const simdex_index_file* file, char** json, char** errmsg);
/* Reads every page of the file into memory, and with lock nonzero also
 * mlock()s them; *locked (if not NULL) says whether they were locked (a
 * refused lock is not an error). */
simdex_code simdex_index_file_preload(const simdex_index_file* file, int lock, int* locked, char** errmsg);

/* Growing an index file of either kind (include/simdex/merge.h,
 * IndexFileMerger): the merger of the kind `old` records, so that a caller
 * merges without asking the kind. A SimHash file takes fingerprints, a
 * MinHash-LSH file signatures of its num_perm values (one without sketches:
 * a file with sketches needs each document's shingles, which this interface
 * does not take: SIMDEX_INVALID_ARGUMENT); the other kind's records are
 * SIMDEX_INVALID_ARGUMENT naming both ("a simhash index merges
 * fingerprints, not signatures"). The file is the kind's own merger's,
 * byte for byte: what a fresh build of the same records writes. Opaque;
 * one thread uses a merger. */
typedef struct simdex_index_file_merger simdex_index_file_merger;

/* What a merge does with a batch id the old file holds already
 * (ExistingIds): stores both, refuses the batch at finish naming the id,
 * or replaces the old records of the id. */
#define SIMDEX_EXISTING_IDS_KEEP 0
#define SIMDEX_EXISTING_IDS_REFUSE 1
#define SIMDEX_EXISTING_IDS_REPLACE 2

/* MergeOptions. 48 bytes. */
typedef struct simdex_merge_options {
  uint64_t memory_bytes; /* bound on the merger's buffers, past which they spill */
  const char* tmpdir;    /* scratch directory; NULL: the output's directory */
  int32_t threads;       /* SimHash: threads sorting the batch */
  int32_t existing_ids;  /* SIMDEX_EXISTING_IDS_* */
  uint64_t reserved[3];  /* 0 */
} simdex_merge_options;

/* MergeOptions()'s defaults. */
void simdex_merge_options_init(simdex_merge_options* options);

/* A merger writing `path` from `old` (NULL options: the defaults), which
 * must stay open until simdex_index_file_merger_finish returns. `path`
 * may be old's own file (replaced by a rename). Close with
 * simdex_index_file_merger_close. */
simdex_code simdex_index_file_merger_create(const simdex_index_file* old, const char* path,
                                            const simdex_merge_options* options, simdex_index_file_merger** out,
                                            char** errmsg);
/* Adds n records (ids[i], fingerprints[i]) to a SimHash file. */
simdex_code simdex_index_file_merger_add_fingerprints(simdex_index_file_merger* merger, const uint64_t* ids,
                                                      const uint64_t* fingerprints, size_t n, char** errmsg);
/* Adds n documents to a MinHash-LSH file: ids[i] with the num_perm values
 * at signatures + i * num_perm. */
simdex_code simdex_index_file_merger_add_signatures(simdex_index_file_merger* merger, const uint64_t* ids,
                                                    const uint32_t* signatures, size_t n, char** errmsg);
/* Removes every old record whose id is one of the n ids. */
simdex_code simdex_index_file_merger_delete(simdex_index_file_merger* merger, const uint64_t* ids, size_t n,
                                            char** errmsg);

/* A finished merge's figures (MergeStats; a MinHash-LSH file's documents
 * are its records). */
typedef struct simdex_merge_stats {
  uint64_t old_records;
  uint64_t added;
  uint64_t deleted;
  uint64_t ids_not_found; /* ids to delete that no old record has */
  uint64_t replaced;      /* old records replaced (SIMDEX_EXISTING_IDS_REPLACE) */
  uint64_t records;       /* in the new file */
  uint64_t file_bytes;
} simdex_merge_stats;

/* Merges, writes, fsyncs and renames; *stats (if not NULL) on success.
 * After an error nothing is left under the output name. */
simdex_code simdex_index_file_merger_finish(simdex_index_file_merger* merger, simdex_merge_stats* stats,
                                            char** errmsg);
/* Abandons an unfinished merge (removing its temporary files) and frees
 * the merger. */
void simdex_index_file_merger_close(simdex_index_file_merger* merger);

/* An open, read-only MinHash-LSH index. Opaque. */
typedef struct simdex_lsh_index simdex_lsh_index;

/* A document found by a query. 16 bytes, no implicit padding. */
typedef struct simdex_lsh_match {
  uint64_t id;     /* the id, or for an index of string ids the string's number */
  double estimate; /* the b-bit estimate of J with the query, in [0, 1] */
} simdex_lsh_match;

/* Opens a MinHash-LSH index file, checking it as simdex_index_open checks a
 * SimHash one (verify_block_checksums likewise). Errors as
 * simdex_index_open's, with SIMDEX_INVALID_ARGUMENT for a SimHash index. */
simdex_code simdex_lsh_index_open(const char* path, int verify_block_checksums, simdex_lsh_index** out,
                                  char** errmsg);
/* simdex_lsh_index_open with options, as simdex_index_open_with_options
 * takes them (cold_reads is not used by MinHash-LSH queries). */
simdex_code simdex_lsh_index_open_with_options(const char* path, const simdex_open_options* options,
                                               simdex_lsh_index** out, char** errmsg);

/* Unmaps the file and frees the handle. */
void simdex_lsh_index_close(simdex_lsh_index* idx);

/* Finds the documents that share a band key with `signature` (num_perm
 * values) and whose estimate is at least min_estimate (inclusive; a
 * negative value means the index's default, two standard errors below its
 * threshold: simdex_lsh_index_info.default_min_estimate; 0 keeps every
 * candidate), in id order (for string ids, the number order: bytewise). The
 * empty signature (0xffffffff everywhere: a text without shingles) finds
 * nothing. REQUIRES: num_perm equals the index's (else
 * SIMDEX_INVALID_ARGUMENT); min_estimate <= 1 and not NaN; signature is
 * not NULL. */
simdex_code simdex_lsh_index_query(const simdex_lsh_index* idx, const uint32_t* signature, size_t num_perm,
                                   double min_estimate, simdex_lsh_match* out, size_t capacity, size_t* count,
                                   char** errmsg);

/* Results of a batch query of a MinHash-LSH index, in the offset-array
 * form of simdex_results and read as it is (simdex_lsh_results_nq, _lims,
 * _matches of {id, estimate}, and _thresholds; valid until
 * simdex_lsh_results_free): the matches of query i are in id order (as
 * simdex_lsh_index_query's). */
typedef struct simdex_lsh_results simdex_lsh_results;

/* Queries `nq` signatures at once: signature i is signatures[i *
 * num_perm], ..., signatures[i * num_perm + num_perm - 1]. Each query
 * answers as simdex_lsh_index_query does with the same min_estimate (an
 * error names the query: "x.sdx: query 7: ..."). REQUIRES: num_perm equals
 * the index's and min_estimate <= 1, not NaN (else
 * SIMDEX_INVALID_ARGUMENT). */
simdex_code simdex_lsh_index_query_batch(const simdex_lsh_index* idx, const uint32_t* signatures, size_t nq,
                                         size_t num_perm, double min_estimate, int threads, simdex_lsh_results** out,
                                         char** errmsg);

/* Queries `nq` texts: each is signed as the index's documents were (its
 * profile: shingles, num_perm and seed, simdex_lsh_index_profile), then
 * queried as by simdex_lsh_index_query_batch. Text i is texts[i], of
 * lengths[i] bytes of UTF-8, or NUL-terminated when lengths is NULL. A
 * NULL texts[i] is the empty text when lengths[i] is 0, and
 * SIMDEX_INVALID_ARGUMENT otherwise (or when lengths is NULL). A text
 * without shingles (empty, or only white space) finds nothing. Where the
 * index stores sketches (format version 6), the texts' bottom-k sketches
 * decide instead of the signatures: min_estimate then filters the sketch
 * estimate, and a negative one is the index's threshold itself
 * (docs/minhash.md, "Against a stored index"). The texts are read during
 * the call only. Results, errors and REQUIRES as
 * simdex_lsh_index_query_batch's. */
simdex_code simdex_lsh_index_query_texts(const simdex_lsh_index* idx, const char* const* texts, const size_t* lengths,
                                         size_t nq, double min_estimate, int threads, simdex_lsh_results** out,
                                         char** errmsg);

size_t simdex_lsh_results_nq(const simdex_lsh_results* results);
const size_t* simdex_lsh_results_lims(const simdex_lsh_results* results);
const simdex_lsh_match* simdex_lsh_results_matches(const simdex_lsh_results* results);
void simdex_lsh_results_free(simdex_lsh_results* results);

/* Query-time thresholds and top-k (docs/minhash.md, "Thresholds at query
 * time"; LshQueryOptions in include/simdex/lsh_index.h, the rule `simdex
 * query --threshold T1,T2 --top-k K` follows). An index built for a
 * threshold answers any threshold at or above it: a match passes T when its
 * estimate is at least T's filter, two standard errors below T (0.729 for
 * 0.8 at 128 values), and is labelled with the highest threshold it
 * passes. 56 bytes. */
typedef struct simdex_lsh_query_options {
  /* Without thresholds: matches whose estimate is below it are dropped;
   * negative: the index's default filter (default_min_estimate); 0 keeps
   * every candidate. Not with thresholds (two filters for one query). */
  double min_estimate;
  /* threshold_count thresholds in (0, 1], in any order, each at least the
   * index's (simdex_lsh_index_info.threshold); NULL when threshold_count is
   * 0, which leaves min_estimate to decide. Read during the call only. */
  const double* thresholds;
  size_t threshold_count;
  /* 0: every match, in id order. K > 0: the K matches with the highest
   * estimates, highest first, equal estimates in id order. */
  uint64_t top_k;
  uint64_t reserved[3]; /* 0 */
} simdex_lsh_query_options;

/* LshQueryOptions()'s defaults: the index's own filter, no thresholds,
 * every match. */
void simdex_lsh_query_options_init(simdex_lsh_query_options* options);

/* simdex_lsh_index_query with query-time options (NULL: the defaults,
 * which answer as simdex_lsh_index_query with min_estimate -1). Matches are
 * in id order, or with top_k the K highest estimates first. When
 * `thresholds_out` is not NULL, thresholds_out[i] is set beside out[i] to
 * the highest of options->thresholds match i passes (0 without
 * thresholds); it holds `capacity` values, as out does. Errors as
 * simdex_lsh_index_query's, and SIMDEX_INVALID_ARGUMENT naming the option
 * for a threshold outside (0, 1] or below the index's threshold ("threshold
 * 0.7 is below the index's 0.8: ..."), min_estimate with
 * thresholds, NULL thresholds with threshold_count > 0, or a reserved
 * field that is not 0. */
simdex_code simdex_lsh_index_query_with_options(const simdex_lsh_index* idx, const uint32_t* signature,
                                                size_t num_perm, const simdex_lsh_query_options* options,
                                                simdex_lsh_match* out, double* thresholds_out, size_t capacity,
                                                size_t* count, char** errmsg);

/* simdex_lsh_index_query_batch and simdex_lsh_index_query_texts with
 * query-time options (NULL: the defaults): each query answers as
 * simdex_lsh_index_query_with_options does, its matches in its place of the
 * offset array, and the thresholds they pass in
 * simdex_lsh_results_thresholds. Errors and REQUIRES as theirs and as
 * simdex_lsh_index_query_with_options's; the options are checked before
 * any query runs. */
simdex_code simdex_lsh_index_query_batch_with_options(const simdex_lsh_index* idx, const uint32_t* signatures,
                                                      size_t nq, size_t num_perm,
                                                      const simdex_lsh_query_options* options, int threads,
                                                      simdex_lsh_results** out, char** errmsg);
simdex_code simdex_lsh_index_query_texts_with_options(const simdex_lsh_index* idx, const char* const* texts,
                                                      const size_t* lengths, size_t nq,
                                                      const simdex_lsh_query_options* options, int threads,
                                                      simdex_lsh_results** out, char** errmsg);

/* lims[nq] values beside simdex_lsh_results_matches: the highest of the
 * query's thresholds each match passes. NULL when the query had no
 * thresholds, when there are no matches, or for NULL. */
const double* simdex_lsh_results_thresholds(const simdex_lsh_results* results);

/* Size and shape of an open MinHash-LSH index. */
typedef struct simdex_lsh_index_info {
  uint64_t documents;          /* documents stored */
  uint64_t banded_documents;   /* those with a signature that is not empty */
  uint64_t seed;               /* the signature's seed */
  uint64_t total_bytes;        /* size of the file */
  double threshold;            /* the Jaccard similarity the bands are chosen for */
  double default_min_estimate; /* the filter of a query with min_estimate < 0 */
  int32_t num_perm;            /* values per signature */
  int32_t bands;
  int32_t rows;                /* values per band */
  int32_t signature_bits;      /* bits kept of each value for the estimate */
} simdex_lsh_index_info;

/* SIMDEX_OUT_OF_MEMORY when memory runs out (*out untouched). */
simdex_code simdex_lsh_index_stats(const simdex_lsh_index* idx, simdex_lsh_index_info* out);

/* The signature profile the index records (how its documents were signed:
 * docs/minhash.md); NULL when idx is NULL or memory runs out. */
char* simdex_lsh_index_profile(const simdex_lsh_index* idx);

/* String ids, as for SimHash indexes above: 1 when the index keeps string
 * ids, 0 otherwise or when idx is NULL. */
int simdex_lsh_index_has_string_ids(const simdex_lsh_index* idx);

/* As simdex_index_id_string: the string of id number `id` (a
 * simdex_lsh_match id), not NUL-terminated, valid until
 * simdex_lsh_index_close. */
simdex_code simdex_lsh_index_id_string(const simdex_lsh_index* idx, uint64_t id, const char** data, size_t* size,
                                       char** errmsg);

/* As simdex_index_find_id: the number of a string id, SIMDEX_NOT_FOUND when
 * no document has it. */
simdex_code simdex_lsh_index_find_id(const simdex_lsh_index* idx, const char* data, size_t size, uint64_t* id,
                                     char** errmsg);

/* De-duplication (docs/dedup.md; docs/minhash.md for MinHash-LSH): every
 * pair of a batch's documents that are near-duplicates, clusters (the
 * connected components of those pairs) with one representative each, and
 * optionally each document checked against stored indexes. Each method
 * has an options struct (change the fields you need after its init), and a
 * result handle read through accessors:
 *   - MinHash-LSH, of documents (texts in memory, or files as `simdex
 *     dedup` reads them): simdex_minhash_dedup_*, the command's default
 *     method, with the command's records, pairs and files, over
 *     DeduplicateByMinHash (include/simdex/batch.h), the code the command
 *     runs.
 *   - SimHash, of documents: simdex_simhash_dedup_*, `simdex dedup
 *     --method simhash`, over DeduplicateBySimHash, with the same texts
 *     and files in and the same kinds of result.
 * Documents are numbered by ordinal, their place in the input from 0.
 *
 *   simdex_minhash_dedup_options o;
 *   simdex_minhash_dedup_options_init(&o);       the command's defaults
 *   o.threads = 4;
 *   simdex_minhash_dedup_result* r;
 *   if (simdex_minhash_dedup_texts(texts, NULL, NULL, n, &o, &r, &err) == SIMDEX_OK) {
 *     simdex_minhash_dedup_record rec;
 *     for (uint64_t i = 0; i < simdex_minhash_dedup_size(r); ++i) {
 *       simdex_minhash_dedup_records(r, i, 1, &rec);  ... rec.duplicate, rec.representative ...
 *     }
 *     simdex_minhash_dedup_free(r);
 *   }
 *
 * A NULL string field of the options means the library's default. The
 * options are read during the call only.
 *
 * A result is read by any number of threads at once, except for the calls
 * that take it non-const (the pairs), which must not run concurrently with
 * any other call on it. */

/* Which document of a cluster represents it (the others are duplicates). */
enum {
  SIMDEX_KEEP_FIRST = 0,     /* the first in input order */
  SIMDEX_KEEP_LONGEST = 1,   /* the longest text, in code points; the first among equals */
  SIMDEX_KEEP_MAX_SCORE = 2  /* the largest score (texts: scores[]; files: score_field); the first among equals */
};

/* How spaced text is cut into words for MinHash's word 5-shingles
 * (include/simdex/shingles.h; `simdex dedup --shingles`). */
enum {
  SIMDEX_SHINGLES_AUTO = 0,        /* the library's default, or the first `against` index's definition */
  SIMDEX_SHINGLES_WORD_CHARS = 1,  /* runs of Unicode \w characters, punctuation dropped (the field's common one) */
  SIMDEX_SHINGLES_SPACE_SPLIT = 2  /* runs between spaces, punctuation kept in its word */
};

/* MinHash-LSH de-duplication's options (include/simdex/batch.h,
 * MinHashDedupOptions, whose comments say more). 152 bytes. */
typedef struct simdex_minhash_dedup_options {
  double threshold;       /* the Jaccard similarity of a duplicate, in (0, 1] */
  double estimate_filter; /* candidates with a b-bit estimate below it are dropped; negative: the mode's default */
  uint64_t seed;          /* of the MinHash functions */
  uint64_t memory_bytes;  /* the memory bound; what does not fit spills to tmpdir */
  const char* confirm;    /* a confirm spec ("jaccard-shingles:0.9", "edit:0.8") instead of the exact mode's check */
  const char* tmpdir;     /* NULL: $TMPDIR, else /tmp */
  /* Open MinHash-LSH indexes whose signatures are made as the batch's (the
   * same num_perm and seed): a document whose best match in them is at
   * least the estimate filter is a duplicate. They must stay open until
   * the result is freed. */
  const simdex_lsh_index* const* against;
  size_t against_count;
  int32_t exact;          /* nonzero: every pair is checked by the exact Jaccard of its texts' shingles */
  int32_t num_perm;       /* values per signature */
  int32_t bands;          /* bands and rows both 0: chosen from threshold and num_perm */
  int32_t rows;
  int32_t signature_bits; /* bits of each value the estimate keeps: 1, 2, 4, 8, 16 or 32 */
  int32_t keep;           /* SIMDEX_KEEP_* */
  int32_t keep_pairs;     /* nonzero: the result keeps the pairs (simdex_minhash_dedup_pairs, _write_pairs) */
  int32_t allow_duplicate_ids; /* zero: two documents with one id fail the run, naming both */
  int32_t threads;        /* at least 1 */
  int32_t shingles;       /* SIMDEX_SHINGLES_*: the word definition of the signatures and the exact check */
  uint64_t reserved[6];   /* 0 */
} simdex_minhash_dedup_options;

/* Fills *options with the defaults of `simdex dedup` (threshold 0.8, exact,
 * 128 values, 4-bit signatures, SIMDEX_SHINGLES_AUTO: MinHashDedupOptions'
 * defaults), one thread, no indexes. */
void simdex_minhash_dedup_options_init(simdex_minhash_dedup_options* options);

/* How files are read (DocumentFiles in include/simdex/batch.h). */
enum { SIMDEX_FORMAT_AUTO = 0, SIMDEX_FORMAT_JSONL = 1, SIMDEX_FORMAT_LINES = 2 };
enum {
  SIMDEX_IDS_FROM_FIELD = 0, /* JSONL: the value of id_field (a number, or a string) */
  SIMDEX_IDS_ORDINAL = 1     /* the record number, from 1, continuing from file to file */
};

/* Documents read from files as `simdex dedup` reads them: JSON Lines or one
 * document per line, .gz, .zst and .bz2 decompressed. 96 bytes. */
typedef struct simdex_document_files {
  const char* const* paths; /* the files, in order ("-": standard input, which cannot be read twice) */
  size_t path_count;
  const char* id_field;     /* JSONL: the id's field; init sets the library's ("id") */
  const char* const* text_fields; /* JSONL: the fields joined by newlines into the text; none: "text" */
  size_t text_field_count;
  const char* score_field;  /* JSONL: the number SIMDEX_KEEP_MAX_SCORE ranks by (NULL: none) */
  int32_t format;           /* SIMDEX_FORMAT_*: AUTO judges each file by its name */
  int32_t id_mode;          /* SIMDEX_IDS_* */
  int32_t skip_bad;         /* nonzero: bad records are skipped and counted instead of failing the run */
  int32_t reserved32;       /* 0 */
  uint64_t reserved[4];     /* 0 */
} simdex_document_files;

/* The defaults: no paths, format by name, ids from the field "id", the
 * text from "text". */
void simdex_document_files_init(simdex_document_files* files);

/* A MinHash-LSH de-duplication's outcome. Opaque. */
typedef struct simdex_minhash_dedup_result simdex_minhash_dedup_result;

/* De-duplicates `n` texts in memory: document i is texts[i], of lengths[i]
 * bytes of UTF-8 (NUL-terminated when lengths is NULL; a NULL texts[i] as
 * for simdex_lsh_index_query_texts), its id is i and its score (for
 * SIMDEX_KEEP_MAX_SCORE) scores[i]. scores may be NULL unless keep is
 * SIMDEX_KEEP_MAX_SCORE. The texts and scores are copied: the caller may
 * free them when the call returns. Errors: SIMDEX_INVALID_ARGUMENT for
 * options out of range (the message names the field: "threshold 1.5 is not
 * in (0, 1]"), an index of other signatures, or (without
 * allow_duplicate_ids) a repeated id; SIMDEX_IO_ERROR when spilling to
 * tmpdir fails. */
simdex_code simdex_minhash_dedup_texts(const char* const* texts, const size_t* lengths, const double* scores, size_t n,
                                       const simdex_minhash_dedup_options* options, simdex_minhash_dedup_result** out,
                                       char** errmsg);

/* De-duplicates the documents of `files`, read as `simdex dedup FILE...`
 * reads them, with the same results: the records, pairs and files equal the
 * command's for the same options. The exact mode and confirm specs read
 * the texts again, so the files must be regular files, and the clusters'
 * snippets read them once more when written. Errors as
 * simdex_minhash_dedup_texts's, and those of the input, whose messages
 * name the file: SIMDEX_NOT_FOUND for a file that does not exist,
 * SIMDEX_IO_ERROR for one that cannot be read, SIMDEX_CORRUPTION or
 * SIMDEX_INVALID_ARGUMENT naming the file and line of a bad record (unless
 * skip_bad). */
simdex_code simdex_minhash_dedup_files(const simdex_document_files* files, const simdex_minhash_dedup_options* options,
                                       simdex_minhash_dedup_result** out, char** errmsg);

/* The number of documents (0 for NULL). */
uint64_t simdex_minhash_dedup_size(const simdex_minhash_dedup_result* result);

/* One document's outcome. 32 bytes, no implicit padding. */
typedef struct simdex_minhash_dedup_record {
  uint64_t representative;  /* the ordinal of its cluster's representative: itself when alone or empty */
  uint64_t against_id;      /* with against_index >= 0: the match's id in that index (for string ids, its number:
                               simdex_lsh_index_id_string); else 0 */
  float estimate;           /* the estimated J with the representative (1 for itself; 0 when empty) */
  float against_estimate;   /* with against_index >= 0: the match's estimate; else 0 */
  int32_t against_index;    /* the matching index's place in options.against; -1 for none */
  uint8_t duplicate;        /* 1: not its cluster's representative, or an index holds a match */
  uint8_t empty;            /* 1: the text has no shingles (never a pair, never a duplicate) */
  uint16_t reserved;        /* 0 */
} simdex_minhash_dedup_record;

/* Copies the records of documents first, ..., first + count - 1 to out[].
 * Returns SIMDEX_INVALID_ARGUMENT (copying nothing) when the range passes
 * simdex_minhash_dedup_size, or result is NULL, or out is NULL and count >
 * 0. */
simdex_code simdex_minhash_dedup_records(const simdex_minhash_dedup_result* result, uint64_t first, size_t count,
                                         simdex_minhash_dedup_record* out);

/* The id of document `ordinal`: a number (*is_string 0, *number set, *data
 * NULL, *size 0) or, for a JSONL string id, a string (*is_string 1, *data
 * and *size its UTF-8 bytes, NOT NUL-terminated, valid until
 * simdex_minhash_dedup_free; *number 0). Texts have the ids 0 .. n - 1.
 * SIMDEX_INVALID_ARGUMENT for an ordinal past the size or a NULL argument. */
simdex_code simdex_minhash_dedup_id(const simdex_minhash_dedup_result* result, uint64_t ordinal, int* is_string,
                                    uint64_t* number, const char** data, size_t* size);

/* The run's figures. 160 bytes. */
typedef struct simdex_minhash_dedup_info {
  uint64_t documents;
  uint64_t empty;               /* documents without shingles */
  uint64_t skipped;             /* bad records skipped (skip_bad) */
  uint64_t distinct_signatures;
  uint64_t candidates;          /* pairs of distinct signatures sharing a band */
  uint64_t kept;                /* of those, through the estimate filter */
  uint64_t document_pairs;      /* document pairs before the check on the texts */
  uint64_t confirm_candidates;  /* pairs checked on their texts */
  uint64_t confirmed;           /* of those, accepted */
  uint64_t clusters;            /* clusters of two or more documents */
  uint64_t clustered_documents;
  uint64_t against_duplicates;  /* documents with a match in an index */
  uint64_t bytes_spilled;       /* written to tmpdir */
  double estimate_filter;       /* the filter used (0: off) */
  int32_t bands;                /* the bands used */
  int32_t rows;
  uint64_t reserved[5];
} simdex_minhash_dedup_info;

simdex_code simdex_minhash_dedup_stats(const simdex_minhash_dedup_result* result, simdex_minhash_dedup_info* out);

/* A pair of near-duplicates, ordinals a < b. 24 bytes. */
typedef struct simdex_minhash_dedup_pair {
  uint64_t a;
  uint64_t b;
  float estimate;   /* the estimate of their J */
  float similarity; /* the similarity the check on the texts measured; -1 when they were not checked */
} simdex_minhash_dedup_pair;

/* The pairs of a run with keep_pairs, ordered by a, then b: *pairs (NULL
 * when there are none) holds *count of them, valid until
 * simdex_minhash_dedup_free. The result streams its pairs from disk once:
 * the first call reads them all into memory (24 bytes each), and later
 * calls return the same array; simdex_minhash_dedup_write_pairs cannot
 * follow it, nor can this call follow that one (SIMDEX_INVALID_ARGUMENT, as
 * for a run without keep_pairs). */
simdex_code simdex_minhash_dedup_pairs(simdex_minhash_dedup_result* result, const simdex_minhash_dedup_pair** pairs,
                                       size_t* count, char** errmsg);

/* The files `simdex dedup` writes (docs/dedup.md, "Output"), byte for byte
 * as the command writes them for the same documents and options, each
 * under a temporary name renamed into place ("-": standard output):
 * one JSON line per document ({"id","cluster","duplicate","estimate",
 * "against"?,"empty"?}; an index is named by the path it was opened with); */
simdex_code simdex_minhash_dedup_write_records(const simdex_minhash_dedup_result* result, const char* path,
                                               char** errmsg);
/* the pairs of a run with keep_pairs (they are read once: see
 * simdex_minhash_dedup_pairs); */
simdex_code simdex_minhash_dedup_write_pairs(simdex_minhash_dedup_result* result, const char* path, char** errmsg);
/* the ids of the documents that are not duplicates, one a line; */
simdex_code simdex_minhash_dedup_write_keep_list(const simdex_minhash_dedup_result* result, const char* path,
                                                 char** errmsg);
/* the clusters of two or more documents, with the first snippet_words
 * words of each member's text (files are read again), as the command's
 * --snippet-words. */
simdex_code simdex_minhash_dedup_write_clusters(const simdex_minhash_dedup_result* result, const char* path,
                                                int snippet_words, char** errmsg);

void simdex_minhash_dedup_free(simdex_minhash_dedup_result* result);

/* SimHash de-duplication of documents (`simdex dedup --method simhash`,
 * docs/dedup.md), over DeduplicateBySimHash (include/simdex/batch.h), the
 * code the command runs: every pair of documents whose 64-bit fingerprints
 * are within Hamming distance k (inclusive), optionally confirmed on their
 * texts; clusters with a representative each; each document's nearest
 * entry within reach in stored SimHash indexes. The texts and files in
 * (simdex_document_files), the keep rule, the result's ids, the reading of
 * its pairs once and the command's files work as MinHash's above: a
 * simdex_simhash_dedup_X call without a comment of its own works as
 * simdex_minhash_dedup_X. */

/* How a text becomes features (FingerprintOptions in
 * include/simdex/fingerprint.h; `simdex dedup --tokenizer`, `--weighting`). */
enum {
  SIMDEX_TOKENIZER_WORDS = 0,       /* ICU words; CJK by dictionary */
  SIMDEX_TOKENIZER_CHAR_NGRAMS = 1, /* code point n-grams, white space and punctuation removed */
  SIMDEX_TOKENIZER_WORD_NGRAMS = 2  /* n-word shingles of the words */
};
enum {
  SIMDEX_WEIGHTING_TF = 0,        /* the count of the feature in the document */
  SIMDEX_WEIGHTING_BINARY = 1,    /* 1 for every distinct feature */
  SIMDEX_WEIGHTING_LOG_TF = 2,    /* 1 + ln(count) */
  SIMDEX_WEIGHTING_TF_IDF = 3,    /* count * idf: with learn_idf */
  SIMDEX_WEIGHTING_LOG_TF_IDF = 4 /* (1 + ln(count)) * idf: with learn_idf */
};
/* How documents are checked against indexes (`--against-strategy`). */
enum { SIMDEX_AGAINST_AUTO = 0, SIMDEX_AGAINST_PROBE = 1, SIMDEX_AGAINST_MERGE_JOIN = 2 };

/* SimHash de-duplication's options (SimHashDedupOptions, and its features'
 * FingerprintOptions, whose comments say more). 176 bytes. */
typedef struct simdex_simhash_dedup_options {
  uint64_t seed;          /* of the features' hashes */
  uint64_t memory_bytes;  /* the memory bound; what does not fit spills to tmpdir */
  double max_idf;         /* with learn_idf: learned idf values above it are it (infinity: none) */
  const char* scheme;     /* the self-join's tables ("t4", "t10", "t20", "W,W,...:K"); NULL: t10, or one covering k */
  const char* confirm;    /* a confirm spec ("jaccard-shingles:0.8", "edit:0.9"); NULL: none */
  const char* tmpdir;     /* NULL: $TMPDIR, else /tmp */
  /* Open SimHash indexes of fingerprints made as the batch's (their
   * profile is checked): a document with an entry within the index k of
   * one of them is a duplicate, its nearest entry reported. Each is read
   * from the file it serves at the call (a reload after it does not
   * change the result). */
  const simdex_index* const* against;
  size_t against_count;
  int32_t k;              /* the largest distance of a pair, 0..64; -1: 3, the scheme's k, or 8 under
                             confirm jaccard-shingles */
  int32_t k_short;        /* the k of a pair with a short document; -1: k */
  uint32_t short_length;  /* code points below which a document is short */
  int32_t tokenizer;      /* SIMDEX_TOKENIZER_* */
  int32_t ngram;          /* n of the n-gram tokenizers, 1..16 */
  int32_t weighting;      /* SIMDEX_WEIGHTING_* */
  int32_t normalize;      /* nonzero: NFKC and case folding */
  int32_t clean_text;     /* nonzero: markup, references and URLs cleaned first */
  int32_t cap_numbers;    /* nonzero: a word without a letter counts once */
  int32_t stop_words;     /* nonzero: the library's stop-word lists are dropped; 0: every feature kept */
  int32_t learn_idf;      /* nonzero: weigh by the idf learned from the batch (`--idf auto`; files read
                             twice); needs an idf weighting */
  int32_t keep;           /* SIMDEX_KEEP_* */
  int32_t keep_pairs;     /* nonzero: the result keeps the pairs (simdex_simhash_dedup_pairs, _write_pairs) */
  int32_t allow_duplicate_ids; /* zero: two documents with one id fail the run, naming both */
  int32_t threads;        /* at least 1 */
  int32_t against_strategy; /* SIMDEX_AGAINST_* */
  uint64_t reserved[6];   /* 0 */
} simdex_simhash_dedup_options;

/* Fills *options with the defaults of `simdex dedup --method simhash`
 * (SimHashDedupOptions' and FingerprintOptions': k 3 by t10, words, tf
 * weights, the stop-word lists, seed 0), one thread, no indexes. */
void simdex_simhash_dedup_options_init(simdex_simhash_dedup_options* options);

/* A SimHash de-duplication's outcome. Opaque. */
typedef struct simdex_simhash_dedup_result simdex_simhash_dedup_result;

/* As simdex_minhash_dedup_texts and simdex_minhash_dedup_files, by
 * SimHash: the records, pairs and files equal `simdex dedup --method
 * simhash`'s for the same documents and options. Errors as theirs; the
 * options' messages name the field ("k 65 is not in -1..64"), an index of
 * another profile or whose scheme does not reach the index k is
 * SIMDEX_INVALID_ARGUMENT. */
simdex_code simdex_simhash_dedup_texts(const char* const* texts, const size_t* lengths, const double* scores, size_t n,
                                       const simdex_simhash_dedup_options* options, simdex_simhash_dedup_result** out,
                                       char** errmsg);
simdex_code simdex_simhash_dedup_files(const simdex_document_files* files, const simdex_simhash_dedup_options* options,
                                       simdex_simhash_dedup_result** out, char** errmsg);

uint64_t simdex_simhash_dedup_size(const simdex_simhash_dedup_result* result);

/* One document's outcome. 32 bytes, no implicit padding. */
typedef struct simdex_simhash_dedup_record {
  uint64_t representative;  /* the ordinal of its cluster's representative: itself when alone or empty */
  uint64_t against_id;      /* with against_index >= 0: the entry's id in that index (for string ids, its number:
                               simdex_index_id_string); else 0 */
  int32_t distance;         /* the Hamming distance to the representative (0 for itself) */
  int32_t against_index;    /* the matching index's place in options.against; -1 for none */
  int32_t against_distance; /* with against_index >= 0: the entry's distance; else 0 */
  uint8_t duplicate;        /* 1: not its cluster's representative, or an index holds an entry within reach */
  uint8_t empty;            /* 1: the text has no features (never a pair, never a duplicate) */
  uint16_t reserved;        /* 0 */
} simdex_simhash_dedup_record;

simdex_code simdex_simhash_dedup_records(const simdex_simhash_dedup_result* result, uint64_t first, size_t count,
                                         simdex_simhash_dedup_record* out);
simdex_code simdex_simhash_dedup_id(const simdex_simhash_dedup_result* result, uint64_t ordinal, int* is_string,
                                    uint64_t* number, const char** data, size_t* size);

/* The run's figures. 128 bytes. */
typedef struct simdex_simhash_dedup_info {
  uint64_t documents;
  uint64_t empty;                 /* documents without features */
  uint64_t skipped;               /* bad records skipped (skip_bad) */
  uint64_t distinct_fingerprints;
  uint64_t pairs;                 /* document pairs within the self-join's k, before the check on the texts */
  uint64_t confirm_candidates;    /* pairs checked on their texts (confirm, k_short) */
  uint64_t confirmed;             /* of those, accepted */
  uint64_t clusters;              /* clusters of two or more documents */
  uint64_t clustered_documents;
  uint64_t duplicates;            /* documents marked duplicate */
  uint64_t against_duplicates;    /* documents with an index entry within reach */
  int32_t k;                      /* the distances used: the pairs' k, */
  int32_t k_short;                /* the k of pairs with a short document, */
  int32_t join_k;                 /* the self-join's, */
  int32_t against_k;              /* the index k */
  uint64_t reserved[3];
} simdex_simhash_dedup_info;

simdex_code simdex_simhash_dedup_stats(const simdex_simhash_dedup_result* result, simdex_simhash_dedup_info* out);

/* A pair of near-duplicates, ordinals a < b. 24 bytes. */
typedef struct simdex_simhash_dedup_pair {
  uint64_t a;
  uint64_t b;
  int32_t distance; /* the Hamming distance of their fingerprints */
  float similarity; /* the similarity the check on the texts measured; -1 when they were not checked */
} simdex_simhash_dedup_pair;

simdex_code simdex_simhash_dedup_pairs(simdex_simhash_dedup_result* result, const simdex_simhash_dedup_pair** pairs,
                                       size_t* count, char** errmsg);

/* The command's files (records with "distance" where MinHash's have
 * "estimate"). */
simdex_code simdex_simhash_dedup_write_records(const simdex_simhash_dedup_result* result, const char* path,
                                               char** errmsg);
simdex_code simdex_simhash_dedup_write_pairs(simdex_simhash_dedup_result* result, const char* path, char** errmsg);
simdex_code simdex_simhash_dedup_write_keep_list(const simdex_simhash_dedup_result* result, const char* path,
                                                 char** errmsg);
simdex_code simdex_simhash_dedup_write_clusters(const simdex_simhash_dedup_result* result, const char* path,
                                                int snippet_words, char** errmsg);

void simdex_simhash_dedup_free(simdex_simhash_dedup_result* result);

/* Frees a string the library returned (NULL: nothing). */
void simdex_free_string(char* str);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SIMDEX_SIMDEX_C_H_ */
