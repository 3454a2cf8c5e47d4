// `ddpsim models`: the model presets with their parameter counts, tensors and forward FLOPs, and
// (JSON) the elementwise traffic `model.kernels: eager` charges (sim/step/model.hpp).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/cli/commands.hpp"
#include "app/output/output.hpp"
#include "sim/step/model_zoo.hpp"

namespace ddpsim::app {
namespace {

class ModelsCommand final : public Command {
 public:
  explicit ModelsCommand(CLI::App& app)
  {
    cmd_ = app.add_subcommand("models", "List the model presets (parameters in registration order, FLOPs)");
    cmd_->add_option("--format", format_, "Output format")->check(CLI::IsMember({"table", "json"}));
  }

  bool selected() const override { return cmd_->parsed(); }

  int run() override
  {
    // The mlp needs widths: list it with the example of scenarios/p3_8node.yaml.
    const std::vector<std::uint64_t> example{256, 512, 512, 512, 256, 128, 64, 1};
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "%-11s %15s %8s %7s %14s  %s\n", "preset", "parameters", "tensors", "seq",
                  "fwd GFLOP/smp", "definition");
    out += line;
    for (const sim::PresetInfo& p : sim::model_presets()) {
      const sim::ModelSpec m = sim::make_preset(p.name, example);
      const double gflop = m.fwd_flops_per_sample() / 1e9;
      auto passes = [](const sim::ElementwiseTraffic& t) {
        return nlohmann::ordered_json{{"act", t.act}, {"wide", t.wide}, {"cast", t.cast}, {"mask_bytes", t.bytes}};
      };
      j.push_back({{"name", p.name},
                   {"parameters", m.parameter_count()},
                   {"tensors", m.tensor_count()},
                   {"layers", m.layers.size()},
                   {"seq_len", p.default_seq_len},
                   {"fwd_flops_per_sample", m.fwd_flops_per_sample()},
                   {"eager_passes_per_sample",
                    {{"forward", passes(m.eager_traffic(false))}, {"backward", passes(m.eager_traffic(true))}}},
                   {"nchw_transpose_passes_per_sample",
                    {{"forward", m.nchw_transposes(false)}, {"backward", m.nchw_transposes(true)}}},
                   {"summary", p.summary}});
      std::snprintf(line, sizeof line, "%-11s %15llu %8zu %7s %14.3f  %s\n", std::string(p.name).c_str(),
                    static_cast<unsigned long long>(m.parameter_count()), m.tensor_count(),
                    p.default_seq_len ? std::to_string(p.default_seq_len).c_str() : "-", gflop,
                    std::string(p.summary).c_str());
      out += line;
    }
    out += "\nmlp shown with widths [256, 512, 512, 512, 256, 128, 64, 1]; FLOPs count a multiply-add as 2;\n"
           "backward = 2 x forward. Sequence models take `model.seq_len`. Sources: docs/model.md.\n";
    write_output("", format_ == "json" ? j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n" : out);
    return 0;
  }

 private:
  CLI::App* cmd_ = nullptr;
  std::string format_ = "table";
};

}  // namespace

std::unique_ptr<Command> make_models_command(CLI::App& app) { return std::make_unique<ModelsCommand>(app); }

}  // namespace ddpsim::app
