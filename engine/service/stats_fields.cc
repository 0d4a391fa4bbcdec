#include "engine/service/stats_fields.h"

namespace simdex::service {

namespace {

using S = const ServiceStats&;
using O = const ServiceOptions&;

// The rows. The JSON keys and metric names are documented in docs/service.md.
const StatsField kFields[] = {
    {"articles", nullptr, nullptr, nullptr, [](S s, O) { return double(s.articles); }},
    {"replays", "simdex_replays_total", "counter", "Articles whose id was answered before (retries).",
     [](S s, O) { return double(s.replays); }},
    {"docs", nullptr, nullptr, nullptr, [](S s, O) { return double(s.docs); }},
    {"total_articles", "simdex_state_articles", "gauge",
     "Articles the state has answered since it was created (replays excluded).",
     [](S s, O) { return double(s.total_articles); }},
    {"total_docs", "simdex_state_docs", "gauge", "docIds the state has made since it was created.",
     [](S s, O) { return double(s.total_docs); }},
    {"delta_entries", "simdex_entries_delta", "gauge", "Title and content entries in the in-memory delta.",
     [](S s, O) { return double(s.delta_entries); }},
    {"file_entries", "simdex_entries_files", "gauge", "Title and content entries in index files (expired ones included).",
     [](S s, O) { return double(s.file_entries); }},
    {"files", "simdex_index_files", "gauge", "Index files.", [](S s, O) { return double(s.files); }},
    {"window_first_seq", "simdex_window_first_seq", "gauge",
     "Sequence numbers below this have left the retention window.",
     [](S s, O) { return double(s.window_first_seq); }},
    {"next_seq", "simdex_next_seq", "gauge", "The next sequence number.", [](S s, O) { return double(s.next_seq); }},
    {"compactions", "simdex_compactions_total", "counter", "Compactions of the delta into files.",
     [](S s, O) { return double(s.compactions); }},
    {"merges", "simdex_merges_total", "counter", "Merges of two index files into one.",
     [](S s, O) { return double(s.merges); }},
    {"expired_files", "simdex_expired_files_total", "counter", "Index files dropped whole by the window.",
     [](S s, O) { return double(s.expired_files); }},
    {nullptr, "simdex_last_compaction_seconds", "gauge", "Duration of the last compaction.",
     [](S s, O) { return s.last_compaction_seconds; }},
    {"confirmations", "simdex_confirmations_total", "counter", "Short-content candidates checked on their texts.",
     [](S s, O) { return double(s.confirmations); }},
    {"rejections", "simdex_rejections_total", "counter", "Short-content candidates their texts did not confirm.",
     [](S s, O) { return double(s.rejections); }},
    {"content_candidates", "simdex_content_candidates_total", "counter",
     "MinHash contents: docIds sharing a band key with a content, counted per part searched.",
     [](S s, O) { return double(s.content_candidates); }},
    {"content_estimates", "simdex_content_estimates_total", "counter",
     "MinHash contents: estimates of the Jaccard similarity computed for candidates.",
     [](S s, O) { return double(s.content_estimates); }},
    {"delta_memory_bytes", "simdex_delta_memory_bytes", "gauge", "Bytes held by the in-memory delta.",
     [](S s, O) { return double(s.delta_memory_bytes); }},
    {"file_bytes", "simdex_file_bytes", "gauge", "Bytes of the index files.", [](S s, O) { return double(s.file_bytes); }},
    {"window_seconds", "simdex_window_seconds", "gauge", "The retention window (0: none): docIds older than this expire.",
     [](S, O o) { return double(o.window_seconds); }},
    {"retain_seconds", "simdex_retain_seconds", "gauge",
     "Articles and docIds older than this are deleted from the database (0: kept forever).",
     [](S, O o) { return double(o.retain_seconds); }},
    {"retained_first_seq", nullptr, nullptr, nullptr, [](S s, O) { return double(s.retained_first_seq); }},
    {"pruned_articles", "simdex_pruned_articles_total", "counter", "Articles deleted by the retention.",
     [](S s, O) { return double(s.pruned_articles); }},
    {"store_write_errors", "simdex_store_write_errors_total", "counter",
     "Database writes and log syncs that failed (disk full, ...); answered 503.",
     [](S s, O) { return double(s.store_write_errors); }},
    {"store_reopens", "simdex_store_reopens_total", "counter", "Reopens of the database after a failed write.",
     [](S s, O) { return double(s.store_reopens); }},
    {"wal_syncs", "simdex_wal_syncs_total", "counter", "fsyncs of the database's log (--sync).",
     [](S s, O) { return double(s.wal_syncs); }},
    {"preloaded_bytes", "simdex_file_preloaded_bytes", "gauge", "Bytes of the index files read by --preload.",
     [](S s, O) { return double(s.preloaded_bytes); }},
    {"locked_bytes", "simdex_file_locked_bytes", "gauge", "Bytes of the index files locked in memory by --preload lock.",
     [](S s, O) { return double(s.locked_bytes); }},
    {"decision_lock_microseconds", "simdex_decision_lock_microseconds_total", "counter",
     "Time Submit's decisions held the decision lock, summed (over the articles: the mean hold).",
     [](S s, O) { return double(s.decision_lock_microseconds); }},
    {"decision_lock_reads", "simdex_decision_lock_reads_total", "counter",
     "Database reads Submit's decisions did under the decision lock (a key written since its read before the lock).",
     [](S s, O) { return double(s.decision_lock_reads); }},
    {"k", nullptr, nullptr, nullptr, [](S, O o) { return double(o.k); }},
    {"k_title", nullptr, nullptr, nullptr, [](S, O o) { return double(o.k_title); }},
};

}  // namespace

std::span<const StatsField> StatsFields() { return kFields; }

}  // namespace simdex::service
