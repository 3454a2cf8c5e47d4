#!/usr/bin/env python3
"""CPU seconds per image of torchvision's ImageNet training pipeline on one core of this host.

The pipeline of PyTorch's ImageNet example (pytorch/examples imagenet/main.py): PIL decode of a
JPEG, RandomResizedCrop(224), RandomHorizontalFlip, ToTensor, Normalize. Images: scikit-image's
sample photographs (real photos, no download), resized to ImageNet's typical 500 x 375 and
saved as JPEG quality 90 in memory. One process, one thread (what one DataLoader worker does per
image); median of 5 passes over the images. Prints one JSON object.

    loader_cpu.py [--save JPEGS.tar | JPEGS.tar]   (a tar of JPEGs instead of scikit-image's; or
                                                    save the ones made here, to time them elsewhere)
"""
import io
import json
import os
import platform
import statistics
import time

import PIL
import sys
import tarfile
import torch
import torchvision
from PIL import Image
from torchvision import transforms

torch.set_num_threads(1)
names = ["astronaut", "coffee", "chelsea", "rocket", "cat", "hubble_deep_field", "immunohistochemistry", "motorcycle_left"]
jpegs = []
if len(sys.argv) == 2:
    with tarfile.open(sys.argv[1]) as t:
        jpegs = [(m.name, t.extractfile(m).read()) for m in t.getmembers() if m.isfile()]
else:
    import skimage.data
    for n in names:
        try:
            a = getattr(skimage.data, n)()
        except Exception:  # a sample that needs a download (not available offline)
            continue
        if a.ndim != 3:
            continue
        img = Image.fromarray(a).convert("RGB").resize((500, 375))
        buf = io.BytesIO()
        img.save(buf, format="JPEG", quality=90)
        jpegs.append((n, buf.getvalue()))
    if len(sys.argv) == 3 and sys.argv[1] == "--save":
        with tarfile.open(sys.argv[2], "w") as t:
            for n, b in jpegs:
                info = tarfile.TarInfo(n + ".jpg")
                info.size = len(b)
                info.mtime = 0
                t.addfile(info, io.BytesIO(b))
pipeline = transforms.Compose([
    transforms.RandomResizedCrop(224), transforms.RandomHorizontalFlip(), transforms.ToTensor(),
    transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])])
decode_only, full = [], []
for _ in range(5):
    t0 = time.process_time()
    for _ in range(20):
        for _, b in jpegs:
            Image.open(io.BytesIO(b)).convert("RGB")
    decode_only.append((time.process_time() - t0) / (20 * len(jpegs)))
    t0 = time.process_time()
    for _ in range(20):
        for _, b in jpegs:
            pipeline(Image.open(io.BytesIO(b)).convert("RGB"))
    full.append((time.process_time() - t0) / (20 * len(jpegs)))
cpu = ""
if os.path.exists("/proc/cpuinfo"):
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "")
print(json.dumps({"cpu": cpu, "python": platform.python_version(), "torch": torch.__version__,
                  "torchvision": torchvision.__version__, "pillow": PIL.__version__,
                  "images": [n for n, _ in jpegs], "jpeg_bytes_mean": statistics.mean(len(b) for _, b in jpegs),
                  "decode_s_per_image": statistics.median(decode_only),
                  "pipeline_s_per_image": statistics.median(full)}, indent=1))
