// The confirmation's pieces of MinHash de-duplication run apart
// (include/simdex/minhash_dedup_parts.h, step 5): the rule is
// ConfirmPairs' (engine/pipeline/confirm_pairs.cc), on rows sent where the
// pairs are.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "engine/pipeline/minhash_assembly.h"
#include "simdex/minhash_dedup_parts.h"

namespace simdex {
namespace {

using pipeline::KeyError;

// OK when rows' lims run from 0 to its values, never decreasing, with one
// entry more than `documents`.
Status CheckRows(const ConfirmRowsView& rows, size_t documents) {
  const size_t values = rows.hashes.size() + rows.bytes.size();
  if (rows.lims.size() != documents + 1 || rows.lims[0] != 0 || rows.lims.back() != values ||
      !std::is_sorted(rows.lims.begin(), rows.lims.end())) {
    return Status::InvalidArgument("rows: lims must run from 0 to the " + std::to_string(values) +
                                   " values, one entry more than the " + std::to_string(documents) + " documents");
  }
  if (!rows.hashes.empty() && !rows.bytes.empty()) return Status::InvalidArgument("rows hold hashes and bytes");
  return Status::OK();
}

// Appends row r of `from` to *to, with its key.
void AppendRow(const ConfirmRowsView& from, size_t r, uint64_t key, ConfirmRows* to) {
  to->keys.push_back(key);
  const uint64_t begin = from.lims[r], end = from.lims[r + 1];
  if (!from.hashes.empty()) to->hashes.insert(to->hashes.end(), from.hashes.begin() + begin, from.hashes.begin() + end);
  if (!from.bytes.empty()) to->bytes.insert(to->bytes.end(), from.bytes.begin() + begin, from.bytes.begin() + end);
  to->lims.push_back(to->lims.back() + (end - begin));
}

}  // namespace

void CutConfirmCandidates(const MinHashItemsView& items, ConfirmCandidates* out) {
  const size_t parts = items.offsets.size() - 1;
  EstimatedPairs pairs;
  DocumentPairs(items, &pairs);
  *out = ConfirmCandidates();
  out->pairs = pairs.a.size();
  out->pieces.assign(parts, EstimatedPairs());
  for (size_t i = 0; i < pairs.a.size(); ++i) {
    const uint64_t a = pipeline::KeyOf(items.offsets, pairs.a[i]), b = pipeline::KeyOf(items.offsets, pairs.b[i]);
    EstimatedPairs& to = out->pieces[PartitionOfKey(b)];
    to.a.push_back(a);
    to.b.push_back(b);
    to.estimates.push_back(pairs.estimates[i]);
  }
  out->wanted.assign(parts, std::vector<std::vector<uint32_t>>(parts));
  std::vector<uint64_t> documents;
  for (size_t q = 0; q < parts; ++q) {
    const EstimatedPairs& piece = out->pieces[q];
    documents.assign(piece.a.begin(), piece.a.end());
    documents.insert(documents.end(), piece.b.begin(), piece.b.end());
    std::sort(documents.begin(), documents.end());
    documents.erase(std::unique(documents.begin(), documents.end()), documents.end());
    for (uint64_t key : documents) out->wanted[PartitionOfKey(key)][q].push_back(PositionOfKey(key));
  }
}

Status PickConfirmRows(uint32_t partition, std::span<const uint32_t> positions, const ConfirmRowsView& read,
                       std::span<const std::span<const uint32_t>> wanted, std::vector<ConfirmRows>* out) {
  SIMDEX_RETURN_IF_ERROR(CheckRows(read, positions.size()));
  out->assign(wanted.size(), ConfirmRows());
  for (size_t q = 0; q < wanted.size(); ++q) {
    ConfirmRows& to = (*out)[q];
    to.lims.assign(1, 0);
    for (uint32_t position : wanted[q]) {
      const auto at = std::lower_bound(positions.begin(), positions.end(), position);
      if (at == positions.end() || *at != position) {
        return Status::InvalidArgument("wanted position " + std::to_string(position) + " of partition " +
                                       std::to_string(partition) + " was not read");
      }
      AppendRow(read, static_cast<size_t>(at - positions.begin()), PartKey(partition, position), &to);
    }
  }
  return Status::OK();
}

Status ConfirmRowPairs(Confirmer* confirmer, const ConfirmRowsView& rows, std::span<const uint64_t> rows_a,
                       std::span<const uint64_t> rows_b, std::vector<uint8_t>* accepted,
                       std::vector<double>* similarities) {
  const size_t documents = rows.lims.empty() ? 0 : rows.lims.size() - 1;
  SIMDEX_RETURN_IF_ERROR(CheckRows(rows, documents));
  if (rows_a.size() != rows_b.size()) return Status::InvalidArgument("rows_a and rows_b differ in length");
  for (size_t i = 0; i < rows_a.size(); ++i) {
    if (rows_a[i] >= documents || rows_b[i] >= documents) {
      return Status::InvalidArgument("pair " + std::to_string(i) + " names a row past the " +
                                     std::to_string(documents) + " documents");
    }
  }
  const bool by_shingles = confirmer->options().measure == ConfirmMeasure::kJaccard;
  if (by_shingles && !rows.bytes.empty()) return Status::InvalidArgument("a Jaccard spec confirms hashes, not texts");
  if (!by_shingles && !rows.hashes.empty()) return Status::InvalidArgument("edit confirms texts, not hashes");
  const auto hashes = [&](uint64_t r) { return rows.hashes.subspan(rows.lims[r], rows.lims[r + 1] - rows.lims[r]); };
  const auto text = [&](uint64_t r) {
    return std::string_view(reinterpret_cast<const char*>(rows.bytes.data()) + rows.lims[r],
                            rows.lims[r + 1] - rows.lims[r]);
  };
  accepted->resize(rows_a.size());
  similarities->resize(rows_a.size());
  for (size_t i = 0; i < rows_a.size(); ++i) {
    const uint64_t x = rows_a[i], y = rows_b[i];
    double& similarity = (*similarities)[i];
    if (by_shingles) {
      similarity = Confirmer::JaccardOfShingles(hashes(x), hashes(y));
    } else {
      similarity = confirmer->Confirms(text(x), text(y)) ? confirmer->Similarity(text(x), text(y))
                                                         : std::numeric_limits<double>::quiet_NaN();
    }
    (*accepted)[i] = similarity >= confirmer->options().threshold;  // false for NaN
  }
  return Status::OK();
}

Status ConfirmPieces(Confirmer* confirmer, const EstimatedPairsView& pairs, std::span<const ConfirmRowsView> rows,
                     ConfirmedPairs* out) {
  if (pairs.b.size() != pairs.a.size() || pairs.estimates.size() != pairs.a.size()) {
    return Status::InvalidArgument("pairs of different lengths");
  }
  // The pieces' rows in one offset array, and each key's row.
  ConfirmRows all;
  all.lims.assign(1, 0);
  std::vector<std::pair<uint64_t, uint64_t>> row_of;  // (key, row)
  for (const ConfirmRowsView& piece : rows) {
    SIMDEX_RETURN_IF_ERROR(CheckRows(piece, piece.keys.size()));
    for (size_t r = 0; r < piece.keys.size(); ++r) {
      row_of.emplace_back(piece.keys[r], all.keys.size());
      AppendRow(piece, r, piece.keys[r], &all);
    }
  }
  std::sort(row_of.begin(), row_of.end());
  std::vector<uint64_t> rows_a(pairs.a.size()), rows_b(pairs.a.size());
  for (size_t i = 0; i < pairs.a.size(); ++i) {
    for (const auto& [key, row] : {std::tie(pairs.a[i], rows_a[i]), std::tie(pairs.b[i], rows_b[i])}) {
      const auto at = std::lower_bound(row_of.begin(), row_of.end(), std::make_pair(key, uint64_t{0}));
      if (at == row_of.end() || at->first != key) return KeyError("document", key, "has no rows");
      row = at->second;
    }
  }
  std::vector<uint8_t> accepted;
  std::vector<double> similarities;
  SIMDEX_RETURN_IF_ERROR(ConfirmRowPairs(confirmer, all.View(), rows_a, rows_b, &accepted, &similarities));
  *out = ConfirmedPairs();
  for (size_t i = 0; i < accepted.size(); ++i) {
    if (!accepted[i]) continue;
    out->pairs.a.push_back(pairs.a[i]);
    out->pairs.b.push_back(pairs.b[i]);
    out->pairs.estimates.push_back(pairs.estimates[i]);
    out->similarities.push_back(similarities[i]);
  }
  return Status::OK();
}

Status ClusterConfirmed(const MinHashItemsView& items, std::span<const double> scores,
                        std::span<const ConfirmedPairsView> confirmed, bool keep_pairs, MinHashClusters* clusters,
                        ConfirmedPairs* pairs) {
  std::vector<std::tuple<uint64_t, uint64_t, double, double>> all;  // ordinals
  for (const ConfirmedPairsView& c : confirmed) {
    const size_t n = c.pairs.a.size();
    if (c.pairs.b.size() != n || c.pairs.estimates.size() != n || c.similarities.size() != n) {
      return Status::InvalidArgument("confirmed pairs of different lengths");
    }
    for (size_t i = 0; i < n; ++i) {
      uint64_t a = 0, b = 0;
      SIMDEX_RETURN_IF_ERROR(pipeline::OrdinalOf(items.offsets, c.pairs.a[i], "confirmed", &a));
      SIMDEX_RETURN_IF_ERROR(pipeline::OrdinalOf(items.offsets, c.pairs.b[i], "confirmed", &b));
      all.emplace_back(a, b, c.pairs.estimates[i], c.similarities[i]);
    }
  }
  std::sort(all.begin(), all.end());
  *pairs = ConfirmedPairs();
  std::vector<uint64_t> a, b;
  for (const auto& [x, y, estimate, similarity] : all) {
    a.push_back(x);
    b.push_back(y);
    if (!keep_pairs) continue;
    pairs->pairs.estimates.push_back(estimate);
    pairs->similarities.push_back(similarity);
  }
  SIMDEX_RETURN_IF_ERROR(ClusterDocuments(items, scores, a, b, clusters));
  if (keep_pairs) {
    pairs->pairs.a = std::move(a);
    pairs->pairs.b = std::move(b);
  }
  return Status::OK();
}

}  // namespace simdex
