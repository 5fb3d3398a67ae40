#!/usr/bin/python3
"""The PyTorch baseline of bench/bench-nmt.sh: the same encoder-decoder as
pc-nmt's presets (post-norm, ReLU, sinusoidal positions, embeddings scaled by
sqrt(dim), one embedding matrix shared by source, target and output, plus an
output bias), built from torch.nn.Transformer (which adds a final layer norm
to each stack), trained on batches of the same shape with AdamW, dropout 0.1
and label smoothing 0.1.
    nmt_torch_train.py ARCH B T VOCAB STEPS THREADS
Prints target tokens per second of the training loop, and the BLAS in use
(torch's build BLAS_INFO, and the libblas that the process mapped) to stderr.
"""
import math
import sys
import time

import torch
import torch.nn.functional as F

PRESETS = {"base": (512, 8, 2048, 6, 6), "small": (256, 4, 1024, 3, 3), "tiny": (128, 4, 512, 2, 2)}


def blas_in_use():
    libs = set()
    with open("/proc/self/maps") as f:
        for line in f:
            if "blas" in line:
                libs.add(line.split()[-1])
    return ", ".join(sorted(libs)) or "none mapped"


def main():
    arch, B, T, V, steps, threads = sys.argv[1], *map(int, sys.argv[2:])
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    C, H, Fd, E, D = PRESETS[arch]
    model = torch.nn.Transformer(d_model=C, nhead=H, num_encoder_layers=E, num_decoder_layers=D,
                                 dim_feedforward=Fd, dropout=0.1, batch_first=True)
    emb = torch.nn.Embedding(V, C)
    out_b = torch.nn.Parameter(torch.zeros(V))
    pe = torch.zeros(T, C)
    for t in range(T):
        for i in range(C // 2):
            a = t / math.pow(10000.0, 2.0 * i / C)
            pe[t, i], pe[t, C // 2 + i] = math.sin(a), math.cos(a)
    params = list(model.parameters()) + list(emb.parameters()) + [out_b]
    opt = torch.optim.AdamW(params, lr=5e-4, betas=(0.9, 0.98), eps=1e-9, weight_decay=0.0)
    causal = model.generate_square_subsequent_mask(T)
    g = torch.Generator().manual_seed(1)
    src = torch.randint(4, V, (B, T), generator=g)
    trg = torch.randint(4, V, (B, T + 1), generator=g)
    t0 = time.perf_counter()
    for _ in range(steps):
        x = emb(src) * math.sqrt(C) + pe
        y = emb(trg[:, :-1]) * math.sqrt(C) + pe
        h = model(x, y, tgt_mask=causal)
        logits = F.linear(h, emb.weight, out_b)
        loss = F.cross_entropy(logits.reshape(-1, V), trg[:, 1:].reshape(-1), label_smoothing=0.1)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
    s = time.perf_counter() - t0
    print(f"{steps * B * T / s:.1f} target tokens/s ({steps} steps of {B} x {T}, {s:.2f} s)")
    cfg = torch.__config__.show()
    blas_info = cfg.split("BLAS_INFO=")[1].split(",")[0] if "BLAS_INFO=" in cfg else "?"
    print(f"torch {torch.__version__}, BLAS_INFO={blas_info}, threads {torch.get_num_threads()}; "
          f"BLAS mapped: {blas_in_use()}", file=sys.stderr)


if __name__ == "__main__":
    main()
