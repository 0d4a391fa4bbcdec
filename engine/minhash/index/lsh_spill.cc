#include "engine/minhash/index/lsh_spill.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

#include "engine/index/sorted_values.h"
#include "engine/minhash/index/lsh_file.h"
#include "engine/util/external_sorter.h"
#include "engine/util/output_file.h"
#include "format/coding.h"
#include "format/packed_ints.h"

namespace simdex::minhash {

using util::ExternalSorter;
using util::ExternalSortOptions;
using util::FingerprintIdPair;
using util::MappedValues;
using util::OutputFile;

namespace {

// Each stage's share of the budget D (at most D in all at any time):
//   adding:     the (id, position) sort D/2, the records' writer buffer
//   ordinals:   that sort's merge (<= D/2), the (position, ordinal) sort
//               D/4, a run of equal ids D/8, the ids' writer buffer
//   records:    the (position, ordinal) merge (<= D/4), the band sorts D/2
//               together, the signature buckets' buffers D/8, and a batch of
//               kBandBatch values per band
//   signatures: the band sorts (<= D/2), D/8 of signatures placed at a
//               time from one bucket's map (read once per D/8 it holds:
//               more than once only past kMaxBuckets x D/8 of signatures)
//   tables:     one band's merge, the table's writer buffer
// Writer buffers are min(1 MiB, D/16).
constexpr size_t kBandBatch = 512;
constexpr size_t kMinBucketBuffer = 4096;
// Open bucket files at once (each a descriptor).
constexpr uint64_t kMaxBuckets = 512;

size_t WriterBuffer(size_t budget) { return std::min<size_t>(size_t{1} << 20, budget / 16); }

}  // namespace

size_t MinSpillMemoryBytes(int bands) {
  return std::max<size_t>(4 * util::kExternalSortMinMemoryBytes,
                          2 * static_cast<size_t>(bands) * util::kExternalSortMinMemoryBytes);
}

struct SpilledDocuments::Rep {
  LshBuildOptions options;
  size_t budget = 0;
  std::string tmpdir;
  size_t signature_bytes = 0;
  size_t record_bytes = 0;  // 8 (banded) + 8 per band + the signature rounded up to 8
  std::unique_ptr<OutputFile> records;
  std::string record;  // one record being built
  std::unique_ptr<ExternalSorter<FingerprintIdPair>> pairs;  // (id number, position)
  uint64_t min_id = ~uint64_t{0}, max_id = 0;                // numeric ids

  ExternalSortOptions SortOptions(size_t bytes) const {
    ExternalSortOptions s;
    s.memory_bytes = bytes;
    s.tmpdir = tmpdir;
    return s;
  }
  template <class R>
  Status NewSorter(size_t bytes, std::unique_ptr<ExternalSorter<R>>* out) const {
    *out = std::make_unique<ExternalSorter<R>>(SortOptions(bytes));
    return (*out)->status();
  }
  template <class R>
  static void Count(const ExternalSorter<R>& s, SpillStats* stats) {
    stats->runs += s.stats().runs_spilled;
    stats->bytes += s.stats().bytes_spilled;
  }
  // Feeds the pairs, sorted, through `f` into a new (id, position) sort.
  Status Rekey(const std::function<uint64_t(uint64_t)>& f, SpillStats* stats);
};

SpilledDocuments::SpilledDocuments(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
SpilledDocuments::~SpilledDocuments() = default;

Status SpilledDocuments::Create(const LshBuildOptions& options, size_t memory_bytes, const std::string& tmpdir,
                                std::unique_ptr<SpilledDocuments>* out) {
  auto rep = std::make_unique<Rep>();
  rep->options = options;
  rep->budget = memory_bytes;
  rep->tmpdir = tmpdir;
  rep->signature_bytes = DocumentBytes(options);  // the signature and the sketch slot
  rep->record_bytes = 8 + 8 * static_cast<size_t>(options.bands.bands) + (rep->signature_bytes + 7) / 8 * 8;
  rep->record.assign(rep->record_bytes, '\0');
  SIMDEX_RETURN_IF_ERROR(
      OutputFile::CreateScratch(tmpdir, "records", WriterBuffer(memory_bytes), &rep->records));
  SIMDEX_RETURN_IF_ERROR(rep->NewSorter(memory_bytes / 2, &rep->pairs));
  out->reset(new SpilledDocuments(std::move(rep)));
  return Status::OK();
}

Status SpilledDocuments::Add(uint64_t id, const uint64_t* keys, const uint8_t* packed, bool banded) {
  Rep& r = *rep_;
  const size_t nb = static_cast<size_t>(r.options.bands.bands);
  char* p = r.record.data();
  const uint64_t flag = banded ? 1 : 0;
  std::memcpy(p, &flag, 8);
  std::memcpy(p + 8, keys, 8 * nb);
  std::memcpy(p + 8 + 8 * nb, packed, r.signature_bytes);
  SIMDEX_RETURN_IF_ERROR(r.records->Append(r.record));
  const FingerprintIdPair pair{id, documents_};
  SIMDEX_RETURN_IF_ERROR(r.pairs->Add(&pair, 1));
  r.min_id = std::min(r.min_id, id);
  r.max_id = std::max(r.max_id, id);
  ++documents_;
  banded_ += banded;
  return Status::OK();
}

Status SpilledDocuments::Rep::Rekey(const std::function<uint64_t(uint64_t)>& f, SpillStats* stats) {
  std::unique_ptr<ExternalSorter<FingerprintIdPair>> next;
  SIMDEX_RETURN_IF_ERROR(NewSorter(budget / 2, &next));
  SIMDEX_RETURN_IF_ERROR(pairs->Finish());
  std::vector<FingerprintIdPair> batch(4096);
  for (size_t got = 0;;) {
    SIMDEX_RETURN_IF_ERROR(pairs->Read(batch.data(), batch.size(), &got));
    if (got == 0) break;
    for (size_t i = 0; i < got; ++i) batch[i].fingerprint = f(batch[i].fingerprint);
    SIMDEX_RETURN_IF_ERROR(next->Add(batch.data(), got));
  }
  Count(*pairs, stats);
  pairs = std::move(next);
  return Status::OK();
}

Status SpilledDocuments::SwitchToStringIds(index::IdMapBuilder* map) {
  return rep_->Rekey([map](uint64_t id) { return map->Intern(std::to_string(id)); }, &stats_);
}

Status SpilledDocuments::Write(const std::string& path, int min_ordinal_bits, index::IdMapBuilder* map,
                               uint64_t* file_bytes) {
  Rep& r = *rep_;
  const LshBuildOptions& o = r.options;
  const uint64_t n = documents_;
  const int nbands = o.bands.bands;
  const size_t sb = r.signature_bytes, rb = r.record_bytes, budget = r.budget;
  const std::string& dir = r.tmpdir;
  format::LshMetadata m = LshMetadataFor(o, n, banded_, min_ordinal_bits);
  const uint64_t mask = OrdinalMask(m);

  SIMDEX_RETURN_IF_ERROR(r.records->Close());
  stats_.bytes += r.records->size();
  std::unique_ptr<MappedValues> records_map;
  SIMDEX_RETURN_IF_ERROR(MappedValues::Open(*r.records, &records_map));
  const uint8_t* records = reinterpret_cast<const uint8_t*>(records_map->bytes().data());
  auto keys_at = [&](uint64_t pos) { return reinterpret_cast<const uint64_t*>(records + pos * rb + 8); };
  auto sig_at = [&](uint64_t pos) { return records + pos * rb + 8 + 8 * nbands; };
  auto banded_at = [&](uint64_t pos) { return records[pos * rb] != 0; };

  // 1. Ids: the numbers, or the strings' ranks.
  uint64_t id_base = 0, id_max = 0;
  if (map != nullptr) {
    SIMDEX_RETURN_IF_ERROR(map->Finish());
    SIMDEX_RETURN_IF_ERROR(r.Rekey(
        [map, &id_max](uint64_t number) {
          const uint64_t rank = map->Rank(number);
          id_max = std::max(id_max, rank);
          return rank;
        },
        &stats_));
  } else if (n > 0) {
    id_base = r.min_id;
    id_max = r.max_id;
  }
  m.id_base = id_base;
  m.id_width = static_cast<uint8_t>(format::BitWidth(id_max - id_base));

  // 2. Ordinals: (id, position) order, equal ids by DocumentLess.
  std::unique_ptr<ExternalSorter<FingerprintIdPair>> inverse;  // (position, ordinal)
  SIMDEX_RETURN_IF_ERROR(r.NewSorter(budget / 4, &inverse));
  std::unique_ptr<OutputFile> ids_file;
  SIMDEX_RETURN_IF_ERROR(OutputFile::CreateScratch(dir, "ids", WriterBuffer(budget), &ids_file));
  {
    SIMDEX_RETURN_IF_ERROR(r.pairs->Finish());
    std::string ids_buf;
    format::PackedIntsWriter ids(&ids_buf, m.id_width);
    const size_t max_group = std::max<size_t>(1, budget / 8 / sizeof(uint64_t));
    std::vector<uint64_t> group;  // positions of one id
    std::vector<FingerprintIdPair> out;
    uint64_t group_id = 0, ordinal = 0;
    auto flush_group = [&]() -> Status {
      if (group.size() > 1) {
        std::sort(group.begin(), group.end(), [&](uint64_t a, uint64_t b) {
          return DocumentLess(sig_at(a), keys_at(a), banded_at(a), sig_at(b), keys_at(b), banded_at(b), sb, nbands,
                              mask);
        });
      }
      out.clear();
      for (uint64_t pos : group) {
        out.push_back({pos, ordinal++});
        ids.Add(group_id - id_base);
      }
      group.clear();
      return inverse->Add(out.data(), out.size());
    };
    index::SortedStream<FingerprintIdPair> pairs(r.pairs.get());
    for (FingerprintIdPair p; pairs.Next(&p);) {
      if (!group.empty() && p.fingerprint != group_id) SIMDEX_RETURN_IF_ERROR(flush_group());
      if (group.size() == max_group) {
        std::string id = map != nullptr ? std::string(map->String(group_id)) : std::to_string(group_id);
        if (map != nullptr) id = std::string(1, '\'') + id + '\'';
        return Status::InvalidArgument("more than " + std::to_string(max_group) + " documents share the id " + id +
                                       ": more than a memory budget of " + std::to_string(budget) + " bytes orders");
      }
      group_id = p.fingerprint;
      group.push_back(p.id);
      if (ids_buf.size() >= WriterBuffer(budget)) {
        SIMDEX_RETURN_IF_ERROR(ids_file->Append(ids_buf));
        ids_buf.clear();
      }
    }
    SIMDEX_RETURN_IF_ERROR(pairs.status());
    SIMDEX_RETURN_IF_ERROR(flush_group());
    ids.Finish();
    SIMDEX_RETURN_IF_ERROR(ids_file->Append(ids_buf));
    SIMDEX_RETURN_IF_ERROR(ids_file->Close());
    stats_.bytes += ids_file->size();
    if (ordinal != n) {
      return Status::Corruption("the id sort returned " + std::to_string(ordinal) + " of " + std::to_string(n) +
                                " documents");
    }
    Rep::Count(*r.pairs, &stats_);
    r.pairs.reset();
  }

  // 3. One pass over the records in position order: band values to the
  // band sorts, signatures to the bucket of their ordinal range. A bucket
  // is placed per_place ordinals at a time (D/8); there are as many buckets
  // as that takes, or as many as may be open at once (kMaxBuckets, and a
  // buffer of kMinBucketBuffer each within D/8), each then read once per
  // per_place of its ordinals.
  const uint64_t per_place = std::max<uint64_t>(1, budget / 8 / std::max<size_t>(sb, 1));
  const uint64_t max_buckets = std::clamp<uint64_t>(budget / 8 / kMinBucketBuffer, 1, kMaxBuckets);
  const uint64_t buckets_wanted = std::min(max_buckets, (n + per_place - 1) / per_place);
  const uint64_t per_bucket = n == 0 ? 1 : (n + buckets_wanted - 1) / buckets_wanted;
  const uint64_t num_buckets = (n + per_bucket - 1) / per_bucket;  // none empty
  std::vector<std::unique_ptr<ExternalSorter<uint64_t>>> bands(nbands);
  for (auto& s : bands) SIMDEX_RETURN_IF_ERROR(r.NewSorter(budget / 2 / nbands, &s));
  std::vector<std::unique_ptr<OutputFile>> buckets(num_buckets);
  {
    const size_t bucket_buffer =
        num_buckets == 0 ? 0 : std::clamp<size_t>(budget / 8 / num_buckets, kMinBucketBuffer, size_t{1} << 20);
    for (auto& b : buckets) SIMDEX_RETURN_IF_ERROR(OutputFile::CreateScratch(dir, "signatures", bucket_buffer, &b));
    SIMDEX_RETURN_IF_ERROR(inverse->Finish());
    std::vector<std::vector<uint64_t>> values(nbands);
    for (auto& v : values) v.reserve(kBandBatch);
    std::string entry(8 + sb, '\0');
    index::SortedStream<FingerprintIdPair> placed(inverse.get());
    uint64_t pos = 0;
    for (FingerprintIdPair p; placed.Next(&p); ++pos) {
      const uint64_t ordinal = p.id;
      if (p.fingerprint != pos || ordinal >= n) {
        return Status::Corruption("the position sort returned document " + std::to_string(p.fingerprint) + " where " +
                                  std::to_string(pos) + " was due");
      }
      if (banded_at(pos)) {
        const uint64_t* keys = keys_at(pos);
        for (int t = 0; t < nbands; ++t) {
          values[t].push_back((keys[t] & ~mask) | ordinal);
          if (values[t].size() == kBandBatch) {
            SIMDEX_RETURN_IF_ERROR(bands[t]->Add(values[t].data(), values[t].size()));
            values[t].clear();
          }
        }
      }
      std::memcpy(entry.data(), &ordinal, 8);
      std::memcpy(entry.data() + 8, sig_at(pos), sb);
      SIMDEX_RETURN_IF_ERROR(buckets[ordinal / per_bucket]->Append(entry));
      // Read once, front to back: 4,096 records at a time released.
      if ((pos + 1) % 4096 == 0) records_map->Release((pos - 4095) * rb, 4096 * rb);
    }
    SIMDEX_RETURN_IF_ERROR(placed.status());
    if (pos != n) {
      return Status::Corruption("the position sort returned " + std::to_string(pos) + " of " + std::to_string(n) +
                                " documents");
    }
    for (int t = 0; t < nbands; ++t) SIMDEX_RETURN_IF_ERROR(bands[t]->Add(values[t].data(), values[t].size()));
    Rep::Count(*inverse, &stats_);
    inverse.reset();
    records_map.reset();
    r.records.reset();  // removes the records
  }

  // 4. The signatures in ordinal order, per_place of them at a time.
  std::unique_ptr<OutputFile> sig_file;
  SIMDEX_RETURN_IF_ERROR(OutputFile::CreateScratch(dir, "signatures", WriterBuffer(budget), &sig_file));
  {
    std::string placed;
    for (uint64_t k = 0; k < num_buckets; ++k) {
      SIMDEX_RETURN_IF_ERROR(buckets[k]->Close());
      stats_.bytes += buckets[k]->size();
      const uint64_t first = k * per_bucket, count = std::min(per_bucket, n - first);
      if (buckets[k]->size() != count * (8 + sb)) {
        return Status::Corruption("signature bucket " + buckets[k]->path() + " holds " +
                                  std::to_string(buckets[k]->size()) + " bytes, not " +
                                  std::to_string(count * (8 + sb)));
      }
      std::unique_ptr<MappedValues> bucket;
      SIMDEX_RETURN_IF_ERROR(MappedValues::Open(*buckets[k], &bucket));
      for (uint64_t lo = first; lo < first + count; lo += per_place) {
        const uint64_t span = std::min(per_place, first + count - lo);
        placed.assign(span * sb, '\0');
        uint64_t found = 0;
        const char* p = bucket->bytes().data();
        for (uint64_t e = 0; e < count; ++e, p += 8 + sb) {
          uint64_t ordinal;
          std::memcpy(&ordinal, p, 8);
          if (ordinal - lo < span) {
            std::memcpy(placed.data() + (ordinal - lo) * sb, p + 8, sb);
            ++found;
          }
        }
        if (found != span) {
          return Status::Corruption("signature bucket " + buckets[k]->path() + " holds " + std::to_string(found) +
                                    " of the " + std::to_string(span) + " documents from " + std::to_string(lo));
        }
        SIMDEX_RETURN_IF_ERROR(sig_file->Append(placed));
      }
      bucket.reset();
      buckets[k].reset();
    }
    SIMDEX_RETURN_IF_ERROR(sig_file->Close());
    stats_.bytes += sig_file->size();
  }

  // 5. The file: tables one at a time, then signatures, ids, id map.
  std::unique_ptr<OutputFile> out;
  SIMDEX_RETURN_IF_ERROR(BeginLshFile(path, m, &out));
  for (int t = 0; t < nbands; ++t) {
    std::unique_ptr<OutputFile> table;
    std::unique_ptr<MappedValues> values;
    SIMDEX_RETURN_IF_ERROR(util::ReadSortedToScratch(bands[t].get(), dir, WriterBuffer(budget), &table, &values));
    stats_.bytes += table->size();
    Rep::Count(*bands[t], &stats_);
    bands[t].reset();
    SIMDEX_RETURN_IF_ERROR(AppendBandTable(out.get(), o, t, values->values(), &m));
  }
  std::unique_ptr<MappedValues> signatures, packed_ids;
  SIMDEX_RETURN_IF_ERROR(MappedValues::Open(*sig_file, &signatures));
  SIMDEX_RETURN_IF_ERROR(MappedValues::Open(*ids_file, &packed_ids));
  const std::string_view id_map_bytes = map != nullptr ? map->Section() : std::string_view();
  return FinishLshFile(out.get(), signatures->bytes(), signatures.get(), packed_ids->bytes(), id_map_bytes, &m, file_bytes);
}

}  // namespace simdex::minhash
