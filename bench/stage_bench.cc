// Per-stage benchmarks of a query, on the data a real index holds: the ten
// t10 tables of 10^6 uniform random fingerprints, each permuted, sorted and
// encoded (format_bench.cc times the codecs on one 10^7-entry table). This
// file holds the decoding stages; stage_search_bench.cc, linked into the same
// binary, the search stages around them.
//
// Scenarios (run `stage_bench --benchmark_filter=NAME`):
//   BM_BitReaderEntry/M      the reads of one entry (11-bit peek, code, suffix)
//                            with M = 0 one word load per entry as the block
//                            decoder's fast path, 1 BitReader, 2 BitReader
//                            forced onto its checked byte-wise path
//   BM_BitReaderRead/W/P     Read(W) at a fixed width, fast (P=0) or plain
//   BM_HuffmanDecodeCode/C   symbols of code C: 0 the table's real n stream,
//                            1 a one-symbol code, 2 symbols of length 11
//   BM_ScanBlocks10/B/W/R/Q  the first candidate block of each of the 10
//                            tables, decoded interleaved by ScanBlocks, for
//                            a query's key ranges (W=0) or to the blocks' ends
//                            (W=1), R restart points per block, 2^Q queries
//                            (Q = 3: their blocks stay in cache);
//                            BM_ScanBlock10Calls the same by ScanBlock
// and in stage_search_bench.cc:
//   BM_HeadSearchDist*/N/D   interpolation vs binary search over N heads
//                            drawn from distribution D (uniform, constant
//                            leading bits, clusters, log-uniform)
//   BM_HammingCheck/C        the candidate loop over C values of a key range
//   BM_MergeFound/U          MergeFound of what the tables report for U
//                            neighbours (each found by 1-10 tables)
//   BM_SortMatches/M         SortMatches of M matches in fingerprint order
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "format/bit_reader.h"
#include "format/bit_writer.h"
#include "format/card/card_format.h"
#include "simdex/scheme.h"
#include "tests/format/table_util.h"

namespace simdex::format {
namespace {

constexpr size_t kN = 1'000'000;
const Scheme& T10() {
  static const Scheme scheme = Scheme::Default();
  return scheme;
}

// Table t's values: the fingerprints permuted by the table, sorted.
const std::vector<uint64_t>& TableValues(int t) {
  static const std::vector<std::vector<uint64_t>> tables = [] {
    std::mt19937_64 rng(2024);
    std::vector<uint64_t> fingerprints(kN);
    for (auto& f : fingerprints) f = rng();
    std::vector<std::vector<uint64_t>> v(T10().num_tables());
    for (int i = 0; i < T10().num_tables(); ++i) {
      for (uint64_t f : fingerprints) v[i].push_back(T10().table(i).Apply(f));
      std::sort(v[i].begin(), v[i].end());
    }
    return v;
  }();
  return tables[t];
}

// The ten tables encoded in blocks of block_size bytes with `restarts`
// restart points per block.
const std::vector<testing::EncodedTable>& TablesFor(size_t block_size, int restarts) {
  static std::map<std::pair<size_t, int>, std::vector<testing::EncodedTable>> cache;
  auto& tables = cache[{block_size, restarts}];
  if (tables.empty()) {
    for (int t = 0; t < T10().num_tables(); ++t) {
      tables.push_back(testing::EncodeTable(TableValues(t), block_size, t, restarts));
    }
  }
  return tables;
}

// The n symbol of every entry of table 0 after the first.
std::vector<int> RealSymbols() {
  const std::vector<uint64_t>& v = TableValues(0);
  std::vector<int> n;
  for (size_t i = 1; i < v.size(); ++i) n.push_back(std::countl_zero(v[i] ^ v[i - 1]));
  return n;
}

HuffmanCodeLengths LengthsOf(const std::vector<int>& symbols) {
  std::array<uint64_t, kHuffmanSymbols> freqs{};
  for (int s : symbols) ++freqs[s];
  return HuffmanCodeLengths::FromFrequencies(freqs.data());
}

// The bytes write(BitWriter*) writes, then kPad zero bytes, so that a word
// load at any bit of the stream stays in the buffer.
constexpr size_t kPad = 16;
template <typename Write>
std::string WriteStream(Write&& write) {
  std::string bytes;
  BitWriter writer(&bytes);
  write(&writer);
  writer.Finish();
  bytes.append(kPad, '\0');
  return bytes;
}

const uint8_t* Data(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

void BM_BitReaderEntry(benchmark::State& state) {
  const int mode = static_cast<int>(state.range(0));
  const std::vector<int> symbols = RealSymbols();
  const HuffmanEncoderTable code(LengthsOf(symbols));
  std::vector<std::pair<uint8_t, uint8_t>> widths;  // (code length, suffix bits) of each entry
  std::mt19937_64 rng(1);
  const std::string bytes = WriteStream([&](BitWriter* w) {
    for (int n : symbols) {
      widths.emplace_back(code[n].length, SuffixBits(n));
      w->Write(code[n].code, code[n].length);
      w->Write(SuffixBits(n) == 0 ? 0 : rng() >> (64 - SuffixBits(n)), SuffixBits(n));
    }
  });
  const uint8_t* p = Data(bytes);
  const size_t size = bytes.size() - kPad;
  for (auto _ : state) {
    uint64_t sum = 0;
    if (mode == 0) {
      // As the block decoder's FastStep: one load holds the code and, when
      // both fit in 57 bits, the suffix; otherwise a second load.
      size_t pos = 0;
      for (const auto& [len, suffix] : widths) {
        const uint64_t w = LoadBitsUnchecked(p, pos);
        sum += w >> (64 - HuffmanDecoder::kTableBits);
        const uint64_t rest = len + suffix > 57 ? LoadBitsUnchecked(p, pos + len) : w << len;
        sum += (rest >> 1) >> (63 - suffix);
        pos += len + suffix;
      }
    } else {
      BitReader reader(p, p + size, mode == 2);
      for (const auto& [len, suffix] : widths) {
        sum += reader.Peek(HuffmanDecoder::kTableBits);
        reader.Skip(len);
        sum += reader.Read(suffix);
      }
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(widths.size()));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(size));
  state.counters["bits_per_entry"] = 8.0 * static_cast<double>(size) / static_cast<double>(widths.size());
  state.SetLabel(mode == 0 ? "word load" : mode == 1 ? "BitReader fast" : "BitReader plain");
}
BENCHMARK(BM_BitReaderEntry)->DenseRange(0, 2);

void BM_BitReaderRead(benchmark::State& state) {
  const int width = static_cast<int>(state.range(0));
  const bool plain = state.range(1) != 0;
  constexpr size_t kReads = 1 << 16;
  std::mt19937_64 rng(1);
  const std::string bytes = WriteStream([&](BitWriter* w) {
    for (size_t i = 0; i < kReads; ++i) w->Write(rng() >> (64 - width), width);
  });
  for (auto _ : state) {
    BitReader reader(Data(bytes), Data(bytes) + bytes.size() - kPad, plain);
    uint64_t sum = 0;
    for (size_t i = 0; i < kReads; ++i) sum += reader.Read(width);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(kReads));
  state.SetLabel(plain ? "plain" : "fast");
}
BENCHMARK(BM_BitReaderRead)->ArgsProduct({{11, 24, 32, 40, 48}, {0, 1}});

// The symbol stream of code C (see the top of the file) and its decoder.
struct SymbolStream {
  HuffmanDecoder decoder;
  std::string stream;
  size_t symbols = 0;
};

SymbolStream MakeSymbolStream(int kind) {
  std::vector<int> symbols;
  HuffmanCodeLengths lengths;
  if (kind == 0) {
    symbols = RealSymbols();
    lengths = LengthsOf(symbols);
  } else if (kind == 1) {
    symbols.assign(kN, 20);
    lengths.lengths[20] = 1;
  } else {
    // Frequencies halving from symbol to symbol: the limit of 11 binds, and
    // the stream draws only symbols whose code has that length.
    std::array<uint64_t, kHuffmanSymbols> freqs{};
    for (int i = 0; i < kHuffmanSymbols; ++i) freqs[i] = uint64_t{1} << std::max(0, 40 - i);
    lengths = HuffmanCodeLengths::FromFrequencies(freqs.data());
    std::vector<int> longest;
    for (int i = 0; i < kHuffmanSymbols; ++i) {
      if (lengths.lengths[i] == kMaxCodeLength) longest.push_back(i);
    }
    std::mt19937_64 rng(3);
    for (size_t i = 0; i < kN; ++i) symbols.push_back(longest[rng() % longest.size()]);
  }
  SymbolStream s;
  if (!s.decoder.Init(lengths).ok()) std::abort();
  const HuffmanEncoderTable code(lengths);
  s.stream = WriteStream([&](BitWriter* w) {
    for (int n : symbols) w->Write(code[n].code, code[n].length);
  });
  s.symbols = symbols.size();
  return s;
}

void BM_HuffmanDecodeCode(benchmark::State& state) {
  const int kind = static_cast<int>(state.range(0));
  const SymbolStream s = MakeSymbolStream(kind);
  const size_t size = s.stream.size() - kPad;
  for (auto _ : state) {
    BitReader reader(Data(s.stream), Data(s.stream) + size);
    uint64_t sum = 0;
    for (size_t i = 0; i < s.symbols; ++i) {
      const HuffmanDecoder::Entry e = s.decoder.Lookup(static_cast<uint32_t>(reader.Peek(kMaxCodeLength)));
      reader.Skip(e.length);
      sum += e.symbol;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(s.symbols));
  state.counters["bits_per_symbol"] = 8.0 * static_cast<double>(size) / static_cast<double>(s.symbols);
  state.SetLabel(kind == 0 ? "real n" : kind == 1 ? "one symbol" : "length 11");
}
BENCHMARK(BM_HuffmanDecodeCode)->DenseRange(0, 2);

// For each of 2^10 random queries, the first candidate block of every table
// (what a query at k = 3 decodes): the key range [lo, hi] of the query, or
// [max, max] to decode the whole block. The scan's restart guess is lo's
// place interpolated between the block's head and the next, as the
// reader's.
std::vector<std::vector<BlockScan>> QueryScans(size_t block_size, int restarts, bool whole, size_t num_queries,
                                               std::vector<uint64_t>* out) {
  const std::vector<testing::EncodedTable>& tables = TablesFor(block_size, restarts);
  std::mt19937_64 rng(4);
  std::vector<std::vector<BlockScan>> queries(num_queries);
  for (auto& scans : queries) {
    const uint64_t q = rng();
    for (int t = 0; t < T10().num_tables(); ++t) {
      const testing::EncodedTable& e = tables[t];
      const uint64_t suffix = ~uint64_t{0} >> T10().table(t).key_bits();
      const uint64_t lo = T10().table(t).Apply(q) & ~suffix;
      size_t b = 0;
      while (b + 1 < e.heads.size() && e.heads[b + 1] < lo) ++b;  // setup only
      BlockScan s;
      s.ptr = e.block(b);
      s.limit = s.ptr + block_size;
      s.head = e.heads[b];
      s.decoder = &e.decoder;
      s.lo = whole ? ~uint64_t{0} : lo;
      s.hi = whole ? ~uint64_t{0} : lo | suffix;
      s.out = out;
      if (b + 1 < e.heads.size() && !whole) {
        const double fraction = static_cast<double>(lo - std::min(lo, s.head)) /
                                static_cast<double>(e.heads[b + 1] - s.head);
        s.restart_guess = std::min(restarts, static_cast<int>(fraction * (restarts + 1)));
      }
      scans.push_back(s);
    }
  }
  return queries;
}

void ScanTenBlocks(benchmark::State& state, bool interleaved) {
  const size_t block_size = static_cast<size_t>(state.range(0));
  std::vector<uint64_t> out;
  std::vector<std::vector<BlockScan>> queries =
      QueryScans(block_size, static_cast<int>(state.range(2)), state.range(1) != 0, size_t{1} << state.range(3), &out);
  BlockScanStats stats;
  const BlockReadOptions options;
  size_t i = 0;
  for (auto _ : state) {
    std::vector<BlockScan>& scans = queries[i++ & (queries.size() - 1)];
    out.clear();
    if (interleaved) {
      ScanBlocks(scans.data(), scans.size(), block_size, options, &stats);
    } else {
      for (BlockScan& s : scans) {
        s.status = ScanBlock(s.ptr, s.limit, block_size, s.head, static_cast<const CardDecoder&>(*s.decoder), s.lo,
                             s.hi, options, s.out, &s.reached_end, &stats);
      }
    }
    if (std::any_of(scans.begin(), scans.end(), [](const BlockScan& s) { return !s.status.ok(); })) {
      state.SkipWithError("scan failed");
      break;
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(stats.values_decoded));
  state.counters["entries_per_query"] =
      static_cast<double>(stats.values_decoded) / static_cast<double>(std::max<int64_t>(1, state.iterations()));
}

void BM_ScanBlocks10(benchmark::State& state) { ScanTenBlocks(state, true); }
void BM_ScanBlock10Calls(benchmark::State& state) { ScanTenBlocks(state, false); }
BENCHMARK(BM_ScanBlocks10)->ArgsProduct({{1024, 4096, 16384}, {0, 1}, {0}, {10}})->Args({4096, 0, 6, 10})->Args({4096, 0, 6, 3});
BENCHMARK(BM_ScanBlock10Calls)->ArgsProduct({{1024, 4096, 16384}, {0, 1}, {0}, {10}})->Args({4096, 0, 6, 10})->Args({4096, 0, 6, 3});

}  // namespace
}  // namespace simdex::format

BENCHMARK_MAIN();
