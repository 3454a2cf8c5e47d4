// The state of one iteration on the engine (iteration.hpp has the model): per-class compute
// streams that report gradients and wait for parameter gathers, the framework's reducer, the
// collectives on their streams (comm_streams.hpp), each class's optimizer. Internal to sim/step.
#pragma once

#include <map>
#include <memory>

#include "sim/step/comm_streams.hpp"
#include "sim/step/iteration.hpp"
#include "sim/step/reducers.hpp"

namespace ddpsim::sim {

class StepRun {
 public:
  // `planned`: the batch timings of a link-sharing backend (comm_streams.hpp), else null.
  StepRun(const IterationSetup& setup, Timeline* timeline, const std::vector<JobTiming>* planned);
  IterationResult run();
  const std::vector<CollectiveJob>& jobs() const { return comm_.jobs(); }

 private:
  enum Pass { fwd = 0, bwd = 1 };
  static constexpr int kReduce = 0, kGather = 1;  // streams
  // One pass's parameter gathers in one micro-step: released once every class has started it.
  struct GatherPass {
    std::uint32_t started = 0;
    std::vector<char> done;                                    // per layer
    std::map<std::size_t, std::vector<std::function<void()>>> waiting;  // layer -> continuations
  };

  void start_pass(std::uint32_t c, int micro, Pass pass);
  void forward_layer(std::uint32_t c, int micro, std::uint32_t i);
  void backward_layer(std::uint32_t c, int micro, std::uint32_t i);
  void after_gather(std::uint32_t c, int micro, Pass pass, std::size_t layer, std::function<void()> then);
  void release_gathers(int micro, Pass pass);
  void reduce(const CommJob& job);
  void check_gradients_reduced();
  void class_done();
  Time interference(std::uint32_t c) const;
  IterationResult finish();
  void span(Stream stream, std::string name, Time start, Time end, std::vector<std::pair<std::string, std::string>> args = {});

  const IterationSetup& s_;
  const ModelSpec& model_;
  Timeline* timeline_;
  std::vector<RankClass> classes_;
  Engine engine_;
  CommStreams comm_;
  std::unique_ptr<GradientReducer> reducer_;
  bool layered_forward_ = false;             // forward layer by layer (parameter gathers to wait for)
  std::vector<const ShardedJob*> gather_of_[2];  // per pass and layer: its gather, or null
  std::vector<const ShardedJob*> after_;         // ZeRO-1/2: after the optimizer
  std::map<std::pair<int, int>, GatherPass> passes_;
  std::vector<std::uint32_t> arrived_;  // classes that have produced each layer's gradients
  std::vector<Time> backward_start_, backward_end_, gather_wait_, end_;  // per class
  std::vector<Time> copy_in_;           // per layer: DDP's copy of its gradients into the bucket
  Time copy_out_{0};                    // DDP's copy of all buckets back into the gradients
  std::vector<std::size_t> reductions_; // comm_ indices of the gradient reductions
  std::vector<BucketTiming> buckets_;   // the gradient reductions, in release order
  std::vector<Time> interference_, raw_end_;  // per class: interference, backward end without it
  std::size_t reduced_ = 0, backward_done_ = 0, optimizers_done_ = 0, after_done_ = 0, gathers_done_ = 0;
  bool reduced_all_ = false;
  Time comm_end_{0}, after_end_{0}, last_release_{0};
};

}  // namespace ddpsim::sim
