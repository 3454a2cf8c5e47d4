#include "app/input/precision_loader.hpp"

#include <filesystem>

#include "app/input/model_file.hpp"

namespace ddpsim::app {

void read_model_source(Reader& r, const YAML::Node& n, sim::ModelSpec& m)
{
  const std::string path = "model";
  if (auto f = r.string(n, path, "file", false)) {
    bool alone = true;
    for (const char* other : {"preset", "layers", "widths", "seq_len"})
      if (n[other].IsDefined() && alone) {
        r.error(n[other], path + "." + other, std::string("give either model.file or model.") + other);
        alone = false;
      }
    if (!alone) return;
    const std::string file = (std::filesystem::path(r.file()).parent_path() / *f).lexically_normal().string();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) r.error(n["file"], "model.file", "no such file: " + file);
    else if (r.ok()) m = load_model_file(file);  // its own errors name the model file
  }
  if (auto a = r.choice(n, path, "attention", false, {"eager", "flash"})) m.flash_attention = *a == "flash";
  // Issue 18: the elementwise kernels of eager code (torchvision, Hugging Face without
  // torch.compile); the zoo's convnets and transformers count them (sim/step/model.hpp).
  if (auto k = r.choice(n, path, "kernels", false, {"fused", "eager"})) m.eager_kernels = *k == "eager";
}

void read_precision(Reader& r, const YAML::Node& n, sim::TrainingSpec& t)
{
  const std::string path = "training";
  if (auto p = r.choice(n, path, "precision", false, {"fp32", "tf32", "fp16", "bf16", "amp-fp16", "amp-bf16"})) {
    t.amp = p->rfind("amp-", 0) == 0;
    const std::string c = t.amp ? p->substr(4) : *p;
    t.precision = c == "fp16" ? Precision::fp16 : c == "bf16" ? Precision::bf16 : c == "tf32" ? Precision::tf32 : Precision::fp32;
  }
  // DDP's comm hooks fp16_compress_hook / bf16_compress_hook (torch.distributed.algorithms.
  // ddp_comm_hooks.default_hooks): 2 bytes per gradient on the wire either way.
  if (auto h = r.choice(n, path, "comm_hook", false, {"none", "fp16", "bf16", "fp16_compress"})) t.fp16_compress = *h != "none";
  if (auto c = r.boolean(n, path, "activation_checkpointing", false)) t.activation_checkpointing = *c;
}

}  // namespace ddpsim::app
