// MinHasher (include/simdex/minhash.h): a shingle set's MinHash signature.
//
// The permutation family is multiply-add-shift on 64-bit words, h_i(x) =
// ((a_i * x + c_i) mod 2^64) >> 32, a_i odd. The shingle hashes x are
// already XXH3-64 outputs, so the family only has to decorrelate the
// positions, not to randomise structured input. It costs one 64-bit
// multiply, an add, a shift and a min per shingle and position, which the
// compiler vectorises across positions (engine/minhash/signature/sign_kernel.h: with
// AVX-512 where the processor has it). docs/minhash.md gives the
// speed against the baseline's mod-(2^61 - 1) family and why k independent
// functions are kept rather than one-permutation hashing.
#include <algorithm>

#include "base/split_mix.h"
#include "engine/minhash/signature/sign_kernel.h"
#include "simdex/minhash.h"

namespace simdex {

struct MinHasher::Rep {
  MinHashOptions options;
  std::vector<uint64_t> a, c;  // the functions, num_perm each
  std::unique_ptr<ShingleMaker> shingle_maker;
  std::vector<uint64_t> shingles;  // scratch
};

MinHasher::MinHasher(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
MinHasher::~MinHasher() = default;

Status MinHasher::Create(const MinHashOptions& options, std::unique_ptr<MinHasher>* out) {
  if (options.num_perm < 1 || options.num_perm > kMaxNumPerm) {
    return Status::InvalidArgument("minhash: num_perm " + std::to_string(options.num_perm) + " is not 1.." +
                                   std::to_string(kMaxNumPerm));
  }
  auto rep = std::make_unique<Rep>();
  rep->options = options;
  SIMDEX_RETURN_IF_ERROR(ShingleMaker::Create(options.shingles, &rep->shingle_maker));
  uint64_t state = options.seed;
  for (int i = 0; i < options.num_perm; ++i) {
    rep->a.push_back(base::SplitMix64(&state) | 1);
    rep->c.push_back(base::SplitMix64(&state));
  }
  out->reset(new MinHasher(std::move(rep)));
  return Status::OK();
}

std::unique_ptr<MinHasher> MinHasher::Clone() const {
  std::unique_ptr<MinHasher> copy;
  // The options were accepted once; Create cannot fail on them again.
  const Status s = Create(rep_->options, &copy);
  return s.ok() ? std::move(copy) : nullptr;
}

const MinHashOptions& MinHasher::options() const { return rep_->options; }

ShingleKind MinHasher::Sign(std::string_view utf8_text, uint32_t* signature) {
  return Sign(utf8_text, signature, &rep_->shingles);
}

ShingleKind MinHasher::Sign(std::string_view utf8_text, uint32_t* signature, std::vector<uint64_t>* shingles) {
  const ShingleKind kind = rep_->shingle_maker->Make(utf8_text, shingles);
  SignShingles(*shingles, signature);
  return kind;
}

void MinHasher::SignShingles(std::span<const uint64_t> shingles, uint32_t* signature) const {
  const size_t k = rep_->a.size();
  std::fill(signature, signature + k, kEmptyMinimum);
  minhash::SignKernel(rep_->a.data(), rep_->c.data(), k, shingles, signature);
}

bool IsEmptySignature(const uint32_t* signature, int num_perm) {
  return std::all_of(signature, signature + num_perm, [](uint32_t v) { return v == kEmptyMinimum; });
}

double EstimateJaccard(const uint32_t* x, const uint32_t* y, int num_perm) {
  if (num_perm < 1 || IsEmptySignature(x, num_perm) || IsEmptySignature(y, num_perm)) return 0;
  int equal = 0;
  for (int i = 0; i < num_perm; ++i) equal += x[i] == y[i];
  return static_cast<double>(equal) / num_perm;
}

}  // namespace simdex
