"""A small sequence model of the user's own code, for `export_model.py lm_fixture:tiny_lm`
(tests/pytorch/ddp_buckets.py): token embedding, two nn.TransformerEncoderLayer blocks (eager
nn.MultiheadAttention) in an nn.ModuleList, and an output projection."""
import torch


class TinyLM(torch.nn.Module):
    def __init__(self, vocab=2000, dim=128, heads=4, layers=2):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, dim)
        self.blocks = torch.nn.ModuleList(
            torch.nn.TransformerEncoderLayer(dim, heads, 4 * dim, batch_first=True) for _ in range(layers))
        self.head = torch.nn.Linear(dim, vocab)

    def forward(self, tokens):
        x = self.embed(tokens)
        for b in self.blocks:
            x = b(x)
        return self.head(x)


def tiny_lm():
    return TinyLM()
