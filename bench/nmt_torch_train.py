#!/usr/bin/python3
"""The PyTorch baseline of bench/bench-nmt.sh: the same encoder-decoder as
pc-nmt's presets (post-norm, ReLU, sinusoidal positions, embeddings scaled by
sqrt(dim), one embedding matrix shared by source, target and output, plus an
output bias, no final layer norm on either stack), built from torch.nn's
Transformer layers and trained on batches of the same shape with AdamW,
label smoothing 0.1 and gradient clipping at 1. Dropout 0.1 where pc-nmt
(and Marian's transformer-dropout) puts it: on the embeddings and on every
sublayer's output; none on the attention weights or the FFN's hidden layer,
which torch.nn's layers would add.
    nmt_torch_train.py ARCH B T VOCAB STEPS THREADS [WARMUP]
ARCH: tiny, small, base, or DIM/HEADS/FFN/LAYERS as bench_nmt_train takes it.
Times only the STEPS steps after WARMUP untimed ones (default 2), inside the
loop (no interpreter start, import or model construction), and prints
    <target tokens/s> target tokens/s (STEPS steps of B x T after WARMUP, S s, CPU C s)
to stdout, and the BLAS in use (torch's build BLAS_INFO, the libblas that the
process mapped, OpenBLAS's own thread count and kernel) to stderr.
"""
import ctypes
import math
import sys
import time

import torch
import torch.nn.functional as F

PRESETS = {"base": (512, 8, 2048, 6), "small": (256, 4, 1024, 3), "tiny": (128, 4, 512, 2)}


def arch_config(arch):
    if arch in PRESETS:
        return PRESETS[arch]
    return tuple(int(x) for x in arch.split("/"))


def blas_in_use():
    libs = set()
    with open("/proc/self/maps") as f:
        for line in f:
            if "blas" in line:
                libs.add(line.split()[-1])
    info = ", ".join(sorted(libs)) or "none mapped"
    for lib in sorted(libs):
        if "libopenblas" in lib:
            ob = ctypes.CDLL(lib)
            ob.openblas_get_corename.restype = ctypes.c_char_p
            info += f"; OpenBLAS kernel {ob.openblas_get_corename().decode()}, {ob.openblas_get_num_threads()} threads"
    return info


def main():
    if len(sys.argv) not in (7, 8):
        sys.exit("usage: nmt_torch_train.py ARCH B T VOCAB STEPS THREADS [WARMUP]")
    arch = sys.argv[1]
    B, T, V, steps, threads = map(int, sys.argv[2:7])
    warmup = int(sys.argv[7]) if len(sys.argv) > 7 else 2
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    C, H, Fd, L = arch_config(arch)
    enc_layer = torch.nn.TransformerEncoderLayer(C, H, Fd, dropout=0.1, batch_first=True)
    dec_layer = torch.nn.TransformerDecoderLayer(C, H, Fd, dropout=0.1, batch_first=True)
    for layer in (enc_layer, dec_layer):  # copied into every layer of the stacks below
        layer.dropout = torch.nn.Identity()  # the FFN's hidden layer
        layer.self_attn.dropout = 0.0        # the attention weights
    dec_layer.multihead_attn.dropout = 0.0
    model = torch.nn.Transformer(d_model=C, nhead=H, dim_feedforward=Fd, dropout=0.1, batch_first=True,
                                 custom_encoder=torch.nn.TransformerEncoder(enc_layer, L, norm=None),
                                 custom_decoder=torch.nn.TransformerDecoder(dec_layer, L, norm=None))
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
    c0 = time.process_time()
    for step in range(warmup + steps):
        if step == warmup:
            t0 = time.perf_counter()
            c0 = time.process_time()
        x = F.dropout(emb(src) * math.sqrt(C) + pe, 0.1)
        y = F.dropout(emb(trg[:, :-1]) * math.sqrt(C) + pe, 0.1)
        h = model(x, y, tgt_mask=causal)
        logits = F.linear(h, emb.weight, out_b)
        loss = F.cross_entropy(logits.reshape(-1, V), trg[:, 1:].reshape(-1), label_smoothing=0.1)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
    s = time.perf_counter() - t0
    cpu = time.process_time() - c0
    print(f"{steps * B * T / s:.1f} target tokens/s ({steps} steps of {B} x {T} after {warmup}, {s:.2f} s, CPU {cpu:.2f} s)")
    cfg = torch.__config__.show()
    blas_info = cfg.split("BLAS_INFO=")[1].split(",")[0] if "BLAS_INFO=" in cfg else "?"
    print(f"torch {torch.__version__}, BLAS_INFO={blas_info}, threads {torch.get_num_threads()}; "
          f"BLAS mapped: {blas_in_use()}", file=sys.stderr)


if __name__ == "__main__":
    main()
