#!/usr/bin/env python3
"""Training step time of the model zoo's models on this one GPU, with the real libraries.

torchvision's ResNet-50 and Hugging Face's BertModel (bert-large-uncased's config, with pooler)
and GPT2LMHeadModel (gpt2 and gpt2-xl configs), built from their configurations (no weights are
downloaded), random inputs, one optimizer step per iteration: SGD with momentum for ResNet-50,
fused AdamW for the transformers. Mixed precision is autocast (`amp-fp16`, `amp-bf16` in
ddpsim's terms), parameters fp32. Median of 3 timings of N steps after warm-up (CUDA events).

Prints one JSON object: rows of {model, precision, batch, seq, memory_format, step_s}. Compare
with `ddpsim scenario` on one GPU of p5.48xlarge (validation/device/).
"""
import json
import statistics
import sys

import torch
import torch.nn.functional as F
import torchvision
import transformers


def timed(step, n):
    for _ in range(5):
        step()
    torch.cuda.synchronize()
    out = []
    for _ in range(3):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(n):
            step()
        b.record()
        b.synchronize()
        out.append(a.elapsed_time(b) / 1e3 / n)
    return statistics.median(out)


def autocast(precision):
    dtype = {"amp-fp16": torch.float16, "amp-bf16": torch.bfloat16}.get(precision)
    return torch.autocast("cuda", dtype=dtype or torch.float32, enabled=dtype is not None)


def resnet50(precision, batch, channels_last):
    fmt = torch.channels_last if channels_last else torch.contiguous_format
    model = torchvision.models.resnet50().cuda().to(memory_format=fmt)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.randn(batch, 3, 224, 224, device="cuda").to(memory_format=fmt)
    y = torch.randint(0, 1000, (batch,), device="cuda")

    def step():
        with autocast(precision):
            loss = F.cross_entropy(model(x), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    return step


def bert_large(precision, batch, seq):
    cfg = transformers.BertConfig(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16,
                                  intermediate_size=4096)
    model = transformers.BertModel(cfg).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    ids = torch.randint(0, cfg.vocab_size, (batch, seq), device="cuda")

    def step():
        with autocast(precision):
            out = model(input_ids=ids)
            loss = out.pooler_output.float().pow(2).mean() + out.last_hidden_state.float().pow(2).mean()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    return step


def gpt2(precision, batch, seq, size):
    dims = {"gpt2": dict(n_embd=768, n_layer=12, n_head=12), "gpt2-xl": dict(n_embd=1600, n_layer=48, n_head=25)}[size]
    cfg = transformers.GPT2Config(n_positions=1024, **dims)
    model = transformers.GPT2LMHeadModel(cfg).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    ids = torch.randint(0, cfg.vocab_size, (batch, seq), device="cuda")

    def step():
        with autocast(precision):
            loss = model(input_ids=ids, labels=ids).loss
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    return step


def main():
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    plan = [
        ("resnet50", "amp-fp16", 256, 0, "channels_last", lambda: resnet50("amp-fp16", 256, True), 10),
        ("resnet50", "amp-fp16", 256, 0, "contiguous", lambda: resnet50("amp-fp16", 256, False), 10),
        ("resnet50", "amp-bf16", 256, 0, "channels_last", lambda: resnet50("amp-bf16", 256, True), 10),
        ("resnet50", "tf32", 256, 0, "channels_last", lambda: resnet50("tf32", 256, True), 6),
        ("bert-large", "amp-fp16", 64, 128, "", lambda: bert_large("amp-fp16", 64, 128), 10),
        ("bert-large", "amp-bf16", 16, 512, "", lambda: bert_large("amp-bf16", 16, 512), 10),
        ("gpt2", "amp-bf16", 16, 1024, "", lambda: gpt2("amp-bf16", 16, 1024, "gpt2"), 10),
        ("gpt2-xl", "amp-bf16", 4, 1024, "", lambda: gpt2("amp-bf16", 4, 1024, "gpt2-xl"), 6),
    ]
    props = torch.cuda.get_device_properties(0)
    out = {"device": props.name, "torch": torch.__version__, "cuda": torch.version.cuda,
           "cudnn": torch.backends.cudnn.version(), "transformers": transformers.__version__,
           "torchvision": torchvision.__version__, "rows": []}
    for model, precision, batch, seq, fmt, make, n in plan:
        step = make()
        t = timed(step, n)
        row = {"model": model, "precision": precision, "batch": batch, "seq": seq, "memory_format": fmt, "step_s": t,
               "peak_memory_GiB": torch.cuda.max_memory_allocated() / 2**30}
        out["rows"].append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
        del step
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
