#include "sim/study/multijob.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "sim/network/flow_backend.hpp"
#include "sim/study/twin.hpp"

namespace ddpsim::sim {

std::string_view to_string(Placement p) { return p == Placement::spread ? "spread" : "packed"; }

std::vector<std::vector<int>> place_jobs(const MultiJobSpec& spec)
{
  const int n = spec.nodes;
  std::vector<bool> used(static_cast<std::size_t>(n), false);
  std::vector<std::vector<int>> out(spec.jobs.size());
  auto fail = [](const std::string& m) { throw UserError(SourceLocation{}, "jobs", m); };
  // Node ranges first: they are the user's explicit choice.
  for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
    const JobSpec& job = spec.jobs[j];
    if (job.first_node < 0) continue;
    const int count = job.spec.cluster.nodes.at(0);
    if (job.first_node + count > n) fail("job " + job.name + " ends past the cluster's " + std::to_string(n) + " nodes");
    for (int k = job.first_node; k < job.first_node + count; ++k) {
      if (used[static_cast<std::size_t>(k)]) fail("job " + job.name + " overlaps another job on node " + std::to_string(k));
      used[static_cast<std::size_t>(k)] = true;
      out[j].push_back(k);
    }
  }
  const int per_leaf = spec.fabric.kind == FabricKind::leaf_spine ? std::max(1, spec.fabric.nodes_per_leaf) : std::max(1, n);
  const int leaves = (n + per_leaf - 1) / per_leaf;
  auto free_in_leaf = [&](int leaf) {
    for (int k = leaf * per_leaf; k < std::min(n, (leaf + 1) * per_leaf); ++k)
      if (!used[static_cast<std::size_t>(k)]) return k;
    return -1;
  };
  for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
    const JobSpec& job = spec.jobs[j];
    if (job.first_node >= 0) continue;
    const int count = job.spec.cluster.nodes.at(0);
    int leaf = 0;
    for (int taken = 0; taken < count; ++taken) {
      int node = -1;
      if (spec.placement == Placement::spread) {
        for (int tries = 0; tries < leaves && node < 0; ++tries, leaf = (leaf + 1) % leaves) node = free_in_leaf(leaf);
      } else {
        for (int l = 0; l < leaves && node < 0; ++l) node = free_in_leaf(l);
      }
      if (node < 0) fail("the jobs need more nodes than the cluster's " + std::to_string(n));
      used[static_cast<std::size_t>(node)] = true;
      out[j].push_back(node);
    }
    std::sort(out[j].begin(), out[j].end());
  }
  return out;
}

namespace {

// What the jobs' backends share: the cluster, the recorded collectives (per job, per run() call,
// already moved onto the job's nodes) and, once every job has run alone, the timings the
// combined simulation gave each call.
struct Session {
  explicit Session(const Topology& t) : full(t), alone(t) {}
  const Topology& full;
  FlowBackend alone;  // one job's collectives on the shared fabric, nothing else running
  bool replay = false;
  std::vector<std::vector<std::vector<CollectiveJob>>> calls;
  std::vector<std::vector<std::vector<JobTiming>>> together;
};

// A job's network backend. The job's iteration is built on a topology of its own nodes (0..k-1);
// every flow is moved onto the cluster nodes the job was placed on (the layout is node-major, so
// that is a shift by whole nodes). First pass: times the job alone and records its collectives.
// Second pass: returns the timings of the combined simulation, call by call.
class SharedFabricBackend final : public NetworkBackend {
 public:
  SharedFabricBackend(const Topology& sub, Session& s, std::size_t job, const std::vector<int>& nodes)
      : sub_(sub), s_(s), job_(job), nodes_(nodes)
  {
    DDPSIM_CHECK(sub.vertices_per_node() == s.full.vertices_per_node(), "a job's nodes differ from the cluster's");
    DDPSIM_CHECK(static_cast<std::size_t>(sub.nodes()) == nodes.size(), "a job's node count differs from its placement");
  }

  std::string_view name() const override { return "flow"; }

  std::vector<JobTiming> run(const std::vector<CollectiveJob>& jobs) override
  {
    if (s_.replay) {
      DDPSIM_CHECK(call_ < s_.together.at(job_).size(), "a job ran more collectives together than alone");
      const std::vector<JobTiming>& t = s_.together[job_][call_++];
      DDPSIM_CHECK(t.size() == jobs.size(), "a job's collectives changed between its two passes");
      return t;
    }
    std::vector<CollectiveJob> moved = jobs;
    for (CollectiveJob& j : moved)
      for (algo::Phase& p : j.schedule.phases)
        for (algo::Flow& f : p.flows) f.src = place(f.src), f.dst = place(f.dst);
    s_.calls.at(job_).push_back(moved);
    return s_.alone.run(moved);
  }

  Time run_steps(const algo::StepSchedule&) override
  {
    throw InternalError("step schedules are not run on a shared fabric");
  }

 private:
  VertexId place(VertexId v) const
  {
    const int node = sub_.device(v).node;
    if (node < 0)
      throw UserError(SourceLocation{}, "jobs",
                      "a collective sends through a fabric switch (in-network reduction): not supported with several jobs");
    const auto shift = static_cast<std::int64_t>(nodes_[static_cast<std::size_t>(node)] - node) *
                       static_cast<std::int64_t>(sub_.vertices_per_node());
    return static_cast<VertexId>(static_cast<std::int64_t>(v) + shift);
  }

  const Topology& sub_;
  Session& s_;
  std::size_t job_;
  const std::vector<int>& nodes_;
  std::size_t call_ = 0;
};

ConfigResult run_job(const JobSpec& job, Session& s, std::size_t j, const std::vector<int>& nodes)
{
  RunOptions opt;
  opt.engine = EngineKind::flow;
  opt.make_network = [&s, j, &nodes](const Topology& sub) -> std::unique_ptr<NetworkBackend> {
    return std::make_unique<SharedFabricBackend>(sub, s, j, nodes);
  };
  // Through the twin: a job's `calibration:` is applied (a shared fabric runs each job once, so no
  // uncalibrated rerun and no intervals here).
  ScenarioReport rep = run_scenario(calibrated(job.spec), opt);
  DDPSIM_CHECK(rep.results.size() == 1, "a job is one configuration");
  return std::move(rep.results.front());
}

}  // namespace

MultiJobReport run_multijob(const MultiJobSpec& spec, EngineKind engine)
{
  if (engine != EngineKind::flow)
    throw UserError(SourceLocation{}, "jobs",
                    "several jobs on one fabric need the flow engine (engine: flow or --engine flow): only the flow engine shares links among the jobs' "
                    "flows (the analytical engine prices every link as private to each flow)");
  DDPSIM_CHECK(!spec.jobs.empty(), "no jobs");
  const std::vector<std::vector<int>> placed = place_jobs(spec);
  const int gpn = spec.gpus_per_node > 0 ? spec.gpus_per_node : spec.instance.gpus;
  const Topology full(spec.instance, spec.nodes, gpn, spec.fabric);
  Session s(full);
  s.calls.resize(spec.jobs.size());
  s.together.resize(spec.jobs.size());

  MultiJobReport rep{spec.name, spec.description, "flow", spec.instance.name, std::string(to_string(spec.fabric.kind)),
                     std::string(to_string(spec.placement)), spec.nodes, spec.nodes * gpn, {}};
  for (std::size_t j = 0; j < spec.jobs.size(); ++j)
    rep.jobs.push_back(JobResult{spec.jobs[j].name, spec.jobs[j].spec.model.name, placed[j], run_job(spec.jobs[j], s, j, placed[j]), {}, 1});

  // Every job's collectives in one simulation. Each (job, call, stream) keeps a stream of its
  // own, so a job's collectives still run one after another and different jobs' run at once.
  constexpr int kStreams = 1024, kCalls = 64;
  std::vector<CollectiveJob> all;
  for (std::size_t j = 0; j < s.calls.size(); ++j) {
    DDPSIM_CHECK(s.calls[j].size() <= kCalls, "too many collective calls in one job's step");
    for (std::size_t c = 0; c < s.calls[j].size(); ++c) {
      const std::size_t first = all.size();  // a call's `after` indices count from its first job
      for (CollectiveJob job : s.calls[j][c]) {
        DDPSIM_CHECK(job.stream >= 0 && job.stream < kStreams, "stream out of range");
        job.stream += static_cast<int>((j * kCalls + c) * kStreams);
        if (job.after) *job.after += first;
        all.push_back(std::move(job));
      }
    }
  }
  FlowBackend shared(full);
  const std::vector<JobTiming> timings = shared.run(all);
  DDPSIM_CHECK(timings.size() == all.size(), "the flow backend lost collectives");
  std::size_t k = 0;
  for (std::size_t j = 0; j < s.calls.size(); ++j)
    for (const auto& call : s.calls[j]) {
      s.together[j].emplace_back(timings.begin() + static_cast<std::ptrdiff_t>(k),
                                 timings.begin() + static_cast<std::ptrdiff_t>(k + call.size()));
      k += call.size();
    }

  // Second pass: the same iterations, with the timings they got together.
  s.replay = true;
  for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
    JobResult& r = rep.jobs[j];
    r.together = run_job(spec.jobs[j], s, j, placed[j]);
    r.alone.simulated = "alone";
    r.together.simulated = "together";
    r.slowdown = r.together.step_time_s / r.alone.step_time_s;
  }
  return rep;
}

}  // namespace ddpsim::sim
