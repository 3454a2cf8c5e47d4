// Model presets with their exact parameter tensors in registration order (torchvision and Hugging
// Face definitions, which are public facts) and forward FLOPs per layer. The mlp is in
// model_zoo.cpp, the CNNs in zoo_vision.cpp, the transformers in zoo_transformers.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/step/model.hpp"

namespace ddpsim::sim {

// A stack of nn.Linear layers: widths[0] inputs, then one layer per following width (with bias).
ModelSpec make_mlp(const std::vector<std::uint64_t>& widths);
// torchvision classifiers at 224x224.
ModelSpec make_resnet18(int num_classes = 1000);   // 11,689,512 parameters
ModelSpec make_resnet50(int num_classes = 1000);   // 25,557,032
ModelSpec make_resnet101(int num_classes = 1000);  // 44,549,160
ModelSpec make_vgg16(int num_classes = 1000);      // 138,357,544
// Hugging Face models; `seq` is the sequence length (tokens per sample) the FLOPs are counted at.
ModelSpec make_bert_base(std::uint64_t seq = 128);    // 109,482,240
ModelSpec make_bert_large(std::uint64_t seq = 128);   // 335,141,888
ModelSpec make_gpt2_small(std::uint64_t seq = 1024);  // 124,439,808
ModelSpec make_gpt2_xl(std::uint64_t seq = 1024);     // 1,557,611,200

struct PresetInfo {
  std::string_view name;
  std::string_view summary;
  std::uint64_t default_seq_len = 0;  // 0: not a sequence model
};
const std::vector<PresetInfo>& model_presets();
// A preset by name (mlp uses `mlp_widths`; sequence models use `seq_len`, 0 = the preset's
// default). Throws UserError naming the valid presets.
ModelSpec make_preset(std::string_view name, const std::vector<std::uint64_t>& mlp_widths = {},
                      std::uint64_t seq_len = 0);

}  // namespace ddpsim::sim
