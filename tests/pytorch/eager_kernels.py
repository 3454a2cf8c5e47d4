#!/usr/bin/python3
"""eager_kernels.py DDPSIM: the elementwise kernels ddpsim's `model.kernels: eager` counts for the
zoo's ResNets are the ones real PyTorch runs, pass for pass.

torchvision's resnet18 / resnet50 / resnet101 (train mode, fp32, one 224x224 sample, this CPU)
run one forward and one backward under torch.profiler with record_shapes. Every elementwise op
ddpsim counts is an aten op here: forward `relu_` (in place: reads and writes its tensor) and
`add_` (`out += identity`: reads two, writes one); backward `threshold_backward` (reads the
gradient and the output, writes the gradient) and `add` / `add_` (autograd summing a tensor's two
gradients). Passes = the numel of every input + the output's. Ops on tensors of fewer than 4,096
elements are left out (batch norm's num_batches_tracked += 1). The forward and backward totals
must equal `eager_passes_per_sample` (act) of `ddpsim models --format json`, exactly.

And Hugging Face's `gelu_new`, the formula GPT-2 runs in Python (0.5 x (1 + tanh(sqrt(2/pi) (x +
0.044715 x^3)))), in fp32: its forward and backward ops (mul, pow, add, tanh,
tanh_backward and autograd's sums) must make the passes per element that sim/step/zoo_transformers.cpp
counts without autocast, 4 + 14 = 18 forward and 9 + 19 = 28 backward (autocast's casts exist on
a GPU only and are not checked here).

And the convolutions' NCHW layout conversions (`nchw_transpose_passes_per_sample`, charged with
model.kernels: eager and memory_format: contiguous on tensor cores): cuDNN converts each call's
activation operands to NHWC and its result back, which a CPU cannot show; what is checked is the
count from real PyTorch's shapes: forward hooks on every nn.Conv2d give its input and output numel,
2 x (in + out) forward, the same twice backward (data and weight gradients), once where autograd
computes no input gradient (the input does not require grad: the stem). Exit 0 equal, 1 a
difference, 77 (skipped) without python3-torch / python3-torchvision.
"""
import json
import math
import subprocess
import sys

try:
    import torch
    import torchvision
    from torch.profiler import ProfilerActivity, profile
except ImportError as e:
    print(f"SKIP: python3-torch / python3-torchvision cannot be imported ({e}); scripts/setup.sh installs them")
    sys.exit(77)

COUNTED = {"aten::relu_", "aten::add_", "aten::add", "aten::threshold_backward"}
GELU_OPS = COUNTED | {"aten::mul", "aten::pow", "aten::tanh", "aten::tanh_backward"}
GELU_PASSES = (18, 28)  # zoo_transformers.cpp, per element of gelu_new's input, without autocast
MODELS = ["resnet18", "resnet50", "resnet101"]


def passes(prof, counted=COUNTED):
    total, ops = 0, 0
    # The profiler now and then records one op twice: two events of the same name on the same
    # thread whose times overlap (seen on aten::mul(Tensor, Scalar) inside PowBackward0, about 1 run
    # in 15 with the same input; ids consecutive, starts 2 us apart). One thread runs one op at a
    # time, so an event that begins before the last one of its name on its thread ended is that op
    # again, and is not counted twice.
    ended = {}
    for e in sorted(prof.events(), key=lambda e: (e.time_range.start, e.id)):
        if e.name not in counted:
            continue
        key = (e.thread, e.name)
        if e.time_range.start < ended.get(key, -1):
            continue
        ended[key] = e.time_range.end
        sizes = [math.prod(s) for s in e.input_shapes if s]
        if not sizes or max(sizes) < 4096:
            continue
        total += sum(sizes) + max(sizes)  # inputs read, the (elementwise) output written
        ops += 1
    return total, ops


def main():
    ddpsim = sys.argv[1]
    presets = json.loads(subprocess.run([ddpsim, "models", "--format", "json"], check=True,
                                        capture_output=True, text=True).stdout)
    zoo = {m["name"]: m["eager_passes_per_sample"] for m in presets}
    layout = {m["name"]: m["nchw_transpose_passes_per_sample"] for m in presets}
    torch.set_num_threads(2)
    failed = False
    for name in MODELS + ["vgg16"]:  # vgg16: its convolutions only (its max pools are not counted)
        torch.manual_seed(0)
        model = getattr(torchvision.models, name)()
        model.train()
        x = torch.randn(1, 3, 224, 224)
        convs = []  # (in + out numel, whether autograd computes the input's gradient)

        def hook(module, inputs, output):
            convs.append((inputs[0].numel() + output.numel(), inputs[0].requires_grad))

        for mod in model.modules():
            if isinstance(mod, torch.nn.Conv2d):
                mod.register_forward_hook(hook)
        with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as fwd_prof:
            loss = model(x).sum()
        with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as bwd_prof:
            loss.backward()
        if name in MODELS:
            fwd, fwd_ops = passes(fwd_prof)
            bwd, bwd_ops = passes(bwd_prof)
            want_f = zoo[name]["forward"]["act"]
            want_b = zoo[name]["backward"]["act"]
            ok = fwd == want_f and bwd == want_b
            failed |= not ok
            print(f"{name}: torch forward {fwd:,} passes in {fwd_ops} ops, ddpsim {want_f:,.0f}; "
                  f"backward {bwd:,} in {bwd_ops} ops, ddpsim {want_b:,.0f}: {'equal' if ok else 'DIFFERENT'}")
        t_fwd = sum(2 * n for n, _ in convs)
        t_bwd = sum((4 if grad_in else 2) * n for n, grad_in in convs)
        ok = (t_fwd, t_bwd) == (layout[name]["forward"], layout[name]["backward"])
        failed |= not ok
        print(f"{name}: NCHW conversions of {len(convs)} convolutions, torch's shapes {t_fwd:,} forward and "
              f"{t_bwd:,} backward, ddpsim {layout[name]['forward']:,.0f} and {layout[name]['backward']:,.0f}: "
              f"{'equal' if ok else 'DIFFERENT'}")
    n = 4 * 768 * 16
    x = torch.randn(n, requires_grad=True)  # autograd sums its three gradients, as for c_fc's output
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as fwd_prof:
        y = 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))
    seed = torch.ones_like(y)
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as bwd_prof:
        y.backward(seed)
    got = (passes(fwd_prof, GELU_OPS)[0] / n, passes(bwd_prof, GELU_OPS)[0] / n)
    ok = got == GELU_PASSES
    failed |= not ok
    print(f"gelu_new: torch {got[0]:g} forward and {got[1]:g} backward passes per element, ddpsim "
          f"{GELU_PASSES[0]} and {GELU_PASSES[1]}: {'equal' if ok else 'DIFFERENT'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
