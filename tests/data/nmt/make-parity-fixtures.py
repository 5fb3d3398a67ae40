#!/usr/bin/python3
"""PyTorch reference for the pc-nmt engine.

Builds the same tiny encoder-decoder as mt/model/transformer.cpp in plain
PyTorch (Debian's python3-torch), with random weights, and writes one
.safetensors fixture per variant that holds:
  - the model itself (__metadata__ format/version/config, weights in the
    engine's layout order), so mt::ModelFile loads it as any model;
  - the batch: batch.src [B,S], batch.trg_in / batch.trg_out [B,U] (I32);
  - expect.logits [B*U,V] and expect.loss [1] (label smoothing 0.1, mean over
    target tokens, as torch.nn.functional.cross_entropy);
  - grad.NAME: the gradient of every weight (key biases: see below);
  - after.NAME: every weight after one torch.optim.AdamW step.
tests/mt/test_nmt_parity.cpp checks the engine against these to 1e-4. The
fixtures are committed, so the tests need no torch. Regenerate with
    /usr/bin/python3 tests/data/nmt/make-parity-fixtures.py tests/data/nmt
"""
import json
import math
import struct
import sys

import numpy as np
import torch
import torch.nn.functional as F

ADAMW = {"lr": 1e-3, "beta1": 0.9, "beta2": 0.98, "eps": 1e-9, "weight_decay": 0.01, "label_smoothing": 0.1}


def layout(cfg):
    """(name, shape) in the order of make_layout(); tied/shared tensors once."""
    C, F_ = cfg["dim"], cfg["ffn_dim"]
    out = []
    if cfg["shared_embeddings"]:
        out.append(("emb.shared", [cfg["src_vocab"], C]))
    else:
        out += [("emb.src", [cfg["src_vocab"], C]), ("emb.trg", [cfg["trg_vocab"], C])]

    def attn(p):
        for w in ("q", "k", "v", "o"):
            out.extend([(f"{p}.w{w}", [C, C]), (f"{p}.b{w}", [C])])

    def norm(p):
        out.extend([(f"{p}.g", [C]), (f"{p}.b", [C])])

    def ffn(p):
        out.extend([(f"{p}.w1", [F_, C]), (f"{p}.b1", [F_]), (f"{p}.w2", [C, F_]), (f"{p}.b2", [C])])

    for l in range(cfg["enc_layers"]):
        attn(f"enc.{l}.self"), norm(f"enc.{l}.self_ln"), ffn(f"enc.{l}.ffn"), norm(f"enc.{l}.ffn_ln")
    for l in range(cfg["dec_layers"]):
        attn(f"dec.{l}.self"), norm(f"dec.{l}.self_ln"), attn(f"dec.{l}.cross"), norm(f"dec.{l}.cross_ln")
        ffn(f"dec.{l}.ffn"), norm(f"dec.{l}.ffn_ln")
    if cfg["norm"] == "pre":
        norm("enc.final_ln"), norm("dec.final_ln")
    if not cfg["tied_output"]:
        out.append(("out.w", [cfg["trg_vocab"], C]))
    out.append(("out.b", [cfg["trg_vocab"]]))
    return out


def positions(T, C):
    pe = torch.zeros(T, C, dtype=torch.float64)
    for t in range(T):
        for i in range(C // 2):
            a = t / math.pow(10000.0, 2.0 * i / C)
            pe[t, i] = math.sin(a)
            pe[t, C // 2 + i] = math.cos(a)
    return pe.float()


def act(cfg, x):
    return {"relu": F.relu, "swish": F.silu, "gelu": F.gelu}[cfg["activation"]](x)


def forward(cfg, P, src, src_len, trg_in, trg_len):
    C, H = cfg["dim"], cfg["heads"]
    D = C // H
    eps = cfg["ln_eps"]
    pre = cfg["norm"] == "pre"
    src_emb = P["emb.shared"] if cfg["shared_embeddings"] else P["emb.src"]
    trg_emb = P["emb.shared"] if cfg["shared_embeddings"] else P["emb.trg"]
    out_w = trg_emb if cfg["tied_output"] else P["out.w"]

    def ln(x, p):
        return F.layer_norm(x, (C,), P[p + ".g"], P[p + ".b"], eps)

    def mha(p, q_in, kv_in, key_len, causal):
        B, Tq, _ = q_in.shape
        Tk = kv_in.shape[1]
        q = F.linear(q_in, P[p + ".wq"], P[p + ".bq"]).view(B, Tq, H, D).transpose(1, 2)
        k = F.linear(kv_in, P[p + ".wk"], P[p + ".bk"]).view(B, Tk, H, D).transpose(1, 2)
        v = F.linear(kv_in, P[p + ".wv"], P[p + ".bv"]).view(B, Tk, H, D).transpose(1, 2)
        s = q @ k.transpose(-1, -2) / math.sqrt(D)
        mask = torch.arange(Tk)[None, :] >= key_len[:, None]  # [B,Tk]
        mask = mask[:, None, None, :].expand(B, H, Tq, Tk)
        if causal:
            mask = mask | (torch.arange(Tk)[None, :] > torch.arange(Tq)[:, None])[None, None]
        s = s.masked_fill(mask, float("-inf"))
        ctx = (torch.softmax(s, -1) @ v).transpose(1, 2).reshape(B, Tq, C)
        return F.linear(ctx, P[p + ".wo"], P[p + ".bo"])

    def block(x, fn, p):
        return x + fn(ln(x, p)) if pre else ln(x + fn(x), p)

    def ffn(x, p):
        return F.linear(act(cfg, F.linear(x, P[p + ".w1"], P[p + ".b1"])), P[p + ".w2"], P[p + ".b2"])

    S, U = src.shape[1], trg_in.shape[1]
    h = src_emb[src] * math.sqrt(C) + positions(S, C)
    for l in range(cfg["enc_layers"]):
        h = block(h, lambda x: mha(f"enc.{l}.self", x, x, src_len, False), f"enc.{l}.self_ln")
        h = block(h, lambda x: ffn(x, f"enc.{l}.ffn"), f"enc.{l}.ffn_ln")
    enc = ln(h, "enc.final_ln") if pre else h
    y = trg_emb[trg_in] * math.sqrt(C) + positions(U, C)
    for l in range(cfg["dec_layers"]):
        y = block(y, lambda x: mha(f"dec.{l}.self", x, x, trg_len, True), f"dec.{l}.self_ln")
        y = block(y, lambda x: mha(f"dec.{l}.cross", x, enc, src_len, False), f"dec.{l}.cross_ln")
        y = block(y, lambda x: ffn(x, f"dec.{l}.ffn"), f"dec.{l}.ffn_ln")
    if pre:
        y = ln(y, "dec.final_ln")
    return F.linear(y, out_w, P["out.b"])


def make_batch(cfg, srcs, trgs):
    B = len(srcs)
    S = max(len(s) for s in srcs) + 1
    U = max(len(t) for t in trgs) + 1
    src = torch.full((B, S), cfg["pad_id"], dtype=torch.int64)
    trg_in = torch.full((B, U), cfg["pad_id"], dtype=torch.int64)
    trg_out = torch.full((B, U), -1, dtype=torch.int64)
    for b, (s, t) in enumerate(zip(srcs, trgs)):
        src[b, : len(s)] = torch.tensor(s)
        src[b, len(s)] = cfg["eos_id"]
        trg_in[b, 0] = cfg["bos_id"]
        trg_in[b, 1 : len(t) + 1] = torch.tensor(t)
        trg_out[b, : len(t)] = torch.tensor(t)
        trg_out[b, len(t)] = cfg["eos_id"]
    src_len = torch.tensor([len(s) + 1 for s in srcs])
    trg_len = torch.tensor([len(t) + 1 for t in trgs])
    return src, src_len, trg_in, trg_out, trg_len


def write_safetensors(path, meta, tensors):
    header = {"__metadata__": meta}
    blobs, off = [], 0
    for name, arr in tensors:
        dtype = {np.float32: "F32", np.int32: "I32"}[arr.dtype.type]
        b = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes()
        header[name] = {"dtype": dtype, "shape": list(arr.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - (8 + len(h)) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def fixture(path, cfg, seed):
    torch.manual_seed(seed)
    P = {}
    for name, shape in layout(cfg):
        if name.endswith(".g"):
            t = 1 + 0.1 * torch.randn(shape)
        elif len(shape) == 2:
            t = torch.randn(shape) * (1.0 / math.sqrt(shape[1]))
        else:
            t = 0.1 * torch.randn(shape)
        P[name] = t.float().requires_grad_(True)
    names = [n for n, _ in layout(cfg)]
    before = {n: P[n].detach().clone() for n in names}
    srcs = [[5, 6, 7, 8, 9], [10, 6], [7, 7, 11]]
    trgs = [[9, 8, 7], [6, 5, 12, 10, 11], [12]]
    src, src_len, trg_in, trg_out, trg_len = make_batch(cfg, srcs, trgs)
    logits = forward(cfg, P, src, src_len, trg_in, trg_len)
    V = cfg["trg_vocab"]
    loss = F.cross_entropy(logits.reshape(-1, V), trg_out.reshape(-1), ignore_index=-1,
                           label_smoothing=ADAMW["label_smoothing"])
    loss.backward()
    grads = {n: P[n].grad.detach().clone() for n in names}
    for n in names:
        if n.endswith(".bk"):
            # The exact gradient of a key bias is zero (softmax ignores a
            # constant per row); PyTorch's ~1e-9 rounding noise there would
            # make Adam's first step move it by ~lr. The engine writes 0.
            P[n].grad.zero_()
    opt = torch.optim.AdamW([P[n] for n in names], lr=ADAMW["lr"], betas=(ADAMW["beta1"], ADAMW["beta2"]),
                            eps=ADAMW["eps"], weight_decay=ADAMW["weight_decay"])
    opt.step()
    meta = {"format": "paracorp.nmt", "version": "1", "config": json.dumps(cfg),
            "parity": json.dumps(ADAMW), "torch": torch.__version__}
    tensors = [(n, before[n].numpy()) for n in names]
    tensors += [("batch.src", src.int().numpy()), ("batch.trg_in", trg_in.int().numpy()),
                ("batch.trg_out", trg_out.int().numpy()),
                ("expect.logits", logits.detach().reshape(-1, V).numpy()),
                ("expect.loss", np.array([loss.item()], dtype=np.float32))]
    tensors += [("grad." + n, grads[n].numpy()) for n in names]
    tensors += [("after." + n, P[n].detach().numpy()) for n in names]
    write_safetensors(path, meta, tensors)
    print(f"{path}: loss {loss.item():.6f}, {sum(P[n].numel() for n in names)} parameters")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    base = {"src_vocab": 17, "trg_vocab": 17, "shared_embeddings": True, "tied_output": True, "dim": 16,
            "heads": 4, "ffn_dim": 24, "enc_layers": 2, "dec_layers": 2, "activation": "relu", "norm": "post",
            "ln_eps": 1e-6, "max_len": 32, "pad_id": 0, "unk_id": 1, "bos_id": 2, "eos_id": 3, "preset": ""}
    fixture(f"{out}/parity-post-relu.safetensors", base, 1)
    pre = dict(base, src_vocab=15, trg_vocab=19, shared_embeddings=False, tied_output=False, activation="gelu",
               norm="pre", ln_eps=1e-5)
    fixture(f"{out}/parity-pre-gelu.safetensors", pre, 2)
    swish = dict(base, tied_output=True, activation="swish", norm="pre", enc_layers=1, dec_layers=3)
    fixture(f"{out}/parity-pre-swish.safetensors", swish, 3)


if __name__ == "__main__":
    main()
