// `ddpsim catalog`: the instance types ddpsim knows, with their key numbers.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/input/catalog_loader.hpp"
#include "app/cli/commands.hpp"
#include "app/output/output.hpp"

namespace ddpsim::app {
namespace {

class CatalogCommand final : public Command {
 public:
  explicit CatalogCommand(CLI::App& app)
  {
    cmd_ = app.add_subcommand("catalog", "List the instance types in the catalog");
    cmd_->add_option("--format", format_, "Output format")->check(CLI::IsMember({"table", "json"}));
  }

  bool selected() const override { return cmd_->parsed(); }

  int run() override
  {
    const Catalog catalog = builtin_catalog();
    if (format_ == "json") {
      nlohmann::ordered_json j = nlohmann::ordered_json::array();
      for (const InstanceSpec& s : catalog.instances)
        j.push_back({{"name", s.name},
                     {"description", s.description},
                     {"gpu", s.gpu.name},
                     {"gpus", s.gpus},
                     {"intra_node", to_string(s.intra)},
                     {"nic", s.nic.kind},
                     {"nics", s.nic.count},
                     {"nic_gbps", s.nic.bandwidth.bytes_per_s * 8 / 1e9},
                     {"gpudirect", s.nic.gpudirect},
                     {"price_usd_per_hour", s.price_usd_per_hour}});
      write_output("", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
      return 0;
    }
    std::string out;
    char line[256];
    std::snprintf(line, sizeof line, "%-15s %-16s %4s  %-11s %-22s %9s\n", "instance", "gpu", "gpus", "intra-node",
                  "network", "$/hour");
    out += line;
    for (const InstanceSpec& s : catalog.instances) {
      char net[64];
      std::snprintf(net, sizeof net, "%dx %g Gbps %s%s", s.nic.count, s.nic.bandwidth.bytes_per_s * 8 / 1e9,
                    s.nic.kind.c_str(), s.nic.gpudirect ? " (GDR)" : "");
      std::snprintf(line, sizeof line, "%-15s %-16s %4d  %-11s %-22s %9.2f\n", s.name.c_str(), s.gpu.name.c_str(),
                    s.gpus, std::string(to_string(s.intra)).c_str(), net, s.price_usd_per_hour);
      out += line;
    }
    out += "\nSageMaker names (ml.p3.16xlarge) are accepted; sources: topology/catalog/instances.yaml\n";
    write_output("", out);
    return 0;
  }

 private:
  CLI::App* cmd_ = nullptr;
  std::string format_ = "table";
};

}  // namespace

std::unique_ptr<Command> make_catalog_command(CLI::App& app) { return std::make_unique<CatalogCommand>(app); }

}  // namespace ddpsim::app
