#!/usr/bin/python3
"""Export a real PyTorch nn.Module as a ddpsim model file (YAML; docs/scenario.md, "model.file").

    scripts/export_model.py resnet50 --input 3,224,224 -o resnet50.yaml
    scripts/export_model.py mypkg.nets:build_net --input 3,64,64 -o net.yaml
    scripts/export_model.py mypkg.lm:make_lm --input 128 --int-input 50257 -o lm.yaml

MODEL is a torchvision model name (torchvision.models.NAME()) or `module:factory`, a function of
the user's own code (importable from the current directory) returning the nn.Module.

Everything is measured on the real module, in training mode, on a batch of --batch random inputs
of the per-sample shape --input (real-valued, or token ids in [0, --int-input)):
  - every parameter tensor in registration order (Module.named_parameters(), as DDP takes them),
    grouped by the module that owns it, with its element count, dtype, requires_grad and whether
    one backward pass gave it a gradient;
  - grad_order: the order in which autograd's AccumulateGrad nodes finished in that backward pass,
    i.e. the order DDP's Reducer sees gradients become ready and rebuilds its buckets in;
  - nn.MultiheadAttention modules: attention_scores, heads x seq x seq per sample (the score
    matrices that model.attention: flash does not keep);
  - per module, forward FLOPs (2 x the multiply-adds of every convolution and matrix product the
    module runs itself, counted on the real aten calls through a TorchDispatchMode), output
    elements (forward hooks), and what autograd saves for backward (saved-tensor hooks; each
    storage counted once, by the module that saved it first; parameters excluded): floating-point
    elements, and bytes of the others (dropout masks). Divided by --batch: per sample.
A module becomes a ddpsim layer when it owns parameters or did any of that work itself.
Written atomically; the same module and options give the same bytes.
"""
import argparse
import importlib
import os
import sys
import tempfile

import torch
from torch.utils._python_dispatch import TorchDispatchMode

aten = torch.ops.aten


def matmul_flops(func, args, out):
    """2 x multiply-adds of the aten calls that carry a network's arithmetic; 0 for the rest."""
    if func in (aten.convolution.default, aten._convolution.default):
        x, w, transposed = args[0], args[1], args[6]
        # Each output (each input, transposed) element takes Cin/groups x kernel multiply-adds.
        return 2 * (x.numel() if transposed else out.numel()) * w[0].numel()
    if func in (aten.mm.default, aten.addmm.default):
        a, b = (args[0], args[1]) if func == aten.mm.default else (args[1], args[2])
        return 2 * a.shape[0] * a.shape[1] * b.shape[1]
    if func in (aten.bmm.default, aten.baddbmm.default):
        a, b = (args[0], args[1]) if func == aten.bmm.default else (args[1], args[2])
        return 2 * a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2]
    return 0


class Recorder(TorchDispatchMode):
    """Charges FLOPs and saved tensors to the innermost module running (a stack kept by hooks)."""

    def __init__(self, names):
        super().__init__()
        self.stack = [""]
        self.flops = {n: 0 for n in names}
        self.outputs = {n: 0 for n in names}
        self.saved = {n: 0 for n in names}
        self.masks = {n: 0 for n in names}
        self.attention = {n: 0 for n in names}
        self.seen = set()
        self.param_storages = set()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if isinstance(out, torch.Tensor):
            self.flops[self.stack[-1]] += matmul_flops(func, args, out)
        return out

    def pack(self, t):
        key = t.storage().data_ptr()
        if key not in self.seen and key not in self.param_storages:
            self.seen.add(key)
            nbytes = t.storage().nbytes()
            if t.is_floating_point():
                self.saved[self.stack[-1]] += nbytes // t.element_size()
            else:
                self.masks[self.stack[-1]] += nbytes
        return t


def build(spec):
    if ":" in spec:
        module, factory = spec.split(":", 1)
        sys.path.insert(0, os.getcwd())
        return getattr(importlib.import_module(module), factory)(), spec
    import torchvision
    if not hasattr(torchvision.models, spec):
        raise SystemExit(f"export_model: no torchvision model {spec!r} (or give module:factory)")
    kwargs = {"aux_logits": False} if spec in ("googlenet", "inception_v3") else {}
    kwargs.update({"init_weights": True} if spec in ("googlenet", "inception_v3") else {})
    return getattr(torchvision.models, spec)(**kwargs), f"torchvision.models.{spec}({', '.join(f'{k}={v}' for k, v in kwargs.items())})"


def tensors_of(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, dict):
        out = list(out.values())
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in tensors_of(o)]
    return []


def make_input(args):
    shape = [args.batch] + args.input
    if args.int_input:
        return torch.randint(0, args.int_input, shape)
    return torch.randn(shape)


def loss_of(out):
    """The sum of every floating-point output: every output takes part in backward."""
    return sum(t.float().sum() for t in tensors_of(out) if t.is_floating_point())


def measure(model, args):
    names = [n for n, _ in model.named_modules()]
    rec = Recorder(names)
    rec.param_storages = {p.storage().data_ptr() for p in model.parameters()}
    handles = []
    for name, mod in model.named_modules():
        def pre(_m, _i, name=name):
            rec.stack.append(name)

        def post(m, inputs, out, name=name):
            rec.stack.pop()
            rec.outputs[name] += sum(t.numel() for t in tensors_of(out))
            if isinstance(m, torch.nn.MultiheadAttention) and len(inputs) >= 2:
                # heads x target length x source length: the score matrices flash attention drops.
                seq = 1 if m.batch_first else 0
                rec.attention[name] += m.num_heads * inputs[0].shape[seq] * inputs[1].shape[seq] * args.batch

        handles += [mod.register_forward_pre_hook(pre), mod.register_forward_hook(post)]
    # Gradient-ready order: hooks on the AccumulateGrad nodes, as DDP's Reducer registers them.
    params = list(model.parameters())
    order, accumulators = [], []
    for i, p in enumerate(params):
        if p.requires_grad:
            acc = p.expand_as(p).grad_fn.next_functions[0][0]
            acc.register_hook(lambda *_unused, i=i: order.append(i))
            accumulators.append(acc)
    x = make_input(args)
    with torch.autograd.graph.saved_tensors_hooks(rec.pack, lambda t: t):
        with rec:
            out = model(x)
    for h in handles:
        h.remove()
    loss_of(out).backward()
    return rec, order, params


def export(args):
    torch.manual_seed(0)
    model, source = build(args.model)
    model.train()
    rec, order, params = measure(model, args)
    index = {id(p): i for i, p in enumerate(params)}
    b = float(args.batch)
    per_sample = lambda v: f"{v / b:.17g}"
    lines = [
        "# ddpsim model file (docs/scenario.md, model.file), written by scripts/export_model.py from",
        f"# the real module: {source}; torch {torch.__version__}.",
        "ddpsim_model: 1",
        f"name: {args.name or args.model.split(':')[-1]}",
        f"source: \"{source}\"",
        f"input: [{', '.join(map(str, args.input))}]",
        f"measured_batch: {args.batch}",
        f"tokens_per_sample: {args.int_input and int(torch.tensor(args.input).prod())}",
        "layers:",
    ]
    listed, listed_ids = 0, set()
    for name, mod in model.named_modules():
        # A parameter shared by two modules is listed once, under the first (as parameters() does).
        own = [(n, p) for n, p in mod.named_parameters(recurse=False) if id(p) not in listed_ids]
        listed_ids.update(id(p) for _, p in own)
        work = rec.flops[name] or rec.saved[name] or rec.masks[name] or (not list(mod.children()) and rec.outputs[name])
        if not own and not work:
            continue
        lines += [f"  - name: {name or 'root'}", f"    type: {type(mod).__name__}",
                  f"    fwd_flops: {per_sample(rec.flops[name])}",
                  f"    activations: {per_sample(rec.outputs[name])}",
                  f"    saved: {per_sample(rec.saved[name])}",
                  f"    saved_mask_bytes: {per_sample(rec.masks[name])}"]
        if rec.attention[name]:
            lines.append(f"    attention_scores: {per_sample(rec.attention[name])}")
        if own:
            lines.append("    params:")
        for n, p in own:
            full = f"{name}.{n}" if name else n
            lines.append(f"      - {{name: {full}, numel: {p.numel()}, dtype: {str(p.dtype).replace('torch.', '')}, "
                         f"requires_grad: {str(p.requires_grad).lower()}, grad: {str(p.grad is not None).lower()}}}")
        listed += len(own)
    assert listed == len(params) and [index[i] for i in listed_ids] is not None
    lines.append("# Positions in the parameter list above (registration order) in the order their gradients")
    lines.append("# became ready in backward (AccumulateGrad hooks): DDP's bucket order.")
    lines.append(f"grad_order: [{', '.join(map(str, order))}]")
    text = "\n".join(lines) + "\n"
    out_dir = os.path.dirname(os.path.abspath(args.output))
    fd, tmp = tempfile.mkstemp(dir=out_dir, prefix=".export_model.")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, args.output)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model", help="torchvision model name, or module:factory")
    ap.add_argument("--input", required=True, help="one sample's shape, e.g. 3,224,224 or 128 (tokens)")
    ap.add_argument("--int-input", type=int, default=0, metavar="HIGH",
                    help="inputs are integer ids in [0, HIGH) (token ids); tokens_per_sample = the shape's size")
    ap.add_argument("--batch", type=int, default=2, help="samples measured (figures are divided by it); default 2")
    ap.add_argument("--name", help="name in reports (default: the model's)")
    ap.add_argument("-o", "--output", required=True, help="the model file to write")
    args = ap.parse_args()
    try:
        args.input = [int(v) for v in args.input.split(",")]
        assert args.input and all(v > 0 for v in args.input) and args.batch > 0
    except (ValueError, AssertionError):
        raise SystemExit(f"export_model: --input must be positive integers separated by commas, --batch positive")
    export(args)


if __name__ == "__main__":
    main()
