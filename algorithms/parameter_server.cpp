#include "algorithms/parameter_server.hpp"

#include "algorithms/allreduce_ring.hpp"
#include "algorithms/common.hpp"
#include "algorithms/host_exchange.hpp"
#include "core/error.hpp"

namespace ddpsim::algo {
namespace {

void build(const Request& req, StagedSchedule& s)
{
  DDPSIM_CHECK(req.op == CollectiveOp::all_reduce, "parameter-server implements all_reduce only");
  const std::size_t g = s.local().front().size();
  const int n = s.nodes();
  const auto stripes = static_cast<std::size_t>(s.stripes());
  // Server (node m, stripe st) owns shard m x stripes + st of the parameters.
  const std::vector<Bytes> shard = split_even(req.bytes, static_cast<std::size_t>(n) * stripes);
  auto owned = [&](int m, int st) { return shard[static_cast<std::size_t>(m) * stripes + static_cast<std::size_t>(st)]; };
  const std::vector<Bytes> shard_at = offsets_of(shard);
  // g copies of a server's shard (the node's GPUs' gradients, not summed on the way): the same
  // range g times. With more than one stripe a server holds only its stripe's GPUs' copies, so
  // the drawing (right bytes per NIC) is not the data's path (docs/algorithms.md).
  auto copies = [&](int m, int st) {
    const std::size_t i = static_cast<std::size_t>(m) * stripes + static_cast<std::size_t>(st);
    return std::vector<ByteRange>(g, ByteRange{shard_at[i], shard[i]});
  };
  const std::vector<ByteRange> whole{{Bytes{0}, req.bytes}};
  const auto gg = static_cast<std::uint64_t>(g);

  std::vector<Lane> to_host, to_gpu, sum;
  for (int a = 0; a < n; ++a)
    for (std::size_t j = 0; j < g; ++j) {
      const VertexId gpu = s.local()[static_cast<std::size_t>(a)][j], cpu = s.server(a, s.stripe_of(j));
      to_host.push_back({{TaskKind::send, gpu, cpu, req.bytes, s.step_overhead(gpu, cpu), whole}});
      to_gpu.push_back({{TaskKind::send, cpu, gpu, req.bytes, s.step_overhead(cpu, gpu), whole}});
    }
  for (int m = 0; m < n; ++m)
    for (int st = 0; st < s.stripes(); ++st) {
      const VertexId cpu = s.server(m, st);
      sum.push_back({{TaskKind::reduce, cpu, cpu, Bytes{owned(m, st).n * gg * static_cast<std::uint64_t>(n)}, Time{0}, {}}});
    }
  s.add_stage("gpu to host", to_host);
  // A worker posts its push to every server before it waits, and a server answers each pull as it
  // comes (ps-lite: KVWorker::Send slices a push by server and sends every slice; the van's
  // sockets carry them together): both exchanges run at once, not in rounds.
  using Order = StagedSchedule::Order;
  s.add_exchange("push", [&](int, int b, int st) { return Bytes{owned(b, st).n * gg}; }, [&](int, int b, int st) { return copies(b, st); },
                 Order::at_once);
  s.add_stage("server sum", sum, /*per_round=*/false, /*on_host=*/true);
  s.add_exchange("pull", [&](int a, int, int st) { return Bytes{owned(a, st).n * gg}; }, [&](int a, int, int st) { return copies(a, st); },
                 Order::at_once);
  s.add_stage("host to gpu", to_gpu);
}

}  // namespace

StepSchedule ParameterServerAllReduce::steps(const Request& req) const { return staged_steps(req, build); }

CoarseSchedule ParameterServerAllReduce::phases(const Request& req) const { return staged_phases(req, build); }

}  // namespace ddpsim::algo
