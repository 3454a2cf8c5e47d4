// Lookups over a Kineto trace for the step splitter (calibrate/trace_steps.hpp): each thread's
// top-level operators with the compute kernels they launched, the NCCL kernels, and the fwdbwd
// links from backward operators to the forward operators they differentiate.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "calibrate/trace_events.hpp"

namespace ddpsim::calibrate {

struct TopOp {
  const TraceSpan* span = nullptr;
  double gpu_us = 0;      // compute kernels it launched
  double gpu_end = 0;     // the last one's end (0: none)
  double done() const { return std::max(span->end(), gpu_end); }
};

struct NcclKernel {
  std::string tid;        // of its launch
  double launch_ts = 0, dur = 0;
};

class TraceIndex {
 public:
  explicit TraceIndex(const KinetoTrace& trace);
  // Top-level operators of a thread, by start time.
  const std::vector<TopOp>& thread(const std::string& tid) const;
  // The top-level operator of `tid` running at `ts`, or nullptr.
  const TopOp* at(const std::string& tid, double ts) const;
  // The forward operator a backward operator is linked to by a fwdbwd flow, or nullptr.
  const TraceSpan* forward_of(const TraceSpan* backward) const;
  const std::vector<NcclKernel>& nccl() const { return nccl_; }
  std::vector<std::string> threads() const;
  std::size_t compute_kernels() const { return compute_kernels_; }
  std::size_t unattributed() const { return unattributed_; }

 private:
  TopOp* find(const std::string& tid, double ts);
  std::map<std::string, std::vector<TopOp>> threads_;
  std::map<const TraceSpan*, const TraceSpan*> links_;
  std::vector<NcclKernel> nccl_;
  std::size_t compute_kernels_ = 0, unattributed_ = 0;
};

}  // namespace ddpsim::calibrate
