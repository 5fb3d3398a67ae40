#!/usr/bin/python3
"""The PyTorch baseline of bench/nmt-decode-throughput.sh: a pc-nmt model file
(.safetensors) loaded into plain PyTorch tensors and decoded the way pc-nmt
translate decodes it (mt/decode/greedy.cpp, mt/decode/beam.cpp), so both sides
do the same work on the same token ids:
  - sources sorted by length (stable), cut into batches of BATCH sentences;
  - the encoder once per batch; the cross-attention keys and values once per
    batch; a self-attention KV cache (greedy: preallocated and written in
    place; beam: grown and reordered by index_select, as Hugging Face and
    fairseq do);
  - greedy: a sentence that finishes (EOS, or the length limit
    min(max_len, ceil(2 * source tokens) + 10)) leaves the batch, its rows
    dropped from the caches by index_select; beam: one row per live beam
    (the first pass one per sentence; a sentence whose beams have all
    finished, and a beam narrowed by a finished hypothesis, leave the batch,
    as in pc-nmt and fairseq), the self-attention cache reordered by
    index_select every step, the cross-attention keys and values gathered
    per row when the rows' sentences change;
  - greedy: the arg-max (ties to the lower id); beam K: the K best
    continuations of a sentence by log-probability survive, a
    candidate ending in EOS finishes and narrows its sentence's beam by one,
    hypotheses ranked by log P / ((5 + |Y|) / 6)^0.6 (GNMT, pc-nmt's default).
    nmt_torch_decode.py MODEL IDS MODE BATCH THREADS REPS OUT
IDS: one sentence a line, its source token ids (no EOS), as bench_nmt_decode
writes them. MODE: greedy or beamK (beam4). Decodes the last (longest) two batches once
untimed (warm-up), then all sentences REPS times, timing only the decoding
loop (no interpreter start, import, model load or tokenisation), and prints
    rep R: <target tokens/s> target tokens/s (S s, CPU C s, T tokens)
per repetition, where a sentence's tokens are those of its output plus EOS
(pc-nmt's --stats count). OUT gets the last repetition's output ids, one line
a sentence in input order. The BLAS in use goes to stderr.
"""
import json
import math
import struct
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

from nmt_torch_train import blas_in_use


def load_model(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    cfg = json.loads(header["__metadata__"]["config"])
    P = {}
    for name, t in header.items():
        if name == "__metadata__" or t["dtype"] != "F32":
            continue
        a, b = t["data_offsets"]
        P[name] = torch.from_numpy(np.frombuffer(data, dtype="<f4", count=(b - a) // 4, offset=a).copy()
                                   .reshape(t["shape"]))
    return cfg, P


def positions(T, C, marian):
    t = torch.arange(T, dtype=torch.float64)[:, None]
    i = torch.arange(C // 2, dtype=torch.float64)[None, :]
    freq = torch.exp(-i * math.log(10000.0) / (C // 2 - 1)) if marian else 1.0 / torch.pow(10000.0, 2.0 * i / C)
    return torch.cat([torch.sin(t * freq), torch.cos(t * freq)], 1).float()


class Model:
    def __init__(self, cfg, P):
        self.cfg, self.P = cfg, P
        self.C, self.H = cfg["dim"], cfg["heads"]
        self.D = self.C // self.H
        self.pre = cfg["norm"] == "pre"
        self.act = {"relu": F.relu, "swish": F.silu, "gelu": F.gelu}[cfg["activation"]]
        shared = cfg["shared_embeddings"]
        self.src_emb = P["emb.shared"] if shared else P["emb.src"]
        self.trg_emb = P["emb.shared"] if shared else P["emb.trg"]
        self.out_w = self.trg_emb if cfg["tied_output"] else P["out.w"]
        self.pe = positions(cfg["max_len"] + 1, self.C, cfg.get("positions") == "marian")
        self.scale = math.sqrt(self.C)

    def ln(self, x, p):
        return F.layer_norm(x, (self.C,), self.P[p + ".g"], self.P[p + ".b"], self.cfg["ln_eps"])

    def lin(self, x, p, w):
        return F.linear(x, self.P[f"{p}.w{w}"], self.P[f"{p}.b{w}"])

    def heads(self, x):  # [B, T, C] -> [B, H, T, D]
        return x.view(x.shape[0], -1, self.H, self.D).transpose(1, 2)

    def attend(self, q, k, v, mask):
        s = q @ k.transpose(-1, -2) / math.sqrt(self.D)
        if mask is not None:
            s = s.masked_fill(mask, float("-inf"))
        ctx = torch.softmax(s, -1) @ v
        return ctx.transpose(1, 2).reshape(q.shape[0], -1, self.C)

    def block(self, x, fn, p):
        return x + fn(self.ln(x, p)) if self.pre else self.ln(x + fn(x), p)

    def ffn(self, x, p):
        return self.lin(self.act(self.lin(x, p, 1)), p, 2)

    def encode(self, src, mask):
        """src [B, S] with EOS and padding; mask [B, 1, 1, S] True at padding."""
        h = self.src_emb[src] * self.scale + self.pe[: src.shape[1]]
        for l in range(self.cfg["enc_layers"]):
            p = f"enc.{l}.self"
            h = self.block(h, lambda x: self.lin(self.attend(self.heads(self.lin(x, p, "q")),
                                                             self.heads(self.lin(x, p, "k")),
                                                             self.heads(self.lin(x, p, "v")), mask), p, "o"),
                           f"enc.{l}.self_ln")
            h = self.block(h, lambda x: self.ffn(x, f"enc.{l}.ffn"), f"enc.{l}.ffn_ln")
        return self.ln(h, "enc.final_ln") if self.pre else h

    def cross_kv(self, enc):
        return [(self.heads(self.lin(enc, f"dec.{l}.cross", "k")), self.heads(self.lin(enc, f"dec.{l}.cross", "v")))
                for l in range(self.cfg["dec_layers"])]

    def step(self, tok, t, self_kv, cross, mask, grow):
        """One decoder position for every row: tok [R] -> logits [R, V]. self_kv[l] is (k, v); with `grow`
        they are concatenated with this position's, else written in place at position t."""
        y = (self.trg_emb[tok] * self.scale + self.pe[t])[:, None, :]
        for l in range(self.cfg["dec_layers"]):
            p = f"dec.{l}.self"

            def self_attn(x):
                k, v = self.heads(self.lin(x, p, "k")), self.heads(self.lin(x, p, "v"))
                if grow:
                    ck, cv = self_kv[l]
                    ck, cv = (k, v) if ck is None else (torch.cat([ck, k], 2), torch.cat([cv, v], 2))
                    self_kv[l] = (ck, cv)
                else:
                    ck, cv = self_kv[l]
                    ck[:, :, t : t + 1] = k
                    cv[:, :, t : t + 1] = v
                    ck, cv = ck[:, :, : t + 1], cv[:, :, : t + 1]
                return self.lin(self.attend(self.heads(self.lin(x, p, "q")), ck, cv, None), p, "o")

            y = self.block(y, self_attn, f"dec.{l}.self_ln")
            ck, cv = cross[l]
            y = self.block(y, lambda x: self.lin(self.attend(self.heads(self.lin(x, f"dec.{l}.cross", "q")), ck, cv,
                                                             mask), f"dec.{l}.cross", "o"), f"dec.{l}.cross_ln")
            y = self.block(y, lambda x: self.ffn(x, f"dec.{l}.ffn"), f"dec.{l}.ffn_ln")
        if self.pre:
            y = self.ln(y, "dec.final_ln")
        return F.linear(y[:, 0], self.out_w, self.P["out.b"])


def make_batch(cfg, srcs):
    S = max(len(s) for s in srcs) + 1
    src = torch.full((len(srcs), S), cfg["pad_id"], dtype=torch.int64)
    for b, s in enumerate(srcs):
        src[b, : len(s)] = torch.tensor(s, dtype=torch.int64)
        src[b, len(s)] = cfg["eos_id"]
    lens = [len(s) + 1 for s in srcs]
    mask = (torch.arange(S)[None, :] >= torch.tensor(lens)[:, None])[:, None, None, :]
    limits = [min(cfg["max_len"], math.ceil(2.0 * n) + 10) for n in lens]
    return src, mask, limits


def greedy_batch(m, srcs):
    cfg = m.cfg
    src, mask, limits = make_batch(cfg, srcs)
    B, tmax = len(srcs), max(limits)
    cross = m.cross_kv(m.encode(src, mask))
    self_kv = [(torch.empty(B, m.H, tmax, m.D), torch.empty(B, m.H, tmax, m.D)) for _ in range(cfg["dec_layers"])]
    tok = torch.full((B,), cfg["bos_id"], dtype=torch.int64)
    out = [[] for _ in range(B)]
    row_of = list(range(B))  # row r decodes sentence row_of[r]; finished sentences leave the batch
    ntok = 0
    for t in range(tmax):
        if not row_of:
            break
        best = torch.argmax(m.step(tok, t, self_kv, cross, mask, False), 1).tolist()  # the first maximum
        keep = []
        for r, (b, x) in enumerate(zip(row_of, best)):
            ntok += 1
            if x == cfg["eos_id"] or t + 1 >= limits[b]:
                if x != cfg["eos_id"]:
                    out[b].append(x)
            else:
                out[b].append(x)
                keep.append(r)
        if len(keep) < len(row_of):
            sel = torch.tensor(keep, dtype=torch.int64)
            self_kv = [(k.index_select(0, sel), v.index_select(0, sel)) for k, v in self_kv]
            cross = [(k.index_select(0, sel), v.index_select(0, sel)) for k, v in cross]
            mask = mask.index_select(0, sel)
        row_of = [row_of[r] for r in keep]
        tok = torch.tensor([best[r] for r in keep], dtype=torch.int64)
    return out, ntok


def beam_batch(m, srcs, K, alpha=0.6):
    cfg = m.cfg
    eos = cfg["eos_id"]
    src, mask, limits = make_batch(cfg, srcs)
    B, tmax, V = len(srcs), max(limits), cfg["trg_vocab"]
    cross_all = m.cross_kv(m.encode(src, mask))
    mask_all = mask
    self_kv = [(None, None)] * cfg["dec_layers"]
    live = [[((), 0.0)] for _ in range(B)]  # per sentence: (tokens, log P) of each live beam, in row order
    width = [K] * B
    done = [[] for _ in range(B)]
    # One row per live beam, sentence by sentence (as pc-nmt and fairseq: finished sentences and beams narrowed
    # by a finished hypothesis leave the batch); the cross-attention keys and values are gathered per row, again
    # only when the rows' sentences change.
    sent_of = list(range(B))
    cross, mask, cross_for = None, None, None
    tok = torch.full((B,), cfg["bos_id"], dtype=torch.int64)
    for t in range(tmax):
        if not sent_of:
            break
        if sent_of != cross_for:
            idx_rows = torch.tensor(sent_of, dtype=torch.int64)
            cross = [(k.index_select(0, idx_rows), v.index_select(0, idx_rows)) for k, v in cross_all]
            mask = mask_all.index_select(0, idx_rows)
            cross_for = list(sent_of)
        logp = torch.log_softmax(m.step(tok, t, self_kv, cross, mask, True).double(), 1)
        live_b = [b for b in range(B) if live[b]]
        first, slot, jj, base = {}, [], [], []
        for si, b in enumerate(live_b):
            first[b] = len(slot)
            for j, (_, lp) in enumerate(live[b]):
                slot.append(si)
                jj.append(j)
                base.append(lp)
        scores = torch.full((len(live_b), K, V), float("-inf"), dtype=torch.float64)
        scores[slot, jj] = logp + torch.tensor(base, dtype=torch.float64)[:, None]
        val, idx = torch.topk(scores.view(len(live_b), K * V), K, 1)  # ties: the order is not pc-nmt's
        val, idx = val.tolist(), idx.tolist()
        rows, nxt, new_sent = [], [], []
        for si, b in enumerate(live_b):
            grown = []
            for c in range(width[b]):
                j, token = divmod(idx[si][c], V)
                tokens, lp = live[b][j][0] + (token,), val[si][c]
                length = len(tokens)
                if token == eos:
                    done[b].append((tokens[:-1], lp / ((5.0 + length) / 6.0) ** alpha, True))
                    width[b] -= 1
                elif t + 1 >= limits[b]:
                    done[b].append((tokens, lp / ((5.0 + length) / 6.0) ** alpha, False))
                else:
                    rows.append(first[b] + j)
                    nxt.append(token)
                    new_sent.append(b)
                    grown.append((tokens, lp))
            live[b] = grown
        sel = torch.tensor(rows, dtype=torch.int64)
        self_kv = [(k.index_select(0, sel), v.index_select(0, sel)) for k, v in self_kv]
        tok = torch.tensor(nxt, dtype=torch.int64)
        sent_of = new_sent
    out, ntok = [], 0
    for b in range(B):
        tokens, _, ended = max(done[b], key=lambda h: h[1])  # the first of equal scores, as a stable sort
        out.append(list(tokens))
        ntok += len(tokens) + (1 if ended else 0)
    return out, ntok


def main():
    if len(sys.argv) != 8:
        sys.exit("usage: nmt_torch_decode.py MODEL IDS MODE BATCH THREADS REPS OUT")
    model, ids, mode, batch, threads, reps, out_path = sys.argv[1:]
    batch, threads, reps = int(batch), int(threads), int(reps)
    if mode != "greedy" and not (mode.startswith("beam") and mode[4:].isdigit()):
        sys.exit(f"mode {mode!r}: give greedy or beamK")
    torch.set_num_threads(threads)
    cfg, P = load_model(model)
    m = Model(cfg, P)
    with open(ids) as f:
        srcs = [[int(x) for x in line.split()] for line in f]
    order = sorted(range(len(srcs)), key=lambda i: len(srcs[i]))
    batches = [order[i : i + batch] for i in range(0, len(order), batch)]
    decode = greedy_batch if mode == "greedy" else (lambda m_, s: beam_batch(m_, s, int(mode[4:])))
    outs = [None] * len(srcs)
    with torch.inference_mode():
        for bt in batches[-2:]:  # warm-up: the longest two batches, as pc-nmt's bench
            decode(m, [srcs[i] for i in bt])
        for r in range(reps):
            t0, c0, ntok = time.perf_counter(), time.process_time(), 0
            for bt in batches:
                o, n = decode(m, [srcs[i] for i in bt])
                ntok += n
                for i, seq in zip(bt, o):
                    outs[i] = seq
            s, cpu = time.perf_counter() - t0, time.process_time() - c0
            print(f"rep {r}: {ntok / s:.1f} target tokens/s ({s:.3f} s, CPU {cpu:.3f} s, {ntok} tokens)", flush=True)
    with open(out_path, "w") as f:
        for seq in outs:
            f.write(" ".join(map(str, seq)) + "\n")
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}; BLAS mapped: {blas_in_use()}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
