// ClonePool: per-thread copies of an object that is not safe for
// concurrent use but clones cheaply (Fingerprinter, Confirmer), handed out
// for the length of a call and reused.
//
//   ClonePool<Fingerprinter> pool;
//   pool.Reset(std::move(prototype));
//   auto f = pool.Acquire();        // a clone, returned to the pool when f goes
//   f->Fingerprint(text);
//
// Thread safety: Acquire() from any thread; a lease is used by one.
#ifndef SIMDEX_ENGINE_SERVICE_CLONE_POOL_H_
#define SIMDEX_ENGINE_SERVICE_CLONE_POOL_H_

#include <memory>
#include <mutex>
#include <vector>

namespace simdex::service {

template <typename T>
class ClonePool {
 public:
  class Lease {
   public:
    Lease(ClonePool* pool, std::unique_ptr<T> object) : pool_(pool), object_(std::move(object)) {}
    ~Lease() {
      std::lock_guard<std::mutex> lock(pool_->mu_);
      pool_->free_.push_back(std::move(object_));
    }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    T* operator->() const { return object_.get(); }
    T& operator*() const { return *object_; }

   private:
    ClonePool* pool_;
    std::unique_ptr<T> object_;
  };

  void Reset(std::unique_ptr<T> prototype) { prototype_ = std::move(prototype); }
  bool empty() const { return prototype_ == nullptr; }

  // REQUIRES: !empty().
  Lease Acquire() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!free_.empty()) {
        std::unique_ptr<T> object = std::move(free_.back());
        free_.pop_back();
        return Lease(this, std::move(object));
      }
    }
    return Lease(this, prototype_->Clone());
  }

 private:
  std::unique_ptr<T> prototype_;
  std::mutex mu_;
  std::vector<std::unique_ptr<T>> free_;
};

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_CLONE_POOL_H_
