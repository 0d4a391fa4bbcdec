#include "engine/service/byte_budget.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <new>
#include <stdexcept>

namespace simdex::service {

bool ByteBudget::TryTake(size_t n) {
  if (n == 0) return true;  // also past the limit (Force)
  size_t used = used_.load(std::memory_order_relaxed);
  do {
    if (n > limit_ || used > limit_ - n) return false;
  } while (!used_.compare_exchange_weak(used, used + n, std::memory_order_relaxed));
  return true;
}

bool ByteCharge::TryTake(size_t n) {
  if (!budget_->TryTake(n)) return false;
  held_ += n;
  return true;
}

void ByteCharge::Force(size_t n) {
  budget_->Force(n);
  held_ += n;
}

void ByteCharge::Give(size_t n) {
  assert(n <= held_);
  budget_->Give(n);
  held_ -= n;
}

BudgetedBuffer::mutable_buffers_type BudgetedBuffer::prepare(size_t n) {
  if (n > max_ - size()) throw std::length_error("the read buffer is at its limit");
  if (n > capacity_ - out_) {
    if (n <= capacity_ - size()) {
      // Room at the front: move the readable bytes there.
      std::memmove(data_.get(), data_.get() + in_, size());
      out_ -= in_;
      in_ = 0;
    } else if (!Reallocate(std::min(max_, std::max(2 * capacity_, size() + n)))) {
      throw std::length_error("the server's buffered-bytes budget is used up");
    }
  }
  last_ = out_ + n;
  return {data_.get() + out_, n};
}

void BudgetedBuffer::consume(size_t n) {
  in_ += std::min(n, size());
  if (in_ == out_) in_ = out_ = last_ = 0;
}

bool BudgetedBuffer::Reserve(size_t n) { return n <= capacity_ || Reallocate(std::min(n, max_), /*force=*/true); }

void BudgetedBuffer::ShrinkTo(size_t n) {
  if (capacity_ > n && size() <= n) Reallocate(n);  // giving back cannot be refused
}

void BudgetedBuffer::Release() {
  data_.reset();
  charge_->Give(capacity_);
  capacity_ = in_ = out_ = last_ = 0;
}

bool BudgetedBuffer::Reallocate(size_t capacity, bool force) {
  if (capacity > capacity_) {
    if (force) {
      charge_->Force(capacity - capacity_);
    } else if (!charge_->TryTake(capacity - capacity_)) {
      return false;
    }
  }
  std::unique_ptr<char[]> data(new (std::nothrow) char[capacity]);
  if (data == nullptr) {
    if (capacity > capacity_) charge_->Give(capacity - capacity_);
    return false;
  }
  if (size() > 0) std::memcpy(data.get(), data_.get() + in_, size());
  if (capacity < capacity_) charge_->Give(capacity_ - capacity);
  out_ -= in_;
  in_ = 0;
  last_ = out_;
  data_ = std::move(data);
  capacity_ = capacity;
  return true;
}

}  // namespace simdex::service
