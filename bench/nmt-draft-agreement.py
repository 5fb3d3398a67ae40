#!/usr/bin/python3
"""What a draft model would give speculative decoding with greedy verification (issue 16), counted, not timed:
for each source the TARGET model's greedy output y (PyTorch, as nmt_torch_decode.py decodes); from each accepted
prefix the DRAFT model (same SentencePiece model and ids) drafts G tokens greedily; the target's pass accepts the
longest prefix of the draft equal to y plus one token of its own, so the output is y. Prints the draft's
teacher-forced next-token agreement with y and tokens per target pass for G = 1..4. The speed-up follows as
tokens per pass / (G * draft token cost + cost of a (G+1)-row target pass), both relative to a target greedy token.
    nmt-draft-agreement.py TARGET DRAFT IDS
IDS: source token ids a line (no EOS), as bench_nmt_decode writes them. Outputs are cut at 60 tokens."""
import sys

import torch

from nmt_torch_decode import Model, load_model, make_batch


def run(m, src, inputs, extra):
    """Feeds inputs (BOS first) one position at a time, then `extra` greedy tokens; returns the argmax after each
    input and each extra token."""
    s, mask, _ = make_batch(m.cfg, [src])
    cross = m.cross_kv(m.encode(s, mask))
    kv = [(None, None) for _ in range(m.cfg["dec_layers"])]
    outs = []
    t = 0
    for x in inputs:
        outs.append(int(torch.argmax(m.step(torch.tensor([x]), t, kv, cross, mask, True), 1)[0]))
        t += 1
    for _ in range(extra):
        x = outs[-1]
        outs.append(int(torch.argmax(m.step(torch.tensor([x]), t, kv, cross, mask, True), 1)[0]))
        t += 1
    return outs

def main():
    target, draft, ids = sys.argv[1:4]
    torch.set_num_threads(1)
    T = Model(*load_model(target)); D = Model(*load_model(draft))
    bos, eos = T.cfg["bos_id"], T.cfg["eos_id"]
    srcs = [[int(x) for x in l.split()] for l in open(ids)]
    agree = total = 0
    passes = {g: 0 for g in range(1, 5)}
    ntok = 0
    with torch.inference_mode():
        for src in srcs:
            y = run(T, src, [bos], 60)
            y = y[: y.index(eos) + 1] if eos in y else y
            ntok += len(y)
            forced = run(D, src, [bos] + y[:-1], 0)
            agree += sum(a == b for a, b in zip(forced, y)); total += len(y)
            for g in passes:
                i = 0
                while i < len(y):
                    d = run(D, src, [bos] + y[:i], g - 1)[i:]  # the draft's G tokens after prefix y[:i]
                    a = 0
                    while a < g and i + a < len(y) and d[a] == y[i + a]:
                        a += 1
                    i += min(a + 1, len(y) - i)
                    passes[g] += 1
    print(f"sentences {len(srcs)}, target tokens {ntok}, teacher-forced agreement {agree / total:.3f}")
    for g, p in passes.items():
        print(f"G={g}: tokens per target pass {ntok / p:.3f}")

main()
