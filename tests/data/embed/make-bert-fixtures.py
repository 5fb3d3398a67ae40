#!/usr/bin/python3
"""Makes the tiny BERT-family fixtures of the pc-embed import tests.

Two Hugging Face style folders with random weights (hidden 32, 2 layers,
4 heads), one per tokenizer kind:
  wordpiece/  model_type "bert", vocab.txt (BasicTokenizer + WordPiece,
              do_lower_case), F32 weights with the "bert." prefix that
              BertForPreTraining checkpoints have
  spm/        model_type "xlm-roberta", sentencepiece.bpe.model (XLM-R ids:
              the fairseq offset, positions from pad+1), F16 weights
and expected.json: for each fixture sentence the token ids and the vectors
with cls and mean pooling, from a plain-torch BERT forward written here
(transformers is not installed) -- so the C++ tests need no torch.

The SentencePiece model is made once by make-spm-model.cpp (the C++ trainer
mt/spm uses) and committed; --retrain-spm makes it again. Run from anywhere:
  /usr/bin/python3 tests/data/embed/make-bert-fixtures.py [--retrain-spm]
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import unicodedata

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
HIDDEN, LAYERS, HEADS, FFN, MAXPOS = 32, 2, 4, 64, 64

SENTENCES = [
    "",
    "Hello, world!",
    "Café déjà vu: naïve résumé.",
    "北京欢迎你",
    "the quick brown fox jumps over the lazy dog",
    "ÜBER die Straße, bitte.",
    "don't stop (3.14)?",
    "  two  spaces\tand a tab ",
    "日本語とEnglish混ざる",
    "a " + "x" * 101 + " word",
    "Ελληνικά ΣΟΦΙΑ",
]

# Training text of the SentencePiece fixture: close to the sentences above,
# so most of them split into real pieces; a few characters stay unknown.
SPM_CORPUS = [
    "hello world", "the quick brown fox", "jumps over the lazy dog", "cafe deja vu",
    "naive resume", "die strasse bitte", "uber alles", "do not stop", "two spaces and a tab",
    "english words here", "a word and a word", "hello again world", "the dog and the fox",
    "Hello, World!", "Café déjà vu.", "Straße", "ÜBER", "stop (3.14)?", "don't",
    "北京欢迎你", "日本語", "Ελληνικά", "ΣΟΦΙΑ",
] * 3

# --- safetensors, written by hand (the Python module is not in Debian) ---

def write_safetensors(path, tensors, dtype):
    header, blobs, off = {}, [], 0
    for name in sorted(tensors):
        t = tensors[name].to(dtype).contiguous()
        raw = t.numpy().tobytes() if dtype != torch.bfloat16 else t.view(torch.int16).numpy().tobytes()
        header[name] = {"dtype": {torch.float32: "F32", torch.float16: "F16"}[dtype],
                        "shape": list(t.shape), "data_offsets": [off, off + len(raw)]}
        blobs.append(raw)
        off += len(raw)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


# --- WordPiece: Hugging Face BertTokenizer's rules, written out ---

def is_whitespace(c):
    return c in " \t\n\r" or unicodedata.category(c) == "Zs"


def is_control(c):
    return c not in "\t\n\r" and unicodedata.category(c).startswith("C")


def is_punct(c):
    cp = ord(c)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(c).startswith("P")


def is_cjk(cp):
    return any(a <= cp <= b for a, b in [(0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF),
                                         (0x2A700, 0x2B73F), (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF),
                                         (0xF900, 0xFAFF), (0x2F800, 0x2FA1F)])


def basic_tokenize(text, lower):
    text = "".join(" " if is_whitespace(c) else c for c in text
                   if not (ord(c) == 0 or ord(c) == 0xFFFD or is_control(c)))
    text = "".join(f" {c} " if is_cjk(ord(c)) else c for c in text)
    text = unicodedata.normalize("NFC", text)
    out = []
    for tok in text.split():
        if lower:
            tok = tok.lower()
            tok = "".join(c for c in unicodedata.normalize("NFD", tok) if unicodedata.category(c) != "Mn")
        cur = []
        for c in tok:
            if is_punct(c):
                if cur:
                    out.append("".join(cur))
                out.append(c)
                cur = []
            else:
                cur.append(c)
        if cur:
            out.append("".join(cur))
    return out


def wordpiece(tokens, vocab):
    ids = []
    for tok in tokens:
        if len(tok) > 100:
            ids.append(vocab["[UNK]"])
            continue
        start, sub = 0, []
        while start < len(tok):
            end, cur = len(tok), None
            while start < end:
                s = tok[start:end] if start == 0 else "##" + tok[start:end]
                if s in vocab:
                    cur = vocab[s]
                    break
                end -= 1
            if cur is None:
                sub = None
                break
            sub.append(cur)
            start = end
        ids.extend([vocab["[UNK]"]] if sub is None else sub)
    return ids


WORDPIECE_VOCAB = (["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + list(".,:!?()'-") +
                   list("abcdefghijklmnopqrstuvwxyz0123456789") + list("北京欢迎日本語とσοφια") +
                   ["the", "quick", "brown", "fox", "jump", "##s", "over", "lazy", "dog", "hello", "world",
                    "cafe", "deja", "vu", "naive", "resume", "uber", "die", "stra", "##ße", "##e", "bitte",
                    "don", "stop", "two", "space", "and", "tab", "english", "word", "ελλη", "##νικα", "##ing",
                    "##er", "##s", "##t", "##a", "##o"])


# --- SentencePiece: the committed model's pieces, segmented by Viterbi ---

def read_varint(b, i):
    v, shift = 0, 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return v, i


def spm_pieces(model):
    """(piece, score, type) of a ModelProto, type 1 normal, 2 unknown, 3 control."""
    pieces, i = [], 0
    while i < len(model):
        key, i = read_varint(model, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            _, i = read_varint(model, i)
        elif wire == 5:
            i += 4
        elif wire == 1:
            i += 8
        elif wire == 2:
            n, i = read_varint(model, i)
            if field == 1:
                sub, j, p = model[i:i + n], 0, ["", 0.0, 1]
                while j < len(sub):
                    k, j = read_varint(sub, j)
                    if k == (1 << 3 | 2):
                        m, j = read_varint(sub, j)
                        p[0] = sub[j:j + m].decode()
                        j += m
                    elif k == (2 << 3 | 5):
                        p[1] = struct.unpack("<f", sub[j:j + 4])[0]
                        j += 4
                    elif k == (3 << 3 | 0):
                        p[2], j = read_varint(sub, j)
                    else:
                        raise ValueError("unexpected field in SentencePiece")
                pieces.append(tuple(p))
            i += n
        else:
            raise ValueError("unexpected wire type")
    return pieces


def spm_encode(text, pieces):
    """libsentencepiece's unigram Viterbi with identity normalisation: extra
    spaces removed, a dummy prefix, spaces as U+2581; an unknown character
    scores min - 10 and runs of unknowns are one piece."""
    text = " ".join(t for t in text.split(" ") if t)
    if not text:
        return []
    text = "\u2581" + text.replace(" ", "\u2581")
    vocab = {p: (i, s) for i, (p, s, t) in enumerate(pieces) if t == 1}
    unk = next(i for i, (p, s, t) in enumerate(pieces) if t == 2)
    unk_score = min(s for p, s, t in pieces if t == 1) - 10.0
    n = len(text)
    best = [(-1e30, -1, -1)] * (n + 1)  # score, start, id
    best[0] = (0.0, -1, -1)
    for end in range(1, n + 1):
        for start in range(end):
            if best[start][0] <= -1e29:
                continue
            piece = text[start:end]
            if piece in vocab:
                sc = best[start][0] + vocab[piece][1]
                if sc > best[end][0]:
                    best[end] = (sc, start, vocab[piece][0])
            elif end - start == 1:
                sc = best[start][0] + unk_score
                if sc > best[end][0]:
                    best[end] = (sc, start, unk)
    ids, end = [], n
    while end > 0:
        _, start, i = best[end]
        if i == unk and ids and ids[-1] == unk:
            pass  # merged into the run of unknowns
        else:
            ids.append(i)
        end = start
    return ids[::-1]


def xlmr_ids(spm_ids, unk):
    # fairseq's dictionary: <s> 0, <pad> 1, </s> 2, <unk> 3, piece p at p + 1.
    return [0] + [3 if i == unk else i + 1 for i in spm_ids[:MAXPOS - 2]] + [2]


# --- the reference forward ---

def random_weights(gen, vocab, maxpos, types, prefix):
    def rnd(*shape, scale=0.2):
        return torch.randn(*shape, generator=gen) * scale
    w = {"embeddings.word_embeddings.weight": rnd(vocab, HIDDEN),
         "embeddings.position_embeddings.weight": rnd(maxpos, HIDDEN),
         "embeddings.token_type_embeddings.weight": rnd(types, HIDDEN),
         "embeddings.LayerNorm.weight": 1 + rnd(HIDDEN, scale=0.1),
         "embeddings.LayerNorm.bias": rnd(HIDDEN, scale=0.1),
         "pooler.dense.weight": rnd(HIDDEN, HIDDEN), "pooler.dense.bias": rnd(HIDDEN, scale=0.1)}
    for l in range(LAYERS):
        p = f"encoder.layer.{l}."
        for n in ["attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"]:
            w[p + n + ".weight"] = rnd(HIDDEN, HIDDEN)
            w[p + n + ".bias"] = rnd(HIDDEN, scale=0.1)
        w[p + "intermediate.dense.weight"] = rnd(FFN, HIDDEN)
        w[p + "intermediate.dense.bias"] = rnd(FFN, scale=0.1)
        w[p + "output.dense.weight"] = rnd(HIDDEN, FFN)
        w[p + "output.dense.bias"] = rnd(HIDDEN, scale=0.1)
        for n in ["attention.output.LayerNorm", "output.LayerNorm"]:
            w[p + n + ".weight"] = 1 + rnd(HIDDEN, scale=0.1)
            w[p + n + ".bias"] = rnd(HIDDEN, scale=0.1)
    return {prefix + k: v for k, v in w.items()}


def forward(w, prefix, ids, pos_offset, eps):
    """HF BertModel on one sequence (no padding), float64; returns
    (cls pooled, mean pooled), each L2-normalised."""
    g = {k[len(prefix):]: v.double() for k, v in w.items()}
    ln = torch.nn.functional.layer_norm
    T = len(ids)
    x = (g["embeddings.word_embeddings.weight"][ids] +
         g["embeddings.position_embeddings.weight"][pos_offset:pos_offset + T] +
         g["embeddings.token_type_embeddings.weight"][0])
    x = ln(x, (HIDDEN,), g["embeddings.LayerNorm.weight"], g["embeddings.LayerNorm.bias"], eps)
    D = HIDDEN // HEADS
    for l in range(LAYERS):
        p = f"encoder.layer.{l}."
        lin = lambda n, v: v @ g[p + n + ".weight"].T + g[p + n + ".bias"]
        q, k, v = (lin("attention.self." + n, x).view(T, HEADS, D).transpose(0, 1)
                   for n in ["query", "key", "value"])
        a = torch.softmax(q @ k.transpose(1, 2) / D ** 0.5, dim=-1) @ v
        a = lin("attention.output.dense", a.transpose(0, 1).reshape(T, HIDDEN))
        x = ln(x + a, (HIDDEN,), g[p + "attention.output.LayerNorm.weight"],
               g[p + "attention.output.LayerNorm.bias"], eps)
        h = torch.nn.functional.gelu(lin("intermediate.dense", x))
        h = lin("output.dense", h)
        x = ln(x + h, (HIDDEN,), g[p + "output.LayerNorm.weight"], g[p + "output.LayerNorm.bias"], eps)
    cls = torch.tanh(x[0] @ g["pooler.dense.weight"].T + g["pooler.dense.bias"])
    mean = x.mean(dim=0)
    # 8 decimals: far below the 1e-4 the tests allow, and a small file.
    return [[round(x, 8) for x in (v / v.norm()).tolist()] for v in (cls, mean)]


def main():
    gen = torch.Generator().manual_seed(15)
    expected = {"sentences": SENTENCES, "models": {}}

    # WordPiece, model_type bert.
    d = os.path.join(HERE, "wordpiece")
    os.makedirs(d, exist_ok=True)
    vocab = {t: i for i, t in enumerate(dict.fromkeys(WORDPIECE_VOCAB))}
    with open(os.path.join(d, "vocab.txt"), "w", encoding="utf-8") as f:
        f.write("".join(t + "\n" for t in vocab))
    cfg = {"architectures": ["BertModel"], "model_type": "bert", "vocab_size": len(vocab),
           "hidden_size": HIDDEN, "num_hidden_layers": LAYERS, "num_attention_heads": HEADS,
           "intermediate_size": FFN, "hidden_act": "gelu", "max_position_embeddings": MAXPOS,
           "type_vocab_size": 2, "layer_norm_eps": 1e-12, "pad_token_id": 0}
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    with open(os.path.join(d, "tokenizer_config.json"), "w") as f:
        json.dump({"tokenizer_class": "BertTokenizer", "do_lower_case": True}, f, indent=2)
    w = random_weights(gen, len(vocab), MAXPOS, 2, "bert.")
    write_safetensors(os.path.join(d, "model.safetensors"), w, torch.float32)
    rows = []
    for s in SENTENCES:
        ids = wordpiece(basic_tokenize(s, True), vocab)[:MAXPOS - 2]  # truncation=True
        ids = [vocab["[CLS]"]] + ids + [vocab["[SEP]"]]
        cls, mean = forward(w, "bert.", ids, 0, 1e-12)
        rows.append({"ids": ids, "cls": cls, "mean": mean})
    expected["models"]["wordpiece"] = rows

    # SentencePiece, model_type xlm-roberta.
    d = os.path.join(HERE, "spm")
    os.makedirs(d, exist_ok=True)
    model_path = os.path.join(d, "sentencepiece.bpe.model")
    if "--retrain-spm" in sys.argv or not os.path.exists(model_path):
        with tempfile.TemporaryDirectory() as tmp:
            exe, corpus = os.path.join(tmp, "make-spm"), os.path.join(tmp, "corpus.txt")
            subprocess.run(["g++", "-std=c++17", "-O1", os.path.join(HERE, "make-spm-model.cpp"), "-o", exe,
                            "-lsentencepiece_train", "-lsentencepiece"], check=True)
            with open(corpus, "w", encoding="utf-8") as f:
                f.write("".join(s + "\n" for s in SPM_CORPUS))
            # A relative input name: the model records it, and a temporary
            # folder's name would make every run's model differ.
            subprocess.run([exe, "corpus.txt", model_path], check=True, cwd=tmp)
    with open(model_path, "rb") as f:
        pieces = spm_pieces(f.read())
    unk = next(i for i, p in enumerate(pieces) if p[2] == 2)
    n_vocab = len(pieces) + 2  # the fairseq offset and <mask>
    pad = 1
    cfg = {"architectures": ["XLMRobertaModel"], "model_type": "xlm-roberta", "vocab_size": n_vocab,
           "hidden_size": HIDDEN, "num_hidden_layers": LAYERS, "num_attention_heads": HEADS,
           "intermediate_size": FFN, "hidden_act": "gelu", "max_position_embeddings": MAXPOS + pad + 1,
           "type_vocab_size": 1, "layer_norm_eps": 1e-5, "pad_token_id": pad, "bos_token_id": 0,
           "eos_token_id": 2}
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    w = random_weights(gen, n_vocab, MAXPOS + pad + 1, 1, "")
    w = {k: v.half().float() for k, v in w.items()}  # what the F16 file holds
    write_safetensors(os.path.join(d, "model.safetensors"), w, torch.float16)
    rows = []
    for s in SENTENCES:
        ids = xlmr_ids(spm_encode(s, pieces), unk)
        cls, mean = forward(w, "", ids, pad + 1, 1e-5)
        rows.append({"ids": ids, "cls": cls, "mean": mean})
    expected["models"]["spm"] = rows

    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(expected, f, ensure_ascii=False, indent=None, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
