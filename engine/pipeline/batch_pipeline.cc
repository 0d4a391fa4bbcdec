#include "engine/pipeline/batch_pipeline.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

namespace simdex::pipeline {

namespace {

struct Slot {
  DocumentBatch batch;
  bool done = false;  // fingerprinted
};

class Pipeline {
 public:
  Pipeline(int threads, const BatchSource& source)
      : source_(source), max_in_flight_(4 * static_cast<size_t>(threads)) {}

  void ReaderLoop() {
    for (;;) {
      std::unique_ptr<Slot> slot;
      {
        std::unique_lock<std::mutex> lock(mu_);
        space_.wait(lock, [&] { return stop_ || in_flight_.size() < max_in_flight_; });
        if (stop_) break;
        if (!free_.empty()) {
          slot = std::move(free_.back());
          free_.pop_back();
        }
      }
      if (!slot) slot = std::make_unique<Slot>();
      slot->done = false;
      slot->batch.size = 0;
      bool eof = false;
      Status s = source_(&slot->batch, &eof);
      std::lock_guard<std::mutex> lock(mu_);
      if (!s.ok()) {
        source_error_ = s;
        stop_ = true;
      } else if (slot->batch.size > 0) {
        work_.push_back(slot.get());
        in_flight_.push_back(std::move(slot));
      }
      if (eof || !s.ok()) {
        reader_done_ = true;
        work_ready_.notify_all();
        result_ready_.notify_all();
        break;
      }
      work_ready_.notify_one();
    }
  }

  void WorkerLoop(const WorkerWork& work) {
    for (;;) {
      Slot* slot;
      {
        std::unique_lock<std::mutex> lock(mu_);
        work_ready_.wait(lock, [&] { return stop_ || !work_.empty() || reader_done_; });
        if (stop_ || work_.empty()) return;
        slot = work_.front();
        work_.pop_front();
      }
      work(&slot->batch);
      std::lock_guard<std::mutex> lock(mu_);
      slot->done = true;
      result_ready_.notify_one();
    }
  }

  // The calling thread's loop: hands finished batches to sink in order.
  Status WriterLoop(const BatchSink& sink, const Tick& tick) {
    Status status;
    for (;;) {
      std::unique_ptr<Slot> slot;
      {
        std::unique_lock<std::mutex> lock(mu_);
        auto ready = [&] {
          return stop_ || (!in_flight_.empty() && in_flight_.front()->done) || (reader_done_ && in_flight_.empty());
        };
        while (!result_ready_.wait_for(lock, std::chrono::milliseconds(100), ready)) {
          lock.unlock();
          tick();
          lock.lock();
        }
        if (stop_ || in_flight_.empty()) break;
        slot = std::move(in_flight_.front());
        in_flight_.pop_front();
      }
      status = sink(slot->batch);
      tick();
      std::lock_guard<std::mutex> lock(mu_);
      free_.push_back(std::move(slot));
      if (!status.ok()) stop_ = true;
      space_.notify_one();
      if (!status.ok()) break;
    }
    Stop();
    return status;
  }

  void Stop() {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    space_.notify_all();
    work_ready_.notify_all();
    result_ready_.notify_all();
  }

  Status source_error() {
    std::lock_guard<std::mutex> lock(mu_);
    return source_error_;
  }

 private:
  const BatchSource& source_;
  const size_t max_in_flight_;
  std::mutex mu_;
  std::condition_variable space_, work_ready_, result_ready_;
  // Batches read and not yet written, in input order; workers point into
  // them, which is safe because a batch leaves only once fingerprinted.
  std::deque<std::unique_ptr<Slot>> in_flight_;
  std::deque<Slot*> work_;                   // batches waiting for a worker
  std::vector<std::unique_ptr<Slot>> free_;  // written batches, to reuse
  bool reader_done_ = false;
  bool stop_ = false;
  Status source_error_;
};

}  // namespace

WorkerFactory FingerprintWorkers(const Fingerprinter& prototype) {
  return [&prototype]() -> WorkerWork {
    std::shared_ptr<Fingerprinter> fp = prototype.Clone();
    return [fp](DocumentBatch* b) {
      b->results.resize(b->size);
      for (size_t i = 0; i < b->size; ++i) b->results[i] = fp->Fingerprint(b->docs[i].text);
    };
  };
}

Status RunWorkerPipeline(int threads, const BatchSource& source, const WorkerFactory& make_worker,
                         const BatchSink& sink, const Tick& tick) {
  Pipeline pipeline(threads, source);
  std::vector<std::thread> workers;
  for (int i = 0; i < threads; ++i) {
    workers.emplace_back([&pipeline, work = make_worker()] { pipeline.WorkerLoop(work); });
  }
  std::thread reader([&pipeline] { pipeline.ReaderLoop(); });
  Status sink_status = pipeline.WriterLoop(sink, tick);
  reader.join();
  for (std::thread& t : workers) t.join();
  Status source_status = pipeline.source_error();
  return source_status.ok() ? sink_status : source_status;
}

}  // namespace simdex::pipeline
