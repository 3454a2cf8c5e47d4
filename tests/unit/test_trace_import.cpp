// Issue 19: the Kineto trace importer on a hand-made trace whose every number is known
// (trace_fixture.hpp), and its located errors on bad traces.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "app/input/kineto_events.hpp"
#include "app/input/trace_file.hpp"
#include "calibrate/trace_model.hpp"
#include "calibrate/trace_steps.hpp"
#include "support.hpp"
#include "trace_fixture.hpp"

using namespace ddpsim;

namespace {

sim::TracedModel import_text(const std::string& text)
{
  return calibrate::import_kineto(app::parse_kineto(nlohmann::json::parse(text), "t.json"), test::catalog().gpus);
}

std::string field_of(const std::string& text)
{
  try {
    import_text(text);
  } catch (const UserError& e) {
    return e.field() + ": " + e.message();
  }
  return "no error";
}

std::string temp_file(const std::string& name, const std::string& bytes)
{
  const auto p = std::filesystem::temp_directory_path() / ("ddpsim_trace_" + name);
  std::ofstream(p, std::ios::binary) << bytes;
  return p.string();
}

std::string real(const char* name) { return std::string(DDPSIM_SOURCE_DIR) + "/tests/data/traces/" + name; }

}  // namespace

TEST_CASE("trace import: kernels go to the operator that launched them, backward to its forward", "[trace]")
{
  const sim::TracedModel t = import_text(test::trace_document(test::trace_step(0, 1000, 0)));
  REQUIRE(t.layers.size() == 3);
  // Registration order: the reverse of the backward (linear's backward ran first).
  CHECK(t.layers[0].name == "aten::conv2d");
  CHECK(t.layers[1].name == "aten::relu");
  CHECK(t.layers[2].name == "aten::linear");
  // conv: CPU 10-30, its kernel ends at 90: 80 us on the critical path, 50 of them on the GPU.
  CHECK(t.layers[0].forward.us() == Approx(80));
  CHECK(t.layers[0].forward_gpu.us() == Approx(50));
  CHECK(t.layers[1].forward.us() == Approx(20));  // relu: its CPU end (110) after conv's kernel (90)
  CHECK(t.layers[2].forward.us() == Approx(80));
  // Backward: linear = AddmmBackward (to 250) + the AccumulateGrad after it (to 275).
  CHECK(t.layers[2].backward.us() == Approx(85));
  CHECK(t.layers[2].backward_gpu.us() == Approx(30));
  CHECK(t.layers[1].backward.us() == Approx(15));
  CHECK(t.layers[0].backward.us() == Approx(105));
  CHECK(t.layers[0].backward_gpu.us() == Approx(60));
  // Optimizer: 500 to its kernel's end at 620, plus the bucket copy after the last all-reduce.
  CHECK(t.optimizer.us() == Approx(130));
  CHECK(t.optimizer_gpu.us() == Approx(60));
  CHECK(t.input_wait.us() == Approx(5));
  CHECK(t.exposed_comm.us() == Approx(65));  // 395 -> 470 minus the 10 us copy
  CHECK(t.other.us() == Approx(1000 - 585));
  CHECK(t.ranks == 2);
  REQUIRE(t.gpu);
  CHECK(t.gpu->name == "A100-SXM4-40GB");
  CHECK_FALSE(t.cpu_only);
}

TEST_CASE("trace import: buckets are the traced reductions, in the layer that launched them", "[trace]")
{
  const sim::TracedModel t = import_text(test::trace_document(test::trace_step(0, 1000, 0)));
  REQUIRE(t.buckets.size() == 2);
  CHECK(t.buckets[0].elements == 1000);
  CHECK(t.buckets[0].element_bytes == 4);
  CHECK(t.buckets[0].collective == "allreduce");
  CHECK(t.buckets[0].layer == 2);                   // in linear's backward
  CHECK(t.buckets[0].kernel.us() == Approx(100));   // via cuda_runtime's correlation
  CHECK(t.buckets[1].layer == 0);                   // in conv's backward
  CHECK(t.buckets[1].kernel.us() == Approx(50));    // via the ac2g flow only
  // The simulator's model: one tensor per bucket, so DDP's bucketing gives them back.
  const sim::ModelSpec m = sim::traced_model_spec(std::make_shared<const sim::TracedModel>(t), "t");
  CHECK(m.parameter_count() == 1500);
  const auto b = sim::ddp_buckets(m, 4, Bytes{1 * MiB}, Bytes{25 * MiB});
  REQUIRE(b.size() == 2);
  CHECK(b[0].bytes.n == 4000);
  CHECK(b[1].bytes.n == 2000);
}

TEST_CASE("trace import: the measured step is the median ProfilerStep", "[trace]")
{
  const std::string events = test::trace_step(0, 1000, 0) + test::trace_step(2000, 1400, 100) + test::trace_step(4000, 1200, 200);
  const sim::TracedModel t = import_text(test::trace_document(events));
  CHECK(t.steps == 3);
  CHECK(t.step.us() == Approx(1200));
  CHECK(t.other.us() == Approx(1200 - 585));
  CHECK(t.layers[0].forward.us() == Approx(80));
  // 1.40 ms is more than 10% above the median: the note says the run was disturbed.
  auto disturbed = [](const sim::TracedModel& m) {
    return std::any_of(m.notes.begin(), m.notes.end(),
                       [](const std::string& n) { return n.find("1.00 ms to 1.40 ms around their median 1.20 ms: a disturbed run") != std::string::npos; });
  };
  CHECK(disturbed(t));
  const std::string steady = test::trace_step(0, 1150, 0) + test::trace_step(2000, 1250, 100) + test::trace_step(4000, 1200, 200);
  const sim::TracedModel u = import_text(test::trace_document(steady));
  CHECK(std::none_of(u.notes.begin(), u.notes.end(), [](const std::string& n) { return n.find("disturbed") != std::string::npos; }));
  // Steps that reduced different buckets (as gradient accumulation's do) differ by design: the
  // note says they ran different operators, not that the run was disturbed.
  std::string other_bucket = test::trace_step(2000, 1400, 100);
  other_bucket.replace(other_bucket.find(R"("In msg nelems":500)"), 19, R"("In msg nelems":600)");
  const sim::TracedModel v = import_text(test::trace_document(test::trace_step(0, 1000, 0) + other_bucket + test::trace_step(4000, 1200, 200)));
  auto has = [](const sim::TracedModel& m, const char* what) {
    return std::any_of(m.notes.begin(), m.notes.end(), [&](const std::string& n) { return n.find(what) != std::string::npos; });
  };
  CHECK(has(v, "steps ran different operators"));
  CHECK_FALSE(has(v, "disturbed"));
}

TEST_CASE("trace import: per-field medians never add up to more than the median step's own parts", "[trace]")
{
  // The steps of 1000 and 1400 us ran a slow optimizer (300 us instead of 100), the median step
  // (1200 us) a normal one: the optimizer's median is the slow one, every other part's the normal
  // one. Added up, those medians would be more than the median step ran; they are scaled down to
  // the median step's own sum, so the prediction at the traced size is the median step.
  auto slow_optimizer = [](std::string s) {
    const std::string from = R"("name":"Optimizer.step#SGD.step")";
    const std::size_t at = s.find(R"("dur":100.000000)", s.find(from));
    REQUIRE(at != std::string::npos);
    return s.replace(at, 16, R"("dur":300.000000)");
  };
  const auto parts = [](const sim::TracedModel& t) {
    double p = t.optimizer.us() + t.input_wait.us() + t.exposed_comm.us();
    for (const auto& l : t.layers) p += l.forward.us() + l.backward.us();
    return p;
  };
  const sim::TracedModel normal = import_text(test::trace_document(test::trace_step(0, 1200, 0)));
  const sim::TracedModel slow = import_text(test::trace_document(slow_optimizer(test::trace_step(0, 1000, 0))));
  REQUIRE(slow.optimizer.us() > normal.optimizer.us() + 100);
  const std::string events = slow_optimizer(test::trace_step(0, 1000, 0)) + test::trace_step(2000, 1200, 100) +
                             slow_optimizer(test::trace_step(4000, 1400, 200));
  const sim::TracedModel t = import_text(test::trace_document(events));
  CHECK(t.step.us() == Approx(1200));
  CHECK(parts(t) == Approx(parts(normal)));
  CHECK(t.other.us() == Approx(normal.other.us()));
  const double medians = parts(normal) - normal.optimizer.us() + slow.optimizer.us();
  CHECK(t.optimizer.us() == Approx(slow.optimizer.us() * parts(normal) / medians));
  CHECK(t.layers[0].forward.us() == Approx(normal.layers[0].forward.us() * parts(normal) / medians));

  // The other way round: only the median step ran the slow optimizer. The medians add up to less
  // than its parts; none is inflated by a stall of one step, and `other` takes the rest.
  const std::string once = test::trace_step(0, 1000, 0) + slow_optimizer(test::trace_step(2000, 1200, 100)) +
                           test::trace_step(4000, 1400, 200);
  const sim::TracedModel u = import_text(test::trace_document(once));
  CHECK(u.step.us() == Approx(1200));
  CHECK(u.optimizer.us() == Approx(normal.optimizer.us()));
  CHECK(u.layers[0].forward.us() == Approx(normal.layers[0].forward.us()));
  CHECK(u.other.us() == Approx(1200 - parts(normal)));
}

TEST_CASE("trace import: bad traces are located errors", "[trace]")
{
  CHECK(field_of(R"({"foo": 1})") == "traceEvents: missing or not a list: not a PyTorch profiler trace");
  CHECK(field_of(R"({"traceEvents": [1, {"ph":"X","cat":"cpu_op","name":"a","ts":"x","dur":1}]})") ==
        "traceEvents[0]: expected an object");
  CHECK(field_of(R"({"traceEvents": [{"ph":"X","cat":"cpu_op","name":"a","ts":"x","dur":1}]})") ==
        "traceEvents[0].ts: expected a number");
  CHECK(field_of(R"({"traceEvents": [{"ph":"X","cat":"kernel","name":"k","ts":1,"dur":-1}]})") ==
        "traceEvents[0].dur: negative duration");
  CHECK(field_of(R"({"traceEvents": [{"ph":"X","cat":"kernel","name":"k","ts":1,"dur":1,"args":{"correlation":"a"}}]})") ==
        "traceEvents[0].args.correlation: expected an integer");
  CHECK(field_of(R"({"traceEvents": []})") == "traceEvents: no cpu_op events: not a PyTorch profiler trace");
  CHECK(field_of(R"({"distributedInfo": {"world_size": 0}, "traceEvents": []})") ==
        "distributedInfo.world_size: expected a positive integer");
  // A forward-only step.
  CHECK(field_of(R"({"traceEvents": [{"ph":"X","cat":"cpu_op","name":"aten::mm","ts":1,"dur":1}]})") ==
        "traceEvents[0]: whole trace has no backward operators (autograd::engine::evaluate_function): not a training step");
  // A reduction of an unknown dtype, named by its event index.
  std::string s = test::trace_step(0, 1000, 0);
  s.replace(s.find("\"Float\""), 7, "\"Qubit\"");
  CHECK(field_of(test::trace_document(s)) == "traceEvents[15].args.dtype: unknown dtype \"Qubit\" of a reduction (record_param_comms)");
}

TEST_CASE("trace files: JSON or gzip, bounded, truncation and junk refused", "[trace]")
{
  auto message = [](const std::string& path, std::uint64_t max) {
    try {
      app::read_trace_json(path, max);
    } catch (const UserError& e) {
      CHECK(e.where().file == path);
      return e.message();
    }
    return std::string("no error");
  };
  const std::string gz = real("a100_2rank_resnet50_ddp_nccl2.17.1_kineto.json.gz");
  CHECK(message(gz, 1 * MiB) == "larger than 1 MiB once decompressed: refused");
  std::ifstream in(gz, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(message(temp_file("cut.json.gz", bytes.substr(0, bytes.size() / 2)), app::kMaxTraceBytes) == "truncated gzip file");
  CHECK(message(temp_file("junk.json.gz", std::string("\x1f\x8b") + "junkjunkjunk"), app::kMaxTraceBytes)
            .rfind("not a valid gzip file", 0) == 0);
  CHECK(message(temp_file("bad.json", "{\"traceEvents\": [1,"), app::kMaxTraceBytes) ==
        "not a JSON trace: parse error at byte 20 (a Kineto trace is Chrome-trace JSON)");
  CHECK(message(temp_file("plain.json", test::trace_document(test::trace_step(0, 1000, 0))), app::kMaxTraceBytes) == "no error");
  // A real trace without a backward (AlexNet inference on one A100) is refused with its location.
  try {
    app::import_trace(real("alexnet_1gpu_kineto.json.gz"), test::catalog().gpus);
    FAIL("accepted a forward-only trace");
  } catch (const UserError& e) {
    CHECK(e.message().find("not a training step") != std::string::npos);
  }
}

TEST_CASE("trace import: GPU names match the catalog by family and memory", "[trace]")
{
  const auto& gpus = test::catalog().gpus;
  CHECK(calibrate::match_gpu("NVIDIA A100-PG509-200", 42297524224ull, gpus) == "A100-SXM4-40GB");
  CHECK(calibrate::match_gpu("NVIDIA A100-SXM4-80GB", 85899345920ull, gpus) == "A100-SXM4-80GB");
  CHECK(calibrate::match_gpu("NVIDIA H100 80GB HBM3", 85520809984ull, gpus) == "H100-SXM5-80GB");
  CHECK(calibrate::match_gpu("NVIDIA RTX A1000", 8ull << 30, gpus).empty());
  CHECK(calibrate::match_gpu("", 0, gpus).empty());
}
