// Model presets with their exact parameter tensors (torchvision / PyTorch definitions, which are
// public facts) and forward FLOPs per layer.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/model.hpp"

namespace ddpsim::sim {

// A stack of nn.Linear layers: widths[0] inputs, then one layer per following width (with bias).
ModelSpec make_mlp(const std::vector<std::uint64_t>& widths);
// torchvision.models.resnet50 (25,557,032 parameters) at 224x224.
ModelSpec make_resnet50(int num_classes = 1000);

struct PresetInfo {
  std::string_view name;
  std::string_view summary;
};
const std::vector<PresetInfo>& model_presets();
// A preset by name (mlp uses `mlp_widths`). Throws UserError naming the valid presets.
ModelSpec make_preset(std::string_view name, const std::vector<std::uint64_t>& mlp_widths = {});

}  // namespace ddpsim::sim
