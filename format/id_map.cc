// Writes and reads the id map section (format/id_map.h draws the layout).
#include "format/id_map.h"

#include "format/coding.h"

namespace simdex::format {

namespace {

uint64_t OffsetBytes(uint64_t k, int w) {
  const uint64_t packed = PackedIntsBytes(static_cast<size_t>(k + 1), w);
  return (packed + 7) / 8 * 8;
}

}  // namespace

uint64_t IdMapBytes(uint64_t k, uint64_t t) { return kIdMapHeaderBytes + OffsetBytes(k, BitWidth(t)) + t; }

void EncodeIdMap(std::span<const std::string_view> strings, std::string* dst) {
  uint64_t total = 0;
  for (std::string_view s : strings) total += s.size();
  const int w = BitWidth(total);
  PutFixed64(dst, strings.size());
  PutFixed64(dst, total);
  dst->push_back(static_cast<char>(w));
  dst->append(7, '\0');
  const size_t offsets_start = dst->size();
  {
    PackedIntsWriter offsets(dst, w);
    uint64_t at = 0;
    offsets.Add(0);
    for (std::string_view s : strings) offsets.Add(at += s.size());
    offsets.Finish();
  }
  dst->append(OffsetBytes(strings.size(), w) - (dst->size() - offsets_start), '\0');
  for (std::string_view s : strings) dst->append(s);
}

Status IdMapReader::Init(const uint8_t* ptr, uint64_t length) {
  if (length < kIdMapHeaderBytes) return Status::Corruption("id map: shorter than its header");
  count_ = DecodeFixed64(ptr);
  string_bytes_ = DecodeFixed64(ptr + 8);
  const int w = ptr[16];
  for (int i = 17; i < 24; ++i) {
    if (ptr[i] != 0) return Status::Corruption("id map: header bytes 17..23 are not zero");
  }
  if (w != BitWidth(string_bytes_)) {
    return Status::Corruption("id map: offset width " + std::to_string(w) + " does not fit " +
                              std::to_string(string_bytes_) + " bytes of strings");
  }
  // K and T come from the file: bound them by the length before any
  // arithmetic that could overflow (each string takes at least a byte).
  if (count_ > length || string_bytes_ > length || IdMapBytes(count_, string_bytes_) != length) {
    return Status::Corruption("id map: " + std::to_string(length) + " bytes do not hold " + std::to_string(count_) +
                              " strings of " + std::to_string(string_bytes_) + " bytes");
  }
  const uint64_t offset_bytes = OffsetBytes(count_, w);
  const uint64_t packed = PackedIntsBytes(static_cast<size_t>(count_ + 1), w);
  SIMDEX_RETURN_IF_ERROR(offsets_.Init(ptr + kIdMapHeaderBytes, ptr + kIdMapHeaderBytes + packed,
                                       static_cast<size_t>(count_ + 1), w)
                             .WithContext("id map offsets"));
  padding_ = ptr + kIdMapHeaderBytes + packed;
  padding_bytes_ = static_cast<size_t>(offset_bytes - packed);
  strings_ = ptr + kIdMapHeaderBytes + offset_bytes;
  return Status::OK();
}

std::string_view IdMapReader::Get(uint64_t i) const {
  const uint64_t from = offsets_.Get(static_cast<size_t>(i));
  const uint64_t to = offsets_.Get(static_cast<size_t>(i + 1));
  if (from > to || to > string_bytes_) return {};
  return std::string_view(reinterpret_cast<const char*>(strings_ + from), static_cast<size_t>(to - from));
}

bool IdMapReader::Find(std::string_view s, uint64_t* i) const {
  uint64_t lo = 0, hi = count_;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (Get(mid) < s) lo = mid + 1;
    else hi = mid;
  }
  if (lo == count_ || Get(lo) != s) return false;
  *i = lo;
  return true;
}

Status IdMapReader::Verify() const {
  for (size_t i = 0; i < padding_bytes_; ++i) {
    if (padding_[i] != 0) return Status::Corruption("id map: padding after the offsets is not zero");
  }
  // The unused high bits of the offsets' last byte are zero too.
  const uint64_t used_bits = (count_ + 1) * static_cast<uint64_t>(offsets_.width());
  if (used_bits % 8 != 0 && (padding_[-1] >> (used_bits % 8)) != 0) {
    return Status::Corruption("id map: the unused bits after the last offset are not zero");
  }
  if (offsets_.Get(0) != 0) return Status::Corruption("id map: the first offset is not 0");
  if (offsets_.Get(static_cast<size_t>(count_)) != string_bytes_) {
    return Status::Corruption("id map: the last offset is not the strings' length");
  }
  std::string_view previous;
  for (uint64_t i = 0; i < count_; ++i) {
    const uint64_t from = offsets_.Get(static_cast<size_t>(i)), to = offsets_.Get(static_cast<size_t>(i + 1));
    if (to <= from) return Status::Corruption("id map: string " + std::to_string(i) + " is empty or out of order");
    const std::string_view s = Get(i);
    if (i > 0 && s <= previous) {
      return Status::Corruption("id map: string " + std::to_string(i) + " is not greater than the one before it");
    }
    previous = s;
  }
  return Status::OK();
}

}  // namespace simdex::format
