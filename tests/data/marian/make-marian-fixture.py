#!/usr/bin/python3
"""Makes the tiny OPUS-MT/Marian model folder of the pc-nmt import-marian tests.

  model.npz      random weights under Marian's transformer names (d=16, 2 heads,
                 FFN 32 with swish, 1+1 layers, tied-embeddings-all), with the
                 YAML config as the int8 array special:model.yml, as Marian saves
  source.spm, target.spm  the SentencePiece model of tests/data/embed/spm
                 (OPUS-MT's id layout: <unk> 0, <s> 1, </s> 2, no pad)
  vocab.yml      Marian's vocabulary: </s> 0, <unk> 1, then the pieces in a
                 shuffled order, three of them left out
  ../../fuzz/corpus/npz/  small .npz files written by numpy (stored,
                 deflated, empty, a Marian config alone): the seeds of fuzz_npz
                 and the reader's unit tests (tests/libcorpus/core/test_npz.cpp)
  untied/model.npz, untied/expected.json  the same with separate
                 embeddings, an output matrix and ReLU
  expected.json  per sentence: the source SentencePiece ids, Marian's greedy
                 output as target SentencePiece ids, and the first logits rows
                 (indexed by target SentencePiece id; null where Marian has no
                 entry), from the NumPy forward below, written from Marian's
                 definitions (transformer.h) and nothing in mt/.
Run from anywhere: /usr/bin/python3 tests/data/marian/make-marian-fixture.py
"""
import importlib.util
import json
import math
import os
import shutil

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
D, HEADS, FFN, VOCAB_LEFT_OUT = 16, 2, 32, 3
LOGIT_ROWS = 3
# (folder, tied-embeddings-all, activation): model.npz here is OPUS-MT's
# usual form; untied/model.npz has encoder_Wemb, decoder_Wemb and
# decoder_ff_logit_out_W (its vocabulary and SentencePiece files are these).
VARIANTS = [(".", True, "swish"), ("untied", False, "relu")]
SENTENCES = [
    "hello world", "the quick brown fox", "jumps over the lazy dog", "cafe deja vu",
    "die strasse bitte", "do not stop", "Hello, World!", "a word and a word",
    "two spaces and a tab", "北京欢迎你 uber alles",
]

# The SentencePiece reader and segmenter of the embed fixture (the Python
# module is not in Debian): the same bytes segment the same way here.
_spec = importlib.util.spec_from_file_location(
    "bert_fixtures", os.path.join(HERE, "..", "embed", "make-bert-fixtures.py"))
_bert = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bert)

MODEL_YML = """\
type: transformer
dim-emb: {d}
dim-vocabs:
  - {v}
  - {v}
enc-depth: 1
dec-depth: 1
transformer-heads: {h}
transformer-dim-ffn: {f}
transformer-ffn-depth: 2
transformer-ffn-activation: swish
transformer-preprocess: ""
transformer-postprocess: dan
transformer-postprocess-emb: d
transformer-decoder-autoreg: self-attention
transformer-train-position-embeddings: false
transformer-tied-layers:
  []
tied-embeddings: false
tied-embeddings-all: true
tied-embeddings-src: false
right-left: false
output-omit-bias: false
"""


def positions(n, d, start=0):
    # Marian's sinusoidalPositionEmbeddings: sin in the first half, cos in the
    # second, timescales exp(-i * ln(10000) / (d/2 - 1)).
    half = d // 2
    inc = math.log(10000.0) / (half - 1)
    pe = np.zeros((n, d))
    for p in range(start, start + n):
        for i in range(half):
            v = p * math.exp(-i * inc)
            pe[p - start, i] = math.sin(v)
            pe[p - start, half + i] = math.cos(v)
    return pe


def layer_norm(x, w, prefix):
    mu = x.mean(-1, keepdims=True)
    sigma = np.sqrt(((x - mu) ** 2).mean(-1, keepdims=True) + 1e-6)
    return (x - mu) / sigma * w[prefix + "_ln_scale"][0] + w[prefix + "_ln_bias"][0]


def attention(w, prefix, q_in, kv_in, causal):
    q = q_in @ w[prefix + "_Wq"] + w[prefix + "_bq"][0]
    k = kv_in @ w[prefix + "_Wk"] + w[prefix + "_bk"][0]
    v = kv_in @ w[prefix + "_Wv"] + w[prefix + "_bv"][0]
    dk = D // HEADS
    out = []
    for h in range(HEADS):
        s = q[:, h * dk:(h + 1) * dk] @ k[:, h * dk:(h + 1) * dk].T / math.sqrt(dk)
        if causal:
            s = s + np.triu(np.full(s.shape, -1e30), 1)
        s = np.exp(s - s.max(-1, keepdims=True))
        out.append((s / s.sum(-1, keepdims=True)) @ v[:, h * dk:(h + 1) * dk])
    return np.concatenate(out, -1) @ w[prefix + "_Wo"] + w[prefix + "_bo"][0]


def ffn(w, prefix, x):
    a = x @ w[prefix + "_W1"] + w[prefix + "_b1"][0]
    a = np.maximum(a, 0) if w["relu"] else a / (1 + np.exp(-a))  # relu or swish
    return a @ w[prefix + "_W2"] + w[prefix + "_b2"][0]


def encode(w, ids):
    x = w["src_emb"][ids] * math.sqrt(D) + positions(len(ids), D)
    x = layer_norm(x + attention(w, "encoder_l1_self", x, x, False), w, "encoder_l1_self_Wo")
    return layer_norm(x + ffn(w, "encoder_l1_ffn", x), w, "encoder_l1_ffn_ffn")


def decode(w, enc, prefix_ids):
    # Position 0 is Marian's start state: a zero embedding (plus the position
    # signal); position t > 0 embeds the token produced at t-1.
    e = np.zeros((len(prefix_ids) + 1, D))
    if prefix_ids:
        e[1:] = w["trg_emb"][prefix_ids] * math.sqrt(D)
    y = e + positions(len(e), D)
    y = layer_norm(y + attention(w, "decoder_l1_self", y, y, True), w, "decoder_l1_self_Wo")
    y = layer_norm(y + attention(w, "decoder_l1_context", y, enc, False), w, "decoder_l1_context_Wo")
    y = layer_norm(y + ffn(w, "decoder_l1_ffn", y), w, "decoder_l1_ffn_ffn")
    return y @ w["out_w"] + w["decoder_ff_logit_out_b"][0]


def npz_seeds():
    d = os.path.join(HERE, "..", "..", "fuzz", "corpus", "npz")
    os.makedirs(d, exist_ok=True)
    arrays = {"a": (np.arange(6, dtype=np.float32) * 0.5).reshape(2, 3),
              "b": np.array([1, -2, 3], dtype=np.int8),
              "c": np.array(1.5, dtype=np.float16)}
    np.savez(os.path.join(d, "stored.npz"), **arrays)
    np.savez_compressed(os.path.join(d, "deflated.npz"), **arrays)
    np.savez(os.path.join(d, "empty.npz"))
    np.savez(os.path.join(d, "marian-config.npz"),
             **{"special:model.yml": np.frombuffer(b"type: transformer\n\0", dtype=np.int8),
                "decoder_ff_logit_out_b": np.zeros((1, 4), dtype=np.float32)})


def main():
    npz_seeds()
    spm_path = os.path.join(HERE, "..", "embed", "spm", "sentencepiece.bpe.model")
    for side in ("source.spm", "target.spm"):
        shutil.copyfile(spm_path, os.path.join(HERE, side))
    with open(spm_path, "rb") as f:
        pieces = _bert.spm_pieces(f.read())
    rng = np.random.default_rng(16)
    normal = [p for p, s, t in pieces if t == 1]
    order = list(rng.permutation(len(normal)))
    kept = [normal[i] for i in order[VOCAB_LEFT_OUT:]]
    vocab = ["</s>", "<unk>"] + kept
    marian_id = {p: i for i, p in enumerate(vocab)}
    with open(os.path.join(HERE, "vocab.yml"), "w", encoding="utf-8") as f:
        for i, p in enumerate(vocab):
            # Marian's emitter quotes what YAML would misread; plain keys for
            # the rest, as its files have both.
            plain = all(c.isalnum() or c == "\u2581" for c in p)
            f.write(f"{p if plain else json.dumps(p, ensure_ascii=False)}: {i}\n")
    for variant in VARIANTS:
        write_model(rng, variant, vocab, marian_id, pieces)


def write_model(rng, variant, vocab, marian_id, pieces):
    name, tied, act = variant
    V = len(vocab)

    def rnd(*shape, scale=0.4):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    if tied:
        w = {"Wemb": rnd(V, D, scale=0.5)}
    else:
        w = {"encoder_Wemb": rnd(V, D, scale=0.5), "decoder_Wemb": rnd(V, D, scale=0.5),
             "decoder_ff_logit_out_W": rnd(D, V, scale=0.5)}
    w["decoder_ff_logit_out_b"] = rnd(1, V, scale=0.3)
    w["decoder_ff_logit_out_b"][0, marian_id["</s>"]] += 1.5 if tied else 4.0  # some sentences end before the limit

    def attn(prefix):
        for m in "qkvo":
            w[f"{prefix}_W{m}"] = rnd(D, D)
            w[f"{prefix}_b{m}"] = rnd(1, D, scale=0.1)
        w[f"{prefix}_Wo_ln_scale"] = 1 + rnd(1, D, scale=0.1)
        w[f"{prefix}_Wo_ln_bias"] = rnd(1, D, scale=0.1)

    def ff(prefix):
        w[prefix + "_W1"], w[prefix + "_b1"] = rnd(D, FFN), rnd(1, FFN, scale=0.1)
        w[prefix + "_W2"], w[prefix + "_b2"] = rnd(FFN, D), rnd(1, D, scale=0.1)
        w[prefix + "_ffn_ln_scale"] = 1 + rnd(1, D, scale=0.1)
        w[prefix + "_ffn_ln_bias"] = rnd(1, D, scale=0.1)

    attn("encoder_l1_self")
    ff("encoder_l1_ffn")
    attn("decoder_l1_self")
    attn("decoder_l1_context")
    ff("decoder_l1_ffn")
    yml = MODEL_YML.format(d=D, v=V, h=HEADS, f=FFN)
    if not tied:
        yml = yml.replace("tied-embeddings-all: true", "tied-embeddings-all: false")
    yml = yml.replace("transformer-ffn-activation: swish", "transformer-ffn-activation: " + act)
    arrays = dict(w)
    arrays["special:model.yml"] = np.frombuffer(yml.encode() + b"\0", dtype=np.int8)
    os.makedirs(os.path.join(HERE, name), exist_ok=True)
    np.savez(os.path.join(HERE, name, "model.npz"), **arrays)

    w64 = {k: v.astype(np.float64) for k, v in w.items()}
    w64["src_emb"] = w64["Wemb"] if tied else w64["encoder_Wemb"]
    w64["trg_emb"] = w64["Wemb"] if tied else w64["decoder_Wemb"]
    w64["out_w"] = w64["Wemb"].T if tied else w64["decoder_ff_logit_out_W"]
    w64["relu"] = act == "relu"
    spm_id = {p: i for i, (p, s, t) in enumerate(pieces)}
    unk_spm = next(i for i, (p, s, t) in enumerate(pieces) if t == 2)
    rows = []
    for text in SENTENCES:
        src_spm = _bert.spm_encode(text, pieces)
        src = [marian_id.get(pieces[i][0], marian_id["<unk>"]) for i in src_spm] + [marian_id["</s>"]]
        enc = encode(w64, src)
        limit = min(256, math.ceil(2.0 * len(src)) + 10)  # pc-nmt's output limit, EOS included
        out = []
        while len(out) < limit:
            logits = decode(w64, enc, out)[-1]
            logits[marian_id["<unk>"]] = -np.inf  # Marian never outputs <unk> (no --allow-unk)
            out.append(int(np.argmax(logits)))
            if out[-1] == marian_id["</s>"]:
                break
        full = decode(w64, enc, [t for t in out if t != marian_id["</s>"]])[:LOGIT_ROWS]
        logit_rows = [[None if (p not in marian_id or p == "<unk>") else round(float(r[marian_id[p]]), 7)
                       for p, s, t in pieces] for r in full]
        trg = [spm_id[vocab[t]] for t in out if t != marian_id["</s>"]]
        rows.append({"text": text, "src": src_spm, "greedy": trg,
                     "ends": out[-1] == marian_id["</s>"], "logits": logit_rows})
    assert unk_spm == spm_id["<unk>"]
    with open(os.path.join(HERE, name, "expected.json"), "w", encoding="utf-8") as f:
        json.dump({"vocab_size": len(pieces), "sentences": rows}, f, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
