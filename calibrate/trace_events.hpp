// The events of a PyTorch profiler (Kineto) trace that the importer uses, typed: spans (ph "X":
// cpu_op, user_annotation, cuda_runtime/cuda_driver launches, kernel, gpu_memcpy, gpu_memset),
// flows (ph "s"/"f": ac2g launch -> kernel, fwdbwd forward op -> backward op), and the header's
// distributedInfo and deviceProperties. Times are microseconds (the Chrome trace format's unit for
// ts and dur). Read from JSON and checked by app/input/kineto_events.hpp; taken apart into steps
// by calibrate/trace_steps.hpp and turned into a model by calibrate/trace_model.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ddpsim::calibrate {

enum class SpanKind { cpu_op, annotation, launch, kernel };

struct TraceSpan {
  SpanKind kind = SpanKind::cpu_op;
  std::string name;
  std::string tid;             // "pid/tid": a thread (CPU) or a stream (GPU)
  double ts = 0, dur = 0;      // us
  std::int64_t correlation = -1;  // launch and kernel: args.correlation
  std::size_t index = 0;       // in traceEvents, for messages
  // record_param_comms only ("Collective name", "In msg nelems", "dtype").
  std::string collective, dtype;
  std::uint64_t nelems = 0;
  double end() const { return ts + dur; }
};

struct TraceFlow {
  bool start = true;           // "s" (else "f")
  bool fwdbwd = false;         // cat fwdbwd (else ac2g)
  std::int64_t id = 0;
  std::string tid;
  double ts = 0;
};

struct KinetoTrace {
  std::string file;
  std::vector<TraceSpan> spans;  // in file order
  std::vector<TraceFlow> flows;
  int world_size = 1;            // distributedInfo.world_size (1 when absent)
  bool world_known = false;      // distributedInfo.world_size was there
  std::string backend;           // distributedInfo.backend
  std::string device;            // deviceProperties[0].name ("" when absent: a CPU trace)
  std::uint64_t device_memory = 0;
};

// Bytes per element of a record_param_comms dtype ("Float" 4, "Half"/"BFloat16" 2, ...); 0: unknown.
int dtype_bytes(const std::string& dtype);

}  // namespace ddpsim::calibrate
