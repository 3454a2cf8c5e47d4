// The only file that talks to SimGrid. Platform: one star zone (platform creation is quadratic in
// the number of zones, so keep one); every route is its own source host whose "up" path is the
// route's links, and all flows end at one sink host with an empty path. SimGrid computes the
// max-min share of each flow over the links it crosses; nothing else of SimGrid's is used.
#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include "core/error.hpp"
#include "core/units.hpp"
#include "sim/network/flow_graph.hpp"

namespace sg4 = simgrid::s4u;

namespace ddpsim::sim {
namespace {

class Runner {
 public:
  explicit Runner(const FlowGraph& g) : g_(g), done_(g.items.size(), -1.0), waiting_(g.items.size()), dependents_(g.items.size())
  {
    for (std::uint32_t i = 0; i < g.items.size(); ++i) {
      waiting_[i] = static_cast<std::uint32_t>(g.items[i].deps.size());
      for (std::uint32_t d : g.items[i].deps) {
        DDPSIM_CHECK(d < i, "flow graph items are not topologically ordered");
        dependents_[d].push_back(i);
      }
    }
  }

  void build_platform()
  {
    sg4::NetZone* zone = sg4::create_star_zone("ddpsim");
    std::vector<sg4::Link*> links;
    links.reserve(g_.links.size());
    for (std::size_t i = 0; i < g_.links.size(); ++i) {
      const FlowGraph::Link& l = g_.links[i];
      DDPSIM_CHECK(l.bandwidth > 0, "link without bandwidth");
      sg4::Link* link = zone->create_link("l" + std::to_string(i), l.bandwidth)->set_latency(l.latency);
      if (l.fatpipe) link->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
      links.push_back(link->seal());
    }
    sink_ = zone->create_host("sink", 1e9);
    zone->add_route(nullptr, sink_->get_netpoint(), nullptr, nullptr, {}, false);
    hosts_.reserve(g_.routes.size());
    for (std::size_t r = 0; r < g_.routes.size(); ++r) {
      sg4::Host* h = zone->create_host("r" + std::to_string(r), 1e9);
      std::vector<sg4::LinkInRoute> path;
      for (std::uint32_t l : g_.routes[r]) path.emplace_back(links.at(l));
      zone->add_route(h->get_netpoint(), nullptr, nullptr, nullptr, path, false);
      hosts_.push_back(h);
    }
    zone->seal();
  }

  void start()
  {
    for (std::uint32_t i = 0; i < g_.items.size(); ++i)
      if (waiting_[i] == 0) launch(i);
  }

  void completed(std::uint32_t i)
  {
    done_[i] = sg4::Engine::get_clock();
    for (std::uint32_t j : dependents_[i])
      if (--waiting_[j] == 0) launch(j);
  }

  std::uint64_t comms() const { return comms_.size(); }
  // Unfinished comms print a SimGrid backtrace when destroyed; on the error path (in a child
  // process about to exit) they are let go instead, so the error stays one line.
  void abandon() { new std::vector<sg4::CommPtr>(std::move(comms_)); }
  const std::vector<double>& done() const { return done_; }

 private:
  void launch(std::uint32_t i)
  {
    const FlowGraph::Item& item = g_.items[i];
    if (item.route < 0) {
      completed(i);
      return;
    }
    // The item index travels as the activity's data; the CommPtr stays alive until the end.
    sg4::CommPtr c = sg4::Comm::sendto_init(hosts_.at(static_cast<std::size_t>(item.route)), sink_);
    c->set_payload_size(item.bytes);
    c->set_data(reinterpret_cast<void*>(static_cast<std::uintptr_t>(i) + 1));
    c->start();
    comms_.push_back(std::move(c));
  }

  const FlowGraph& g_;
  std::vector<double> done_;
  std::vector<std::uint32_t> waiting_;
  std::vector<std::vector<std::uint32_t>> dependents_;
  std::vector<sg4::Host*> hosts_;
  sg4::Host* sink_ = nullptr;
  std::vector<sg4::CommPtr> comms_;
};

}  // namespace

std::vector<double> run_flow_graph(const FlowGraph& graph, FlowRunStats* stats)
{
  for (const auto& route : graph.routes)
    for (std::uint32_t l : route) DDPSIM_CHECK(l < graph.links.size(), "route names a missing link");
  for (const FlowGraph::Item& item : graph.items) {
    DDPSIM_CHECK(item.route < static_cast<std::int32_t>(graph.routes.size()), "item names a missing route");
    // SimGrid counts remaining bytes in doubles with an absolute precision: past 2^50 bytes the
    // rounding of a flow's remainder can exceed it and the flow never completes (issue 13).
    if (item.bytes > kMaxFlowBytes)
      throw OverflowError("a flow of " + std::to_string(item.bytes) + " bytes is beyond the flow engine's exact range (" +
                          std::to_string(kMaxFlowBytes) + " bytes, 1 PiB); use --engine analytical");
  }

  // SimGrid must never see the user's argv (it would act on --help) and must be quiet.
  char name[] = "ddpsim";
  char* argv[] = {name, nullptr};
  int argc = 1;
  xbt_log_control_set("root.thres:critical");
  sg4::Engine engine(&argc, argv);
  // Exact alpha-beta where nothing is shared (DESIGN.md; measured in research/simgrid_probe.md):
  // no latency/bandwidth correction factors, no reverse ACK traffic, no TCP window cap.
  engine.set_config("network/model:CM02");
  engine.set_config("network/crosstraffic:0");
  engine.set_config("network/TCP-gamma:0");
  // Tighter than the defaults: schedules mix flows of very different sizes.
  engine.set_config("surf/precision:1e-12");
  engine.set_config("maxmin/precision:1e-9");

  Runner runner(graph);
  runner.build_platform();
  bool deadlock = false;
  sg4::Engine::on_deadlock_cb([&deadlock] { deadlock = true; });
  sg4::Activity::on_completion_cb([&runner](const sg4::Activity& a) {
    if (const auto tag = reinterpret_cast<std::uintptr_t>(a.get_data<void>()); tag != 0)
      runner.completed(static_cast<std::uint32_t>(tag - 1));
  });
  runner.start();
  engine.run();
  DDPSIM_CHECK(!deadlock, "SimGrid reported a deadlock");
  for (double t : runner.done())
    if (!(t >= 0)) {
      runner.abandon();
      DDPSIM_CHECK(t >= 0, "a flow never completed");
    }
  if (stats) stats->comms = runner.comms();
  return runner.done();
}

}  // namespace ddpsim::sim
