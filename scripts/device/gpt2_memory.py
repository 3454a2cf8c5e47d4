#!/usr/bin/env python3
"""Where GPT-2's training memory goes on this GPU (Hugging Face GPT2LMHeadModel, autocast bf16).

For each configuration: PyTorch's allocated memory after building the model and optimizer state
(one warm-up step), at the end of forward (what autograd keeps), and the step's peak; with the
default activation (gelu_new, Hugging Face's Python formula) and with gelu_pytorch_tanh (one
fused kernel), and with the LM head's loss left out (hidden states' mean instead), to separate
the logits. Prints one JSON object.
"""
import json
import sys

import torch
import transformers


def measure(size, batch, seq, activation, lm_loss):
    dims = {"gpt2": dict(n_embd=768, n_layer=12, n_head=12), "gpt2-xl": dict(n_embd=1600, n_layer=48, n_head=25)}[size]
    cfg = transformers.GPT2Config(n_positions=1024, activation_function=activation, **dims)
    model = transformers.GPT2LMHeadModel(cfg).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    ids = torch.randint(0, cfg.vocab_size, (batch, seq), device="cuda")

    def forward():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            if lm_loss:
                return model(input_ids=ids, labels=ids).loss
            return model.transformer(input_ids=ids).last_hidden_state.float().pow(2).mean()

    for _ in range(2):  # optimizer state exists after the first step
        loss = forward()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    opt.zero_grad(set_to_none=True)
    torch.cuda.synchronize()
    state = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    loss = forward()
    after_forward = torch.cuda.memory_allocated()
    loss.backward()
    opt.step()
    torch.cuda.synchronize()
    row = {"model": size, "batch": batch, "seq": seq, "activation": activation, "lm_loss": lm_loss,
           "state_GiB": state / 2**30, "saved_by_forward_GiB": (after_forward - state) / 2**30,
           "peak_GiB": torch.cuda.max_memory_allocated() / 2**30}
    del model, opt, loss
    torch.cuda.empty_cache()
    return row


def main():
    rows = []
    for size, batch in (("gpt2", 16), ("gpt2-xl", 4)):
        for activation in ("gelu_new", "gelu_pytorch_tanh"):
            for lm_loss in (True, False):
                rows.append(measure(size, batch, 1024, activation, lm_loss))
                print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    json.dump({"device": torch.cuda.get_device_name(0), "torch": torch.__version__,
               "transformers": transformers.__version__, "rows": rows}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
