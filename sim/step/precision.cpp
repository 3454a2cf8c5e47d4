#include "sim/step/precision.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace ddpsim::sim {
namespace {

// "h.3.attn.c_attn" -> "h.3"; "" when no dotted component is all digits.
std::string block_of(const std::string& name)
{
  std::size_t start = 0;
  while (start <= name.size()) {
    std::size_t end = name.find('.', start);
    if (end == std::string::npos) end = name.size();
    const std::string part = name.substr(start, end - start);
    if (!part.empty() && std::all_of(part.begin(), part.end(), [](unsigned char c) { return std::isdigit(c); }))
      return end == name.size() ? "" : name.substr(0, end);  // a block's own parameters, not a bare index
    start = end + 1;
  }
  return "";
}

}  // namespace

int gradient_bytes(Precision p, bool amp) { return amp ? 4 : bytes_per_element(p); }

std::vector<int> checkpoint_blocks(const ModelSpec& model)
{
  std::vector<int> out;
  std::map<std::string, int> ids;
  std::string last;
  for (const Layer& l : model.layers) {
    const std::string b = block_of(l.name);
    if (b.empty()) {
      out.push_back(-1);
    } else {
      // A block is a run of consecutive layers; the same prefix later is another block.
      if (b != last || out.empty() || out.back() < 0) ids[b] = static_cast<int>(ids.size());
      out.push_back(ids[b]);
    }
    last = b;
  }
  return out;
}

double backward_factor(const ModelSpec& model, const Layer& layer)
{
  return model.flash_attention && layer.attention_scores_per_sample > 0 ? 2.5 : model.backward_flops_factor;
}

Saved saved_per_sample(const ModelSpec& model, const Layer& l)
{
  Saved s{l.saved_elems_per_sample >= 0 ? l.saved_elems_per_sample : l.activation_elems_per_sample,
          l.saved_mask_bytes_per_sample, l.autocast_fp32_elems_per_sample};
  if (model.flash_attention && l.attention_scores_per_sample > 0) {
    s.elems = std::max(0.0, s.elems - 2 * l.attention_scores_per_sample);
    s.mask_bytes = std::max(0.0, s.mask_bytes - l.attention_scores_per_sample);
    // heads x seq rows of fp32 log-sum-exp: the score matrix over seq.
    if (model.tokens_per_sample > 0) s.mask_bytes += 4 * l.attention_scores_per_sample / static_cast<double>(model.tokens_per_sample);
  }
  return s;
}

double activation_bytes(const ModelSpec& model, int elem, int batch, bool checkpointing, bool autocast)
{
  const int fp32 = autocast ? 4 : elem;
  const std::vector<int> blocks = checkpointing ? checkpoint_blocks(model) : std::vector<int>(model.layers.size(), -1);
  Saved kept;
  std::map<int, Saved> in_block;
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    const Saved s = saved_per_sample(model, model.layers[i]);
    if (blocks[i] < 0) {
      kept.elems += s.elems;
      kept.mask_bytes += s.mask_bytes;
      kept.fp32_elems += s.fp32_elems;
      continue;
    }
    // A block's first layer: the block keeps its input, the previous layer's output.
    if (!in_block.count(blocks[i]) && i > 0) kept.elems += model.layers[i - 1].activation_elems_per_sample;
    in_block[blocks[i]].elems += s.elems;
    in_block[blocks[i]].mask_bytes += s.mask_bytes;
    in_block[blocks[i]].fp32_elems += s.fp32_elems;
  }
  double largest = 0;  // the block being recomputed holds its own saved activations
  for (const auto& [b, s] : in_block) largest = std::max(largest, s.elems * elem + s.fp32_elems * fp32 + s.mask_bytes);
  return (kept.elems * elem + kept.fp32_elems * fp32 + kept.mask_bytes + largest) * batch;
}

double model_flops_per_sample(const ModelSpec& model)
{
  double f = 0;
  for (const Layer& l : model.layers) f += l.fwd_flops_per_sample * (1 + model.backward_flops_factor);
  return f;
}

}  // namespace ddpsim::sim
