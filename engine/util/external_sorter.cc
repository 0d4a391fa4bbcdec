#include "engine/util/external_sorter.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "engine/util/large_memory.h"
#include "engine/util/output_file.h"
#include "engine/util/run_file.h"
#include "format/coding.h"

namespace simdex::util {

namespace {

// Larger read buffers gain nothing once each read() is this big.
constexpr size_t kMaxMergeBufferBytes = size_t{4} << 20;

// A run in the sorter's scratch file: [offset, offset + bytes).
struct Run {
  uint64_t offset;
  uint64_t bytes;
  uint64_t records;
};

// Merges sorted runs with a loser tree: nodes_[p] holds the record that lost
// the match at internal node p (nodes 1..k-1; leaf i sits at k + i) and the
// run it came from, winner_ the overall winner. An exhausted run offers an
// all-ones sentinel record; since equal records are identical and exactly
// remaining_ records are handed out, a sentinel that wins against a real
// all-ones record yields the same bytes.
template <class Record>
class Merger {
 public:
  explicit Merger(std::vector<std::unique_ptr<RunReader>> readers)
      : readers_(std::move(readers)), sources_(readers_.size()), nodes_(readers_.size()) {
    std::memset(&sentinel_, 0xff, sizeof(sentinel_));
  }

  Status Init() {
    const size_t k = readers_.size();
    std::vector<Node> winners(2 * k);
    for (size_t i = 0; i < k; ++i) {
      remaining_ += readers_[i]->record_count();
      winners[k + i].source = i;
      SIMDEX_RETURN_IF_ERROR(Next(i, &winners[k + i].key));
    }
    for (size_t p = k - 1; p >= 1; --p) {
      const Node& a = winners[2 * p];
      const Node& b = winners[2 * p + 1];
      const bool b_wins = b.key < a.key;
      nodes_[p] = b_wins ? a : b;
      winners[p] = b_wins ? b : a;
    }
    winner_ = winners[1];
    return Status::OK();
  }

  // Copies up to max of the next records to out; *n = 0 at the end.
  Status Read(Record* out, size_t max, size_t* n) {
    *n = 0;
    const size_t k = readers_.size();
    const size_t count = static_cast<size_t>(std::min<uint64_t>(max, remaining_));
    for (size_t i = 0; i < count; ++i) {
      out[i] = winner_.key;
      Node c;
      c.source = winner_.source;
      SIMDEX_RETURN_IF_ERROR(Next(c.source, &c.key));
      for (size_t p = (c.source + k) / 2; p > 0; p /= 2) {
        if (nodes_[p].key < c.key) std::swap(nodes_[p], c);
      }
      winner_ = c;
    }
    remaining_ -= count;
    *n = count;
    return Status::OK();
  }

 private:
  struct Node {
    Record key;
    size_t source = 0;
  };
  struct Source {
    const Record* pos = nullptr;
    const Record* end = nullptr;
  };

  // Sets *key to run i's next record, or to the sentinel after its last.
  Status Next(size_t i, Record* key) {
    Source& s = sources_[i];
    if (s.pos == s.end) {
      const void* records;
      size_t n;
      SIMDEX_RETURN_IF_ERROR(readers_[i]->Next(&records, &n));
      s.pos = static_cast<const Record*>(records);
      s.end = s.pos + n;
      if (n == 0) {
        *key = sentinel_;
        return Status::OK();
      }
    }
    *key = *s.pos++;
    return Status::OK();
  }

  std::vector<std::unique_ptr<RunReader>> readers_;
  std::vector<Source> sources_;
  std::vector<Node> nodes_;
  Node winner_;
  Record sentinel_;
  uint64_t remaining_ = 0;
};

Status OutOfMemory(const char* what, size_t bytes) {
  return Status::IOError("cannot allocate " + std::to_string(bytes) + " bytes for the " + what);
}

}  // namespace

template <class Record>
struct ExternalSorter<Record>::Rep {
  enum class Phase { kAdding, kReading, kDone };

  ExternalSortOptions options;
  Status status;
  Phase phase = Phase::kAdding;
  ExternalSortStats stats;
  size_t capacity = 0;   // records per run buffer, at most
  size_t allocated = 0;  // records the buffer holds now
  util::LargeArray<Record> buffer;
  size_t buffered = 0;
  size_t read_pos = 0;  // in-memory path: next record of buffer to Read()
  util::LargeArray<Record> scratch;
  size_t scratch_size = 0;
  std::vector<Run> runs;  // spilled, not yet merged
  // Every run, one after another (made at the first spill): one descriptor
  // however many runs, no name to leave behind.
  std::unique_ptr<util::ScratchFile> store;
  uint64_t store_end = 0;  // where the next run goes
  std::unique_ptr<Merger<Record>> merger;

  ~Rep() { RemoveAll(); }

  // Keeps the first error.
  Status Fail(Status s) {
    if (status.ok()) status = std::move(s);
    return status;
  }

  void RemoveAll() {
    merger.reset();
    runs.clear();
    store.reset();
    store_end = 0;
  }

  void FreeBuffers() {
    buffer.reset();
    allocated = 0;
    scratch.reset();
    scratch_size = 0;
  }

  // Grows the run buffer to hold `wanted` records: twice its size or more,
  // up to capacity. A budget far above the input then costs the input's
  // size, not the budget's (issue 36: 100G asked for 50 GB at the first
  // record). The copy leaves the resident memory within the new size: the
  // new buffer's pages are touched only as far as the old one filled it.
  Status Grow(size_t wanted) {
    constexpr size_t kFirstRecords = size_t{1} << 14;
    const size_t size = std::min(capacity, std::max({wanted, 2 * allocated, kFirstRecords}));
    util::LargeArray<Record> grown = util::MakeLargeArray<Record>(size);
    if (grown == nullptr) return OutOfMemory("run buffer", size * sizeof(Record));
    if (buffered > 0) std::memcpy(grown.get(), buffer.get(), buffered * sizeof(Record));
    buffer = std::move(grown);
    allocated = size;
    return Status::OK();
  }

  Status SortBuffer() {
    if (scratch_size < buffered) {
      scratch = util::MakeLargeArray<Record>(buffered);
      if (scratch == nullptr) return OutOfMemory("radix sort scratch space", buffered * sizeof(Record));
      scratch_size = buffered;
    }
    RadixSort(buffer.get(), scratch.get(), buffered, options.threads);
    return Status::OK();
  }

  // Writes a run of `records` records, which fill(writer) appends, at the
  // end of the store (made at the first spill) into *run.
  template <class Fill>
  Status WriteRun(uint64_t records, Fill fill, Run* run) {
    if (store == nullptr) SIMDEX_RETURN_IF_ERROR(util::ScratchFile::Create(options.tmpdir, "sort", &store));
    std::unique_ptr<RunWriter> writer;
    SIMDEX_RETURN_IF_ERROR(RunWriter::Create(store.get(), store_end, sizeof(Record), records, &writer));
    SIMDEX_RETURN_IF_ERROR(fill(writer.get()));
    SIMDEX_RETURN_IF_ERROR(writer->Finish());
    *run = {store_end, writer->bytes_written(), records};
    store_end += run->bytes;
    stats.bytes_spilled += run->bytes;
    return Status::OK();
  }

  Status Spill() {
    SIMDEX_RETURN_IF_ERROR(SortBuffer());
    Run run;
    SIMDEX_RETURN_IF_ERROR(WriteRun(buffered, [&](RunWriter* w) { return w->Append(buffer.get(), buffered); }, &run));
    runs.push_back(run);
    stats.runs_spilled++;
    buffered = 0;
    return Status::OK();
  }

  // The most runs one merge can take: each input needs a buffer of at least
  // one frame, and an intermediate merge also needs an output buffer of that
  // size and the writer's one-frame tail.
  size_t MaxFanIn() const {
    const size_t by_memory = (options.memory_bytes - kRunFramePayloadBytes) / kRunFrameBytes - 1;
    return std::min(by_memory, std::max<size_t>(options.max_open_runs, 2));
  }

  Status OpenMerger(const std::vector<Run>& group, size_t buffer_bytes, std::unique_ptr<Merger<Record>>* out) {
    std::vector<std::unique_ptr<RunReader>> readers(group.size());
    for (size_t i = 0; i < group.size(); ++i) {
      SIMDEX_RETURN_IF_ERROR(
          RunReader::Open(*store, group[i].offset, group[i].bytes, sizeof(Record), buffer_bytes, &readers[i]));
    }
    out->reset(new Merger<Record>(std::move(readers)));
    return (*out)->Init();
  }

  // Merges group into one new run and gives back the group's space.
  Status MergeToRun(const std::vector<Run>& group, Run* merged) {
    const size_t slot = std::min(kMaxMergeBufferBytes,
                                 (options.memory_bytes - kRunFramePayloadBytes) / (group.size() + 1));
    std::unique_ptr<Merger<Record>> m;
    SIMDEX_RETURN_IF_ERROR(OpenMerger(group, slot, &m));
    uint64_t records = 0;
    for (const Run& run : group) records += run.records;
    const size_t out_capacity = slot / sizeof(Record);
    std::unique_ptr<Record[]> out(new (std::nothrow) Record[out_capacity]);
    if (out == nullptr) return OutOfMemory("merge output buffer", slot);
    const auto merge_into = [&](RunWriter* w) {
      size_t n = 0;
      do {
        SIMDEX_RETURN_IF_ERROR(m->Read(out.get(), out_capacity, &n));
        SIMDEX_RETURN_IF_ERROR(w->Append(out.get(), n));
      } while (n > 0);
      return Status::OK();
    };
    SIMDEX_RETURN_IF_ERROR(WriteRun(records, merge_into, merged));
    m.reset();
    // A merged run's disk space goes back at once (a hole is punched), so
    // that a merge pass needs about as much disk as before: the old runs'
    // space, less what is merged, plus the new runs'.
    for (const Run& run : group) store->Discard(run.offset, run.bytes);
    return Status::OK();
  }

  // Intermediate passes until one final merge can take every run.
  Status MergeDown() {
    const size_t fan_in = MaxFanIn();
    while (runs.size() > fan_in) {
      std::vector<Run> next;
      for (size_t i = 0; i < runs.size(); i += fan_in) {
        const size_t end = std::min(runs.size(), i + fan_in);
        if (end - i == 1) {
          next.push_back(runs[i]);
          continue;
        }
        Run merged;
        SIMDEX_RETURN_IF_ERROR(MergeToRun(std::vector<Run>(runs.begin() + i, runs.begin() + end), &merged));
        next.push_back(std::move(merged));
      }
      runs = std::move(next);
      stats.merge_passes++;
    }
    const size_t slot = std::min(kMaxMergeBufferBytes, options.memory_bytes / runs.size());
    stats.merge_passes++;
    return OpenMerger(runs, slot, &merger);
  }
};

template <class Record>
ExternalSorter<Record>::ExternalSorter(ExternalSortOptions options) : rep_(new Rep) {
  Rep& r = *rep_;
  r.options = std::move(options);
  const ExternalSortOptions& o = r.options;
  if (o.memory_bytes < kExternalSortMinMemoryBytes) {
    r.Fail(Status::InvalidArgument("memory budget of " + std::to_string(o.memory_bytes) +
                                   " bytes is below the minimum of " +
                                   std::to_string(kExternalSortMinMemoryBytes) + " bytes"));
  } else if (o.tmpdir.empty()) {
    r.Fail(Status::InvalidArgument("temporary directory is empty"));
  } else if (o.threads < 1) {
    r.Fail(Status::InvalidArgument("threads must be at least 1, got " + std::to_string(o.threads)));
  } else {
    Status dir = CheckScratchDir(o.tmpdir);
    if (!dir.ok()) r.Fail(std::move(dir));
  }
  r.capacity = ExternalSortCapacity<Record>(o.memory_bytes);
}

template <class Record>
ExternalSorter<Record>::~ExternalSorter() = default;

template <class Record>
Status ExternalSorter<Record>::status() const {
  return rep_->status;
}

template <class Record>
const ExternalSortStats& ExternalSorter<Record>::stats() const {
  return rep_->stats;
}

template <class Record>
Status ExternalSorter<Record>::Add(const Record* records, size_t n) {
  Rep& r = *rep_;
  if (!r.status.ok()) return r.status;
  assert(r.phase == Rep::Phase::kAdding);
  if (r.phase != Rep::Phase::kAdding) return Status::InvalidArgument("Add() after Finish()");
  while (n > 0) {
    if (r.buffered == r.allocated) {
      Status s = r.allocated < r.capacity ? r.Grow(r.buffered + n) : r.Spill();
      if (!s.ok()) return r.Fail(std::move(s));
    }
    const size_t take = std::min(n, r.allocated - r.buffered);
    std::memcpy(r.buffer.get() + r.buffered, records, take * sizeof(Record));
    r.buffered += take;
    r.stats.records += take;
    records += take;
    n -= take;
  }
  return Status::OK();
}

template <class Record>
Status ExternalSorter<Record>::Finish() {
  Rep& r = *rep_;
  if (!r.status.ok()) return r.status;
  assert(r.phase == Rep::Phase::kAdding);
  if (r.phase != Rep::Phase::kAdding) return Status::InvalidArgument("Finish() called twice");
  r.phase = Rep::Phase::kReading;
  Status s;
  if (r.runs.empty()) {
    if (r.buffered > 0) s = r.SortBuffer();
  } else {
    if (r.buffered > 0) s = r.Spill();
    r.FreeBuffers();
    if (s.ok()) s = r.MergeDown();
  }
  if (!s.ok()) return r.Fail(std::move(s));
  return Status::OK();
}

template <class Record>
Status ExternalSorter<Record>::Read(Record* out, size_t max, size_t* n) {
  Rep& r = *rep_;
  *n = 0;
  if (!r.status.ok()) return r.status;
  assert(r.phase != Rep::Phase::kAdding);
  if (r.phase == Rep::Phase::kAdding) return Status::InvalidArgument("Read() before Finish()");
  assert(max > 0);
  if (max == 0) return Status::InvalidArgument("Read() into an empty array");
  if (r.phase == Rep::Phase::kDone) return Status::OK();
  if (r.merger != nullptr) {
    Status s = r.merger->Read(out, max, n);
    if (!s.ok()) return r.Fail(std::move(s));
  } else {
    *n = std::min(max, r.buffered - r.read_pos);
    if (*n > 0) std::memcpy(out, r.buffer.get() + r.read_pos, *n * sizeof(Record));
    r.read_pos += *n;
  }
  if (*n == 0) {
    r.phase = Rep::Phase::kDone;
    r.RemoveAll();
    r.FreeBuffers();
  }
  return Status::OK();
}

template <class Record>
void ExternalSorter<Record>::Abandon() {
  Rep& r = *rep_;
  r.RemoveAll();
  r.FreeBuffers();
  r.buffered = 0;
  r.phase = Rep::Phase::kDone;
  r.Fail(Status::InvalidArgument("the external sorter was abandoned"));
}

template <class Record>
void ExternalSorter<Record>::SortInMemory(Record* begin, size_t n, int threads) {
  util::LargeArray<Record> scratch = util::MakeLargeArray<Record>(n);
  if (scratch == nullptr) {
    std::sort(begin, begin + n);
    return;
  }
  RadixSort(begin, scratch.get(), n, threads);
}

template class ExternalSorter<uint64_t>;
template class ExternalSorter<FingerprintIdPair>;

Status ReadSortedToScratch(ExternalSorter<uint64_t>* sorter, const std::string& dir, size_t buffer_bytes,
                           std::unique_ptr<OutputFile>* spill, std::unique_ptr<MappedValues>* map) {
  SIMDEX_RETURN_IF_ERROR(sorter->Finish());
  SIMDEX_RETURN_IF_ERROR(OutputFile::CreateScratch(dir, "table", buffer_bytes, spill));
  std::vector<uint64_t> buf(std::max<size_t>(1, buffer_bytes / 16));
  std::string bytes;
  for (size_t got = 0;;) {
    SIMDEX_RETURN_IF_ERROR(sorter->Read(buf.data(), buf.size(), &got));
    if (got == 0) break;
    bytes.clear();
    for (size_t j = 0; j < got; ++j) format::PutFixed64(&bytes, buf[j]);
    SIMDEX_RETURN_IF_ERROR((*spill)->Append(bytes));
  }
  SIMDEX_RETURN_IF_ERROR((*spill)->Close());
  return MappedValues::Open(**spill, map);
}

}  // namespace simdex::util
