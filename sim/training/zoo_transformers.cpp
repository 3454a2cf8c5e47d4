// Hugging Face transformer encoders/decoders, tensor for tensor in registration order:
//   BertModel (transformers/models/bert/modeling_bert.py, with the pooler, no pre-training heads):
//     bert-base-uncased 109,482,240 and bert-large-uncased 335,141,888 parameters;
//   GPT2Model (modeling_gpt2.py): gpt2 124,439,808 and gpt2-xl 1,557,611,200 parameters. The LM
//     head's weight is tied to wte, so it is counted (and all-reduced) once; its matmul is a
//     parameter-less "lm_head" layer that carries the FLOPs.
// Forward FLOPs per sample at sequence length `seq`: every nn.Linear / Conv1D 2 x in x out x seq;
// attention scores and the weighted sum 2 x 2 x seq^2 x hidden per layer; LayerNorm 4 FLOPs per
// element; embedding look-ups free.
#include "core/error.hpp"
#include "sim/training/model_zoo.hpp"

namespace ddpsim::sim {
namespace {

class TransformerBuilder {
 public:
  TransformerBuilder(ModelSpec& m, std::uint64_t seq) : m_(m), seq_(static_cast<double>(seq)) {}

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

ModelSpec make_bert(const std::string& name, std::uint64_t hidden, int layers, std::uint64_t seq)
{
  if (seq < 1 || seq > 512) throw UserError("BERT's sequence length must be 1..512 (max_position_embeddings)");
  constexpr std::uint64_t vocab = 30522, positions = 512, types = 2;  // bert-*-uncased config
  const std::uint64_t inter = 4 * hidden;
  ModelSpec m{name, {}};
  TransformerBuilder b(m, seq);
  b.embedding("embeddings.word_embeddings", vocab, hidden);
  b.embedding("embeddings.position_embeddings", positions, hidden);
  b.embedding("embeddings.token_type_embeddings", types, hidden);
  b.layer_norm("embeddings.LayerNorm", hidden);
  for (int i = 0; i < layers; ++i) {
    const std::string p = "encoder.layer." + std::to_string(i) + ".";
    b.linear(p + "attention.self.query", hidden, hidden);
    b.linear(p + "attention.self.key", hidden, hidden);
    b.linear(p + "attention.self.value", hidden, hidden);
    b.attention(p + "attention.self.scores", hidden);
    b.linear(p + "attention.output.dense", hidden, hidden);
    b.layer_norm(p + "attention.output.LayerNorm", hidden);
    b.linear(p + "intermediate.dense", hidden, inter);
    b.linear(p + "output.dense", inter, hidden);
    b.layer_norm(p + "output.LayerNorm", hidden);
  }
  // The pooler sees only the first token.
  m.layers.push_back(Layer{"pooler.dense",
                           {{"pooler.dense.weight", hidden * hidden}, {"pooler.dense.bias", hidden}},
                           2.0 * static_cast<double>(hidden * hidden),
                           static_cast<double>(hidden)});
  return m;
}

ModelSpec make_gpt2(const std::string& name, std::uint64_t hidden, int layers, std::uint64_t seq)
{
  if (seq < 1 || seq > 1024) throw UserError("GPT-2's sequence length must be 1..1024 (n_positions)");
  constexpr std::uint64_t vocab = 50257, positions = 1024;
  ModelSpec m{name, {}};
  TransformerBuilder b(m, seq);
  b.embedding("wte", vocab, hidden);
  b.embedding("wpe", positions, hidden);
  for (int i = 0; i < layers; ++i) {
    const std::string p = "h." + std::to_string(i) + ".";
    b.layer_norm(p + "ln_1", hidden);
    b.linear(p + "attn.c_attn", hidden, 3 * hidden);
    b.attention(p + "attn.scores", hidden);
    b.linear(p + "attn.c_proj", hidden, hidden);
    b.layer_norm(p + "ln_2", hidden);
    b.linear(p + "mlp.c_fc", hidden, 4 * hidden);
    b.linear(p + "mlp.c_proj", 4 * hidden, hidden);
  }
  b.layer_norm("ln_f", hidden);
  b.tied_head("lm_head", hidden, vocab);
  return m;
}

}  // namespace

ModelSpec make_bert_base(std::uint64_t seq) { return make_bert("bert-base", 768, 12, seq); }
ModelSpec make_bert_large(std::uint64_t seq) { return make_bert("bert-large", 1024, 24, seq); }
ModelSpec make_gpt2_small(std::uint64_t seq) { return make_gpt2("gpt2", 768, 12, seq); }
ModelSpec make_gpt2_xl(std::uint64_t seq) { return make_gpt2("gpt2-xl", 1600, 48, seq); }

}  // namespace ddpsim::sim
