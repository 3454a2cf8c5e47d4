// `ddpsim algorithms`: every registered collective algorithm, the collectives it implements,
// whether NCCL's own choice (`auto`) may pick it, and its one-line summary (docs/algorithms.md
// has the derivations).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "algorithms/registry.hpp"
#include "app/cli/commands.hpp"
#include "app/output/output.hpp"

namespace ddpsim::app {
namespace {

class AlgorithmsCommand final : public Command {
 public:
  explicit AlgorithmsCommand(CLI::App& app)
  {
    cmd_ = app.add_subcommand("algorithms", "List the collective algorithms (--algorithm, communication.algorithm)");
    cmd_->add_option("--format", format_, "Output format")->check(CLI::IsMember({"table", "json"}))->capture_default_str();
  }

  bool selected() const override { return cmd_->parsed(); }

  int run() override
  {
    const auto& reg = algo::Registry::instance();
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    char line[512];
    std::snprintf(line, sizeof line, "%-16s %-52s %-4s  %s\n", "algorithm", "collectives", "auto", "summary");
    std::string out = line;
    for (std::string_view name : reg.names()) {
      const algo::Algorithm& a = reg.get(name);
      std::string ops;
      nlohmann::ordered_json op_list = nlohmann::ordered_json::array();
      for (auto op : {algo::CollectiveOp::all_reduce, algo::CollectiveOp::reduce_scatter, algo::CollectiveOp::all_gather,
                      algo::CollectiveOp::broadcast, algo::CollectiveOp::reduce})
        if (a.supports(op)) {
          ops += (ops.empty() ? "" : ",") + std::string(to_string(op));
          op_list.push_back(std::string(to_string(op)));
        }
      j.push_back({{"name", std::string(name)},
                   {"collectives", op_list},
                   {"nccl_selectable", a.nccl_selectable()},
                   {"summary", std::string(a.summary())}});
      std::snprintf(line, sizeof line, "%-16s %-52s %-4s  %s\n", std::string(name).c_str(), ops.c_str(),
                    a.nccl_selectable() ? "yes" : "no", std::string(a.summary()).c_str());
      out += line;
    }
    out += "\nauto = NCCL's per-size choice (priced with NCCL's tuning model) may pick it; the others run only\n"
           "when named (--algorithm, communication.algorithm). Derivations and sources: docs/algorithms.md.\n";
    write_output("", format_ == "json" ? j.dump(2) + "\n" : out);
    return 0;
  }

 private:
  CLI::App* cmd_ = nullptr;
  std::string format_ = "table";
};

}  // namespace

std::unique_ptr<Command> make_algorithms_command(CLI::App& app) { return std::make_unique<AlgorithmsCommand>(app); }

}  // namespace ddpsim::app
