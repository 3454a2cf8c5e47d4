// Training Compiler what-if (sim/study/compiler.hpp): compiled rows scale compute by the stated
// factor, may take a larger batch, and all-reduce after backward (nothing overlaps).
#include <catch2/catch.hpp>

#include "app/input/scenario_loader.hpp"
#include "sim/study/scenario.hpp"
#include "support.hpp"

using namespace ddpsim;

namespace {
const std::string kBase = R"(name: t
cluster: {instance: p3.16xlarge, nodes: [1, 2]}
model: {preset: bert-base, seq_len: 128}
training: {framework: pytorch-ddp, batch_per_gpu: 16, precision: fp16, samples: 100000, optimizer: adam}
)";
}

TEST_CASE("compiled rows: compute x compute_scale, sync after backward, after the others", "[compiler]")
{
  const auto spec = app::parse_scenario("s.yaml", kBase + "compiler: {compute_scale: 0.6, sync: buckets, nodes: [1, 2]}\n",
                                        test::catalog());
  const auto rep = sim::run_scenario(spec);
  REQUIRE(rep.results.size() == 4);
  CHECK(rep.results[0].compiler.empty());
  CHECK(rep.results[2].compiler == "sagemaker-training-compiler");
  CHECK(rep.results[3].nodes == 2);
  // Every layer's time (kernel overhead included) is scaled: forward + backward x 0.6 (to the ps).
  CHECK(rep.results[2].compute_s == Approx(0.6 * rep.results[0].compute_s).epsilon(1e-6));
  CHECK(rep.results[3].compute_s == Approx(0.6 * rep.results[1].compute_s).epsilon(1e-6));
  CHECK(rep.results[2].bucket_bytes == rep.results[0].bucket_bytes);  // sync: buckets keeps DDP's

  // Default sync (after backward): one all-reduce of every gradient once backward ends, so all of
  // it is exposed: step = compute + comm + optimizer.
  const auto xla = sim::run_scenario(app::parse_scenario("s.yaml", kBase + "compiler: {nodes: [2], batch_per_gpu: 32}\n",
                                                         test::catalog()));
  const auto& c = xla.results.back();
  REQUIRE(c.bucket_bytes.size() == 1);
  CHECK(c.bucket_bytes[0] == spec.model.parameter_count() * 2);  // fp16 gradients
  // Issue 9: the all-reduce starts after its launch; DDP's bucket copies are on the compute side.
  CHECK(c.exposed_comm_s == Approx(c.comm_s + c.launch_s).epsilon(1e-9));
  CHECK(c.interference_s == 0);  // nothing overlaps backward
  CHECK(c.step_time_s == Approx(c.compute_s + c.bucket_copy_s + c.exposed_comm_s + c.optimizer_s).epsilon(1e-9));
  CHECK(c.samples_per_s == Approx(32.0 * 16 / c.step_time_s).epsilon(1e-9));  // the compiled batch
}

TEST_CASE("compiler YAML: PyTorch frameworks only, factors in range", "[compiler]")
{
  auto error_of = [&](const std::string& base, const std::string& tail) -> std::string {
    try {
      app::parse_scenario("s.yaml", base + tail, test::catalog());
    } catch (const UserError& e) {
      return e.what();
    }
    return "";
  };
  std::string horovod = kBase;
  horovod.replace(horovod.find("pytorch-ddp"), 11, "horovod");
  CHECK_THAT(error_of(horovod, "compiler: {}\n"), Catch::Contains("compiler") && Catch::Contains("pytorch-ddp"));
  CHECK_THAT(error_of(kBase, "compiler: {compute_scale: 0}\n"), Catch::Contains("compiler.compute_scale"));
  CHECK(error_of(kBase, "compiler: {}\n").empty());
}
