#include "app/output/shards.hpp"

#include <openssl/evp.h>

#include <map>
#include <nlohmann/json.hpp>

#include "app/input/yaml_reader.hpp"
#include "core/error.hpp"
#include "sim/study/row_json.hpp"

namespace ddpsim::app {
namespace {

using nlohmann::json;

// The shard file layout; bumped when a header or row field changes meaning. 3: rows are JSON of
// the one row field list (sim/study/row_json.hpp; 2 carried base64 of a native-memory codec), and
// every line carries "check", the SHA-256 of the line without it, so a flipped bit anywhere in a
// line is refused with its file and line.
constexpr int kFormat = 3;

json header(const ShardInput& in, const Shard& shard, std::size_t configurations, std::size_t rows, json frame)
{
  return json{{"ddpsim_shard", kFormat},
              {"command", in.command},
              {"input", in.path},
              {"sha256", sha256_hex(read_text_file(in.path) + '\0' + in.options)},
              {"options", in.options},
              {"shard", shard.index},
              {"of", shard.count},
              {"configurations", configurations},
              {"rows", rows},
              {"frame", std::move(frame)}};
}

// One JSON Lines record with its "check"; names from the user's files may hold invalid UTF-8,
// written replaced (the row itself keeps their bytes: row_json.hpp).
std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }
std::string jsonl_line(json j)
{
  j["check"] = sha256_hex(dump(j));
  return dump(j) + "\n";
}

json row_line(std::size_t index, const sim::ConfigResult& r)
{
  return json{{"index", index},         {"instance", r.instance},         {"nodes", r.nodes},
              {"framework", r.framework}, {"step_time_s", r.step_time_s}, {"total_time_s", r.total_time_s},
              {"cost_usd", r.cost_usd},   {"fits", r.fits},               {"row", sim::row_json(r)}};
}

}  // namespace

std::string sha256_hex(const std::string& bytes)
{
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  DDPSIM_CHECK(EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr) == 1, "SHA-256 failed");
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) out += {hex[md[i] >> 4], hex[md[i] & 15]};
  return out;
}

std::string scenario_shard_jsonl(const sim::ScenarioReport& report, const Shard& shard, const ShardInput& in)
{
  const std::vector<std::size_t> mine = shard_members(report.results.size(), shard);
  const json frame{{"scenario", report.scenario}, {"description", report.description}, {"engine", report.engine},
                   {"model", report.model},       {"parameters", report.parameters},   {"price_source", report.price_source},
                   {"profile", report.profile_source}, {"notes", report.notes}};
  std::string out = jsonl_line(header(in, shard, report.results.size(), mine.size(), frame));
  for (std::size_t i : mine) out += jsonl_line(row_line(i, report.results[i]));
  return out;
}

std::string plan_shard_jsonl(const sim::PlanFrame& frame, const sim::Goal& goal, const std::vector<std::size_t>& variants,
                             const std::vector<std::vector<sim::ConfigResult>>& results, const Shard& shard,
                             const ShardInput& in)
{
  DDPSIM_CHECK(variants.size() == results.size(), "plan shard: results do not match the variants");
  json vs = json::array();
  for (const sim::VariantInfo& v : frame.variants)
    vs.push_back({{"label", v.label}, {"instance", v.instance}, {"price_source", v.price_source}, {"priced", v.priced},
                  {"calibration", v.calibration}});
  const json f{{"name", frame.name},
               {"model", frame.model},
               {"parameters", frame.parameters},
               {"goal",
                {{"deadline_s", goal.deadline_s ? json(*goal.deadline_s) : json(nullptr)},
                 {"budget_usd", goal.budget_usd ? json(*goal.budget_usd) : json(nullptr)},
                 {"minimize", goal.minimize == sim::Minimize::cost ? "cost" : "time"},
                 {"confidence", goal.at_p90 ? 0.9 : 0.5}}},
               {"variants", std::move(vs)}};
  std::size_t rows = 0;
  for (const auto& r : results) rows += r.size();
  std::string out = jsonl_line(header(in, shard, frame.variants.size(), rows, f));
  for (std::size_t k = 0; k < variants.size(); ++k)
    for (std::size_t j = 0; j < results[k].size(); ++j) {
      json line = row_line(j, results[k][j]);
      line["variant"] = variants[k];
      out += jsonl_line(line);
    }
  return out;
}

namespace {

struct ShardFile {
  std::string path;
  json head;
  std::vector<std::pair<json, int>> lines;  // parsed row lines and their line numbers
};

[[noreturn]] void bad(const std::string& path, int line, const std::string& field, const std::string& message)
{
  throw UserError(SourceLocation{path, line, 1}, field, message);
}

// A foreign file or another format version is named as such before its lines' checks.
void identify(const std::string& path, const json& h)
{
  if (!h.contains("ddpsim_shard")) bad(path, 1, "header", "not a ddpsim shard (no \"ddpsim_shard\" key)");
  if (h["ddpsim_shard"] != kFormat)
    bad(path, 1, "ddpsim_shard", "shard format " + h["ddpsim_shard"].dump() + ", this ddpsim reads " + std::to_string(kFormat));
}

void verify(const std::string& path, int line, const json& j)
{
  const auto c = j.find("check");
  if (c == j.end() || !c->is_string()) bad(path, line, "check", "missing: every line of a shard carries its checksum");
  json body = j;
  body.erase("check");
  if (sha256_hex(dump(body)) != c->get<std::string>())
    bad(path, line, "check", "the line does not match its checksum (corrupt shard file)");
}

ShardFile read_shard(const std::string& path)
{
  ShardFile f{path, {}, {}};
  const std::string text = read_text_file(path);
  std::size_t pos = 0;
  int line = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    const std::string one = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line;
    json j = json::parse(one, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      bad(path, line, line == 1 ? "header" : "row", line == 1 ? "not a ddpsim shard (no JSON header line)" : "not a JSON object");
    if (line == 1) identify(path, j);
    verify(path, line, j);
    if (line == 1) f.head = std::move(j);
    else f.lines.emplace_back(std::move(j), line);
  }
  if (line == 0) bad(path, 1, "header", "empty file: not a ddpsim shard");
  const json& h = f.head;
  for (const char* k : {"command", "input", "sha256", "options", "shard", "of", "configurations", "rows", "frame"})
    if (!h.contains(k)) bad(path, 1, k, "missing from the shard header");
  if (!h["shard"].is_number_unsigned() || !h["of"].is_number_unsigned() || !h["rows"].is_number_unsigned() ||
      !h["configurations"].is_number_unsigned() || h["shard"].get<std::size_t>() >= h["of"].get<std::size_t>())
    bad(path, 1, "shard", "malformed shard numbers in the header");
  if (h["rows"].get<std::size_t>() != f.lines.size())
    bad(path, line, "rows", "the header announces " + h["rows"].dump() + " rows, the file holds " +
                                std::to_string(f.lines.size()) + " (truncated?)");
  return f;
}

std::string which(const json& h)
{
  return "shard " + h["shard"].dump() + "/" + h["of"].dump();
}

sim::ConfigResult decode_line(const ShardFile& f, const json& j, int line)
{
  if (!j.contains("row")) bad(f.path, line, "row", "missing");
  try {
    return sim::row_from_json(j["row"]);
  } catch (const ValueError& e) {
    bad(f.path, line, "row", std::string(e.what()) + " (not a row of this ddpsim's shard format)");
  }
}

std::size_t index_of(const ShardFile& f, const json& j, int line, const char* key)
{
  if (!j.contains(key) || !j[key].is_number_unsigned()) bad(f.path, line, key, "missing or not a count");
  return j[key].get<std::size_t>();
}

}  // namespace

Merged merge_shards(const std::vector<std::string>& paths)
{
  if (paths.empty()) throw UserError("merge: no shard files given");
  std::vector<ShardFile> files;
  for (const std::string& p : paths) files.push_back(read_shard(p));
  const json& h0 = files.front().head;
  const std::size_t n = h0["of"].get<std::size_t>();
  std::map<std::size_t, std::string> seen;  // shard index -> file
  for (const ShardFile& f : files) {
    const json& h = f.head;
    for (const char* k : {"command", "sha256", "options", "of", "configurations", "frame"})
      if (h[k] != h0[k])
        bad(f.path, 1, k,
            std::string(k == std::string("sha256") ? "a shard of a different input" : "shards disagree") + " (" + h["input"].dump() +
                ", " + which(h) + ") than " + files.front().path + " (" + h0["input"].dump() + ", " + which(h0) +
                "): merge shards of one run");
    const auto [it, fresh] = seen.emplace(h["shard"].get<std::size_t>(), f.path);
    if (!fresh) bad(f.path, 1, "shard", which(h) + " is given twice (also " + it->second + ")");
  }
  for (std::size_t i = 0; i < n; ++i)
    if (!seen.count(i))
      throw UserError(SourceLocation{}, "merge",
                      "shard " + std::to_string(i) + "/" + std::to_string(n) + " is missing: give all " + std::to_string(n) +
                          " shards (" + std::to_string(seen.size()) + " given)");
  Merged m;
  m.command = h0["command"].get<std::string>();
  const json& fr = h0["frame"];
  const std::size_t count = h0["configurations"].get<std::size_t>();
  if (m.command == "scenario") {
    std::vector<std::optional<sim::ConfigResult>> rows(count);
    for (const ShardFile& f : files)
      for (const auto& [j, line] : f.lines) {
        const std::size_t i = index_of(f, j, line, "index");
        if (i >= count || i % n != f.head["shard"].get<std::size_t>() || rows[i])
          bad(f.path, line, "index", std::to_string(i) + " does not belong to " + which(f.head) + " or is repeated");
        rows[i] = decode_line(f, j, line);
      }
    sim::ScenarioReport r;
    r.scenario = fr.value("scenario", ""), r.description = fr.value("description", ""), r.engine = fr.value("engine", "");
    r.model = fr.value("model", ""), r.parameters = fr.value("parameters", std::uint64_t{0});
    r.price_source = fr.value("price_source", ""), r.profile_source = fr.value("profile", "");
    r.notes = fr.value("notes", std::vector<std::string>{});
    for (std::size_t i = 0; i < count; ++i) {
      DDPSIM_CHECK(rows[i].has_value(), "merge: complete shards lack a row");  // the row counts were checked
      r.results.push_back(std::move(*rows[i]));
    }
    m.scenario = std::move(r);
    return m;
  }
  if (m.command != "plan") bad(files.front().path, 1, "command", "unknown command " + h0["command"].dump());
  sim::PlanFrame frame;
  frame.name = fr.value("name", ""), frame.model = fr.value("model", ""), frame.parameters = fr.value("parameters", std::uint64_t{0});
  for (const json& v : fr.at("variants"))
    frame.variants.push_back(sim::VariantInfo{v.value("label", ""), v.value("instance", ""), v.value("price_source", ""),
                                              v.value("priced", true), v.value("calibration", "")});
  sim::Goal goal;
  const json& g = fr.at("goal");
  if (g.at("deadline_s").is_number()) goal.deadline_s = g["deadline_s"].get<double>();
  if (g.at("budget_usd").is_number()) goal.budget_usd = g["budget_usd"].get<double>();
  goal.minimize = g.value("minimize", "cost") == "time" ? sim::Minimize::time : sim::Minimize::cost;
  goal.at_p90 = g.value("confidence", 0.5) == 0.9;  // shards written before goal.confidence: the central value
  DDPSIM_CHECK(frame.variants.size() == count, "merge: plan frame does not match its variant count");
  std::vector<std::vector<sim::ConfigResult>> results(count);
  for (const ShardFile& f : files)
    for (const auto& [j, line] : f.lines) {
      const std::size_t v = index_of(f, j, line, "variant"), k = index_of(f, j, line, "index");
      if (v >= count || v % n != f.head["shard"].get<std::size_t>() || k != results[v].size())
        bad(f.path, line, "variant", std::to_string(v) + " row " + std::to_string(k) + " does not belong to " + which(f.head) +
                                         " here (out of order or repeated)");
      results[v].push_back(decode_line(f, j, line));
    }
  for (std::size_t v = 0; v < count; ++v)
    if (results[v].empty())
      throw UserError(SourceLocation{seen[v % n], 0, 0}, "variant", "variant " + std::to_string(v) + " has no rows");
  m.plan = sim::decide(frame, results, goal);
  return m;
}

}  // namespace ddpsim::app
