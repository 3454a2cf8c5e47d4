// Hugging Face transformer encoders/decoders, tensor for tensor in registration order:
//   BertModel (transformers/models/bert/modeling_bert.py, with the pooler, no pre-training heads):
//     bert-base-uncased 109,482,240 and bert-large-uncased 335,141,888 parameters;
//   GPT2Model (modeling_gpt2.py): gpt2 124,439,808 and gpt2-xl 1,557,611,200 parameters. The LM
//     head's weight is tied to wte, so it is counted (and all-reduced) once; its matmul is a
//     parameter-less "lm_head" layer that carries the FLOPs.
// Forward FLOPs per sample at sequence length `seq`: every nn.Linear / Conv1D 2 x in x out x seq;
// attention scores and the weighted sum 2 x 2 x seq^2 x hidden per layer; LayerNorm 4 FLOPs per
// element; embedding look-ups free.
// Saved activations (memory): per transformer layer 34 s h + 5 a s^2 bytes per sample with 16-bit
// activations and 1-byte dropout masks (Korthikanti et al., "Reducing Activation Recomputation in
// Large Transformer Models", arXiv 2205.05198, section 4.1, eq. 1), attributed to the layer that
// saves each tensor: LayerNorm inputs, the QKV input, Q and K, softmax output + dropout mask +
// dropout output (a s^2 each), V, the projection inputs, GeLU input, residual dropout masks.
// Heads a: bert-base 12, bert-large 16, gpt2 12, gpt2-xl 25 (Hugging Face configs).
// Eager kernels (model.kernels: eager; model.hpp ElementwiseTraffic), read in modeling_bert.py and
// modeling_gpt2.py (transformers 5.x, SDPA attention) under torch.autocast, per token: a layer's
// residual stream is fp32 (LayerNorm is on autocast's fp32 list), so every Linear casts its input
// to 16 bits (BERT's query, key and value three times) and each residual add of a 16-bit branch
// to it is promoted to fp32; dropout is 2 passes and a 1-byte mask each way; BERT's GELU (one
// kernel) 2 passes of 4h forward and 3 backward; GPT-2's gelu_new is eight ops, pow on
// autocast's fp32 list making the rest fp32 (forward per 4h element: 1 cast, 4 16-bit and 14
// fp32 passes; backward 3 casts, 9 and 19, with the sum of the input's three gradients); a
// gradient that reaches a tensor from two consumers is summed (3 passes). GPT-2's loss upcasts
// the logits (a cast of vocab per token), log_softmax reads and writes them in fp32, and backward
// writes the NLL gradient, runs log_softmax's backward (3) and casts back. Forward, per token,
// in units of h: BERT 4 casts, 14 16-bit and 4 fp32 passes, 2 mask bytes; GPT-2 10, 22, 60, 2.
// Backward: BERT 6, 16, 12, 2; GPT-2 20, 40, 82, 2. The embeddings' sums and dropout (once per
// model) are not counted.
#include "core/error.hpp"
#include "sim/step/model_zoo.hpp"

namespace ddpsim::sim {
namespace {

class TransformerBuilder {
 public:
  TransformerBuilder(ModelSpec& m, std::uint64_t seq) : m_(m), seq_(static_cast<double>(seq)) {}

  // Eager kernels after the layer just added, `fwd` and `bwd` per token (x seq).
  void eager(const ElementwiseTraffic& fwd, const ElementwiseTraffic& bwd)
  {
    m_.layers.back().eager_fwd += fwd * seq_;
    m_.layers.back().eager_bwd += bwd * seq_;
  }
  // What the layer just added keeps for backward, per sample: `elems` x seq elements in the
  // compute precision and `masks` x seq one-byte dropout-mask entries.
  void saves(double elems, double masks = 0)
  {
    m_.layers.back().saved_elems_per_sample = elems * seq_;
    m_.layers.back().saved_mask_bytes_per_sample = masks * seq_;
  }
  // Attention scores: Q and K (2 s h), V (s h), softmax output and dropout output (a s^2 each)
  // in the compute precision, the dropout mask (a s^2) in bytes.
  void saves_attention(std::uint64_t hidden, std::uint64_t heads)
  {
    const double h = static_cast<double>(hidden), a = static_cast<double>(heads);
    m_.layers.back().saved_elems_per_sample = 3.0 * seq_ * h + 2.0 * a * seq_ * seq_;
    m_.layers.back().saved_mask_bytes_per_sample = a * seq_ * seq_;
    m_.layers.back().attention_scores_per_sample = a * seq_ * seq_;  // what flash attention does not keep
  }

  void embedding(const std::string& name, std::uint64_t rows, std::uint64_t dim)
  {
    m_.layers.push_back(Layer{name, {{name + ".weight", rows * dim}}, 0, seq_ * static_cast<double>(dim)});
  }
  void linear(const std::string& name, std::uint64_t in, std::uint64_t out)
  {
    m_.layers.push_back(Layer{name,
                              {{name + ".weight", in * out}, {name + ".bias", out}},
                              2.0 * static_cast<double>(in) * static_cast<double>(out) * seq_,
                              seq_ * static_cast<double>(out)});
  }
  void layer_norm(const std::string& name, std::uint64_t dim)
  {
    const double elems = seq_ * static_cast<double>(dim);
    m_.layers.push_back(Layer{name, {{name + ".weight", dim}, {name + ".bias", dim}}, 4.0 * elems, elems});
  }
  // Softmax(QK^T)V: no parameters, 2 x 2 x seq^2 x hidden FLOPs.
  void attention(const std::string& name, std::uint64_t hidden)
  {
    m_.layers.push_back(Layer{name, {}, 4.0 * seq_ * seq_ * static_cast<double>(hidden), seq_ * static_cast<double>(hidden)});
  }
  void tied_head(const std::string& name, std::uint64_t hidden, std::uint64_t vocab)
  {
    m_.layers.push_back(Layer{name, {}, 2.0 * seq_ * static_cast<double>(hidden) * static_cast<double>(vocab),
                              seq_ * static_cast<double>(vocab)});
  }

 private:
  ModelSpec& m_;
  double seq_;
};

ModelSpec make_bert(const std::string& name, std::uint64_t hidden, int layers, std::uint64_t heads, std::uint64_t seq)
{
  if (seq < 1 || seq > 512) throw UserError("BERT's sequence length must be 1..512 (max_position_embeddings)");
  constexpr std::uint64_t vocab = 30522, positions = 512, types = 2;  // bert-*-uncased config
  const std::uint64_t inter = 4 * hidden;
  const double h = static_cast<double>(hidden);
  ModelSpec m{name, {}};
  m.tokens_per_sample = seq;
  TransformerBuilder b(m, seq);
  b.embedding("embeddings.word_embeddings", vocab, hidden);
  b.embedding("embeddings.position_embeddings", positions, hidden);
  b.embedding("embeddings.token_type_embeddings", types, hidden);
  b.layer_norm("embeddings.LayerNorm", hidden);
  b.saves(h, 1);  // its input, and the embedding dropout's mask
  for (int i = 0; i < layers; ++i) {
    const std::string p = "encoder.layer." + std::to_string(i) + ".";
    b.linear(p + "attention.self.query", hidden, hidden);
    b.saves(h);  // the QKV input, shared by query, key and value
    // Each of query, key, value casts the fp32 input; its gradient sums 4 (the residual's too).
    b.eager({0, 0, h, 0}, {0, 9 * h, 3 * h, 0});
    b.linear(p + "attention.self.key", hidden, hidden);
    b.saves(0);
    b.eager({0, 0, h, 0}, {});
    b.linear(p + "attention.self.value", hidden, hidden);
    b.saves(0);
    b.eager({0, 0, h, 0}, {});
    b.attention(p + "attention.self.scores", hidden);
    b.saves_attention(hidden, heads);
    b.linear(p + "attention.output.dense", hidden, hidden);
    b.saves(h, h);  // its input; the residual dropout's mask
    b.eager({3 * h, 2 * h, 0, h}, {2 * h, 0, h, h});  // dropout, + the fp32 residual; back: cast
    b.layer_norm(p + "attention.output.LayerNorm", hidden);
    b.saves(h);
    b.linear(p + "intermediate.dense", hidden, inter);
    b.saves(h + 4 * h);  // its input and the GeLU's input (4h)
    b.eager({8 * h, 0, h, 0}, {12 * h, 3 * h, h, 0});  // cast, GELU; its input's 2 gradients summed
    b.linear(p + "output.dense", inter, hidden);
    b.saves(4 * h, h);  // its input (the GeLU output); the residual dropout's mask
    b.eager({3 * h, 2 * h, 0, h}, {2 * h, 0, h, h});
    b.layer_norm(p + "output.LayerNorm", hidden);
    b.saves(h);
  }
  // The pooler sees only the first token.
  m.layers.push_back(Layer{"pooler.dense",
                           {{"pooler.dense.weight", hidden * hidden}, {"pooler.dense.bias", hidden}},
                           2.0 * static_cast<double>(hidden * hidden),
                           static_cast<double>(hidden)});
  return m;
}

ModelSpec make_gpt2(const std::string& name, std::uint64_t hidden, int layers, std::uint64_t heads, std::uint64_t seq)
{
  if (seq < 1 || seq > 1024) throw UserError("GPT-2's sequence length must be 1..1024 (n_positions)");
  constexpr std::uint64_t vocab = 50257, positions = 1024;
  const double h = static_cast<double>(hidden);
  ModelSpec m{name, {}};
  m.tokens_per_sample = seq;
  TransformerBuilder b(m, seq);
  b.embedding("wte", vocab, hidden);
  b.embedding("wpe", positions, hidden);
  b.saves(0, h);  // the embedding dropout's mask
  for (int i = 0; i < layers; ++i) {
    const std::string p = "h." + std::to_string(i) + ".";
    b.layer_norm(p + "ln_1", hidden);
    b.saves(h);
    b.eager({}, {0, 3 * h, 0, 0});  // the residual stream's two gradients summed
    b.linear(p + "attn.c_attn", hidden, 3 * hidden);
    b.saves(h);
    b.eager({0, 0, h, 0}, {0, 0, h, 0});  // its input's cast
    b.attention(p + "attn.scores", hidden);
    b.saves_attention(hidden, heads);
    b.linear(p + "attn.c_proj", hidden, hidden);
    b.saves(h, h);
    b.eager({3 * h, 2 * h, 0, h}, {2 * h, 0, h, h});  // dropout, + the fp32 residual; back: cast
    b.layer_norm(p + "ln_2", hidden);
    b.saves(h);
    b.eager({}, {0, 3 * h, 0, 0});
    b.linear(p + "mlp.c_fc", hidden, 4 * hidden);
    b.saves(h + 4 * h);
    // Its input's cast, and gelu_new on 4h (above).
    b.eager({16 * h, 56 * h, h + 4 * h, 0}, {36 * h, 76 * h, h + 12 * h, 0});
    // GPT-2's activation is gelu_new, a Python formula (transformers activations.py
    // NewGELUActivation): 0.5 x (1 + tanh(c (x + 0.044715 pow(x, 3)))). Autograd keeps pow's input,
    // tanh's output and both factors of the last product: 4 tensors of 4h where one fused GELU
    // keeps 1. Under autocast pow runs in fp32 (autocast's fp32 op list), so pow's input copy,
    // tanh's output and (1 + tanh) are fp32 and 0.5 x is 16-bit: 3 x 4h fp32 beyond the fused
    // count (48 s h bytes per layer and sample; 24 without autocast). Measured on an H100:
    // +6.75 GiB for gpt2 at 16 x 1024 over gelu_pytorch_tanh, 48.0 s h (validation/device).
    m.layers.back().autocast_fp32_elems_per_sample = 12.0 * h * static_cast<double>(seq);
    b.linear(p + "mlp.c_proj", 4 * hidden, hidden);
    b.saves(4 * h, h);
    b.eager({3 * h, 2 * h, 4 * h, h}, {2 * h, 0, 4 * h + h, h});  // cast of gelu_new's fp32 output; dropout; add
  }
  b.layer_norm("ln_f", hidden);
  b.saves(h);
  b.tied_head("lm_head", hidden, vocab);
  // Its input; and the logits through the loss (GPT2LMHeadModel with labels: ForCausalLMLoss
  // upcasts them to fp32): log_softmax keeps its fp32 output, and backward starts with the fp32
  // gradients of the log-probabilities and of the logits beside it: 3 x vocab fp32 per token at
  // the peak (measured on an H100: 11.3-11.5 bytes per logit, validation/device).
  b.saves(h);
  m.layers.back().autocast_fp32_elems_per_sample = 3.0 * static_cast<double>(vocab) * static_cast<double>(seq);
  const double v = static_cast<double>(vocab);
  b.eager({0, 2 * v, h + v, 0}, {0, 4 * v, h + v, 0});  // input cast, logits upcast, log_softmax; backward
  return m;
}

}  // namespace

ModelSpec make_bert_base(std::uint64_t seq) { return make_bert("bert-base", 768, 12, 12, seq); }
ModelSpec make_bert_large(std::uint64_t seq) { return make_bert("bert-large", 1024, 24, 16, seq); }
ModelSpec make_gpt2_small(std::uint64_t seq) { return make_gpt2("gpt2", 768, 12, 12, seq); }
ModelSpec make_gpt2_xl(std::uint64_t seq) { return make_gpt2("gpt2-xl", 1600, 48, 25, seq); }

}  // namespace ddpsim::sim
