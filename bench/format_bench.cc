// Benchmarks of the format/ codecs on a realistic table: 10^7 uniform random
// 64-bit fingerprints, sorted and encoded in blocks of 512..65536 bytes.
//
// Scenarios (run `format_bench --benchmark_filter=NAME`):
//   BM_BitReader            Read() of random-width fields, fast vs plain path
//   BM_HuffmanDecode        one-peek table decode of the table's n symbols
//   BM_DecodeBlock/B        DecodeBlock of whole blocks (entries/s)
//   BM_ScanBlock/B          ScanBlock to the end of each block (entries/s),
//                           fast path; BM_ScanBlockPlain/B the plain path
//   BM_HeadSearch*/B        head search over the 10^7/entries-per-block heads:
//                           interpolation vs binary (probes per search)
//   BM_TableSize/B          encode time; bits per entry against the entropy
//                           bound log2(C(2^64, N)) / N
//   BM_CountBlocks/C/M      what `--codec auto` pays per codec C (0 card,
//                           1 ef) to count a 4 KiB table's blocks: M = 0
//                           encodes to a sink that drops the blocks, M = 1
//                           only cuts them (a null sink)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "format/bit_reader.h"
#include "format/bit_writer.h"
#include "format/codec.h"
#include "format/coding.h"
#include "format/head_search.h"
#include "tests/format/table_util.h"

namespace simdex::format {
namespace {

constexpr size_t kN = 10'000'000;

const std::vector<uint64_t>& SortedFingerprints() {
  static const std::vector<uint64_t> values = [] {
    std::mt19937_64 rng(2024);
    std::vector<uint64_t> v(kN);
    for (auto& x : v) x = rng();
    std::sort(v.begin(), v.end());
    return v;
  }();
  return values;
}

struct Table {
  testing::EncodedTable encoded;
  std::string heads_le;
};

const Table& TableFor(size_t block_size) {
  static std::map<size_t, Table> tables;
  auto it = tables.find(block_size);
  if (it == tables.end()) {
    Table t{testing::EncodeTable(SortedFingerprints(), block_size), {}};
    for (uint64_t h : t.encoded.heads) PutFixed64(&t.heads_le, h);
    it = tables.emplace(block_size, std::move(t)).first;
  }
  return it->second;
}

// log2(C(2^64, N)) / N: 64 - log2(N!) / N, less a term of N / 2^65 bits.
double EntropyBoundBitsPerEntry(size_t n) {
  const long double nl = static_cast<long double>(n);
  return static_cast<double>(64.0L - lgammal(nl + 1) / (nl * logl(2.0L)));
}

void BlockSizes(benchmark::internal::Benchmark* b) {
  for (int64_t size = 512; size <= 65536; size *= 2) b->Arg(size);
}

void BM_BitReader(benchmark::State& state) {
  const bool plain = state.range(0) != 0;
  std::mt19937_64 rng(1);
  std::vector<int> widths(1 << 16);
  std::string bytes;
  BitWriter writer(&bytes);
  for (int& w : widths) {
    w = 1 + static_cast<int>(rng() % 64);
    writer.Write(rng() >> (64 - w), w);
  }
  writer.Finish();
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  for (auto _ : state) {
    BitReader reader(p, p + bytes.size(), plain);
    uint64_t sum = 0;
    for (int w : widths) sum += reader.Read(w);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(widths.size()));
  state.SetLabel(plain ? "plain" : "fast");
}
BENCHMARK(BM_BitReader)->Arg(0)->Arg(1);

void BM_HuffmanDecode(benchmark::State& state) {
  const Table& t = TableFor(4096);
  const HuffmanEncoderTable code(t.encoded.lengths);
  // Symbols drawn from the table's own n distribution.
  std::vector<uint64_t> freqs(kHuffmanSymbols);
  BlockBuilder::CountPrefixSymbols(SortedFingerprints().data(), 1 << 20, freqs.data());
  std::vector<int> symbols;
  for (int s = 0; s < kHuffmanSymbols; ++s) symbols.insert(symbols.end(), freqs[s], s);
  std::shuffle(symbols.begin(), symbols.end(), std::mt19937_64(2));
  std::string bytes;
  BitWriter writer(&bytes);
  for (int s : symbols) writer.Write(code[s].code, code[s].length);
  writer.Finish();
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  for (auto _ : state) {
    BitReader reader(p, p + bytes.size());
    uint64_t sum = 0;
    for (size_t i = 0; i < symbols.size(); ++i) {
      const HuffmanDecoder::Entry e = t.encoded.decoder.huffman().Lookup(static_cast<uint32_t>(reader.Peek(kMaxCodeLength)));
      reader.Skip(e.length);
      sum += e.symbol;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(symbols.size()));
  state.counters["bits_per_symbol"] = 8.0 * bytes.size() / symbols.size();
}
BENCHMARK(BM_HuffmanDecode);

void BM_DecodeBlock(benchmark::State& state) {
  const Table& t = TableFor(static_cast<size_t>(state.range(0)));
  const testing::EncodedTable& e = t.encoded;
  std::vector<uint64_t> out;
  size_t b = 0;
  int64_t entries = 0;
  for (auto _ : state) {
    const uint8_t* p = e.block(b);
    if (!DecodeBlock(p, p + e.block_size, e.block_size, e.heads[b], e.decoder, {}, &out).ok()) {
      state.SkipWithError("decode failed");
      break;
    }
    entries += static_cast<int64_t>(out.size());
    if (++b == e.heads.size()) b = 0;
  }
  state.SetItemsProcessed(entries);
}
BENCHMARK(BM_DecodeBlock)->Apply(BlockSizes);

void ScanToTheEnd(benchmark::State& state, bool plain) {
  const Table& t = TableFor(static_cast<size_t>(state.range(0)));
  const testing::EncodedTable& e = t.encoded;
  std::vector<uint64_t> out;
  BlockScanStats stats;
  BlockReadOptions options;
  options.force_plain = plain;
  const uint64_t kMax = ~uint64_t{0};  // [max, max]: decodes every value, keeps ~none
  size_t b = 0;
  for (auto _ : state) {
    const uint8_t* p = e.block(b);
    bool reached_end;
    if (!ScanBlock(p, p + e.block_size, e.block_size, e.heads[b], e.decoder, kMax, kMax, options, &out,
                   &reached_end, &stats)
             .ok()) {
      state.SkipWithError("scan failed");
      break;
    }
    if (++b == e.heads.size()) b = 0;
  }
  state.SetItemsProcessed(static_cast<int64_t>(stats.values_decoded));
  state.counters["entries_per_block"] = static_cast<double>(kN) / e.heads.size();
}

void BM_ScanBlock(benchmark::State& state) { ScanToTheEnd(state, false); }
void BM_ScanBlockPlain(benchmark::State& state) { ScanToTheEnd(state, true); }
BENCHMARK(BM_ScanBlock)->Apply(BlockSizes);
BENCHMARK(BM_ScanBlockPlain)->Apply(BlockSizes);

void HeadSearch(benchmark::State& state, bool interpolation) {
  const Table& t = TableFor(static_cast<size_t>(state.range(0)));
  const auto* heads = reinterpret_cast<const uint8_t*>(t.heads_le.data());
  const size_t n = t.encoded.heads.size();
  std::mt19937_64 rng(3);
  std::vector<uint64_t> queries(1 << 16);
  for (auto& q : queries) q = rng();
  HeadSearchStats stats;
  size_t i = 0;
  for (auto _ : state) {
    const uint64_t x = queries[i++ & (queries.size() - 1)];
    benchmark::DoNotOptimize(interpolation ? FindLastLess(heads, n, x, &stats)
                                           : FindLastLessBinary(heads, n, x, &stats));
  }
  state.counters["heads"] = static_cast<double>(n);
  state.counters["probes"] = static_cast<double>(stats.probes) / static_cast<double>(stats.searches);
}

void BM_HeadSearchInterpolation(benchmark::State& state) { HeadSearch(state, true); }
void BM_HeadSearchBinary(benchmark::State& state) { HeadSearch(state, false); }
BENCHMARK(BM_HeadSearchInterpolation)->Apply(BlockSizes);
BENCHMARK(BM_HeadSearchBinary)->Apply(BlockSizes);

// Encodes the whole table each iteration; reports its size per entry,
// heads (64 bits per block), block headers and padding included.
void BM_TableSize(benchmark::State& state) {
  const size_t block_size = static_cast<size_t>(state.range(0));
  const std::vector<uint64_t>& values = SortedFingerprints();
  double bits = 0;
  for (auto _ : state) {
    const testing::EncodedTable t = testing::EncodeTable(values, block_size);
    bits = t.total_bits();
    benchmark::DoNotOptimize(bits);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(kN));
  // Where the bits go: h(n) codes and suffixes of all consecutive pairs, and
  // the rest (heads, block headers, padding, less the pairs that heads
  // replace).
  std::vector<uint64_t> freqs(kHuffmanSymbols);
  BlockBuilder::CountPrefixSymbols(values.data(), values.size(), freqs.data());
  const HuffmanCodeLengths lengths = HuffmanCodeLengths::FromFrequencies(freqs.data());
  double code_bits = 0, suffix_bits = 0;
  for (int s = 0; s < kHuffmanSymbols; ++s) {
    code_bits += static_cast<double>(freqs[s]) * lengths.lengths[s];
    suffix_bits += static_cast<double>(freqs[s]) * SuffixBits(s);
  }
  state.counters["code_bits"] = code_bits / kN;
  state.counters["suffix_bits"] = suffix_bits / kN;
  state.counters["other_bits"] = (bits - code_bits - suffix_bits) / kN;
  const double bound = EntropyBoundBitsPerEntry(kN);
  state.counters["bits_per_entry"] = bits / kN;
  state.counters["bound"] = bound;
  state.counters["ratio"] = bits / kN / bound;
}
BENCHMARK(BM_TableSize)->Apply(BlockSizes)->Iterations(1)->Unit(benchmark::kMillisecond);

void BM_CountBlocks(benchmark::State& state) {
  const Codec* codec = FindCodec(state.range(0) == 0 ? "card" : "ef");
  const bool cut_only = state.range(1) == 1;
  TableEncoding encoding;
  encoding.block_size = 4096;
  encoding.restarts = 6;
  const std::function<Status(std::string_view)> drop = [](std::string_view) { return Status::OK(); };
  size_t blocks = 0;
  for (auto _ : state) {
    format::EncodedTable out;
    if (!codec->EncodeTable(SortedFingerprints(), encoding, cut_only ? nullptr : drop, &out).ok()) {
      state.SkipWithError("encoding failed");
      return;
    }
    blocks = out.heads.size();
    benchmark::DoNotOptimize(blocks);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(kN));
  state.counters["blocks"] = static_cast<double>(blocks);
}
BENCHMARK(BM_CountBlocks)->ArgsProduct({{0, 1}, {0, 1}})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace simdex::format

BENCHMARK_MAIN();
