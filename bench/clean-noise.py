#!/usr/bin/env python3
"""Noise benchmark for pc-clean: real clean pairs plus injected noise.

    clean-noise.py make SPLIT_DIR LANG OTHER_LANG... > bench.tsv
    clean-noise.py report ANNOTATED.tsv [--score COLUMN[,COLUMN]] [--min-clean 0.97]

make: the clean pairs are SPLIT_DIR/en-LANG.test.tsv (scripts/make-package-split.sh:
catalogues of packages that gave no training data). For every clean pair it
may add one noisy pair of each kind, tagged in a column x_kind (clean pairs
have x_kind=clean):
  misaligned   the target of another clean pair
  misordered   the target's words shuffled (pairs of 4+ target words)
  wronglang    a third language's translation of the same English source
               (from any split of en-OTHER_LANG; only sources that have one)
  untranslated the source copied as the target
  short        the target cut to its first one or two words (sources of 4+ words)
  debris       crawl debris: navigation strings, URLs, HTML fragments, cookie
               and copyright lines (templates below, in English and LANG)
Seeded (random.Random(19)): the same split gives the same file.

report: reads pc-clean --annotate output of that file and prints, per kind,
the share rejected (recall) and for clean the share kept. With --score, it
also picks the highest threshold on that column that still keeps --min-clean
of all clean pairs (the chain's own rejections counted; none if the chain
alone keeps fewer) and reports recall with it. With two columns (A,B), A
may reject half of the clean pairs the chain leaves to reject (rounded
down), then B the rest: both thresholds in one chain, at the same clean
share, the split fixed rather than chosen on the noise.
"""
import csv
import random
import sys

csv.field_size_limit(1 << 30)

DEBRIS = {
    "fr": [("Home | About us | Contact", "Accueil | Qui sommes-nous | Contact"),
           ("Home » Products » {n}", "Accueil » Produits » {n}"),
           ("Skip to main content", "Aller au contenu principal"),
           ("This website uses cookies to improve your experience.", "Ce site utilise des cookies pour améliorer votre expérience."),
           ("We use cookies. Accept all cookies", "Nous utilisons des cookies. Accepter tous les cookies"),
           ("Copyright © {y} {c}. All rights reserved.", "Copyright © {y} {c}. Tous droits réservés."),
           ("© {y} {c}", "© {y} {c}"),
           ("https://www.{d}.com/{p}/{n}", "https://www.{d}.com/fr/{p}/{n}"),
           ("www.{d}.org", "www.{d}.org"),
           ("info@{d}.com", "info@{d}.com"),
           ('<div class="menu"><a href="/{p}">Products</a></div>', '<div class="menu"><a href="/{p}">Produits</a></div>'),
           ("<span>Share</span> <span>Tweet</span>", "<span>Partager</span> <span>Tweeter</span>"),
           ("Privacy policy", "Politique de confidentialité"),
           ("Read more", "Lire la suite"),
           ("Terms of use | Privacy | Sitemap", "Conditions d'utilisation | Confidentialité | Plan du site"),
           ("Back to top", "Retour en haut"),
           ("Follow us on Facebook", "Suivez-nous sur Facebook")],
    "de": [("Home | About us | Contact", "Startseite | Über uns | Kontakt"),
           ("Home » Products » {n}", "Startseite » Produkte » {n}"),
           ("Skip to main content", "Direkt zum Inhalt"),
           ("This website uses cookies to improve your experience.", "Diese Website verwendet Cookies, um Ihr Erlebnis zu verbessern."),
           ("We use cookies. Accept all cookies", "Wir verwenden Cookies. Alle Cookies akzeptieren"),
           ("Copyright © {y} {c}. All rights reserved.", "Copyright © {y} {c}. Alle Rechte vorbehalten."),
           ("© {y} {c}", "© {y} {c}"),
           ("https://www.{d}.com/{p}/{n}", "https://www.{d}.com/de/{p}/{n}"),
           ("www.{d}.org", "www.{d}.org"),
           ("info@{d}.com", "info@{d}.com"),
           ('<div class="menu"><a href="/{p}">Products</a></div>', '<div class="menu"><a href="/{p}">Produkte</a></div>'),
           ("<span>Share</span> <span>Tweet</span>", "<span>Teilen</span> <span>Twittern</span>"),
           ("Privacy policy", "Datenschutzerklärung"),
           ("Read more", "Weiterlesen"),
           ("Terms of use | Privacy | Sitemap", "Nutzungsbedingungen | Datenschutz | Sitemap"),
           ("Back to top", "Nach oben"),
           ("Follow us on Facebook", "Folgen Sie uns auf Facebook")],
    "es": [("Home | About us | Contact", "Inicio | Quiénes somos | Contacto"),
           ("Home » Products » {n}", "Inicio » Productos » {n}"),
           ("Skip to main content", "Saltar al contenido principal"),
           ("This website uses cookies to improve your experience.", "Este sitio web utiliza cookies para mejorar su experiencia."),
           ("We use cookies. Accept all cookies", "Usamos cookies. Aceptar todas las cookies"),
           ("Copyright © {y} {c}. All rights reserved.", "Copyright © {y} {c}. Todos los derechos reservados."),
           ("© {y} {c}", "© {y} {c}"),
           ("https://www.{d}.com/{p}/{n}", "https://www.{d}.com/es/{p}/{n}"),
           ("www.{d}.org", "www.{d}.org"),
           ("info@{d}.com", "info@{d}.com"),
           ('<div class="menu"><a href="/{p}">Products</a></div>', '<div class="menu"><a href="/{p}">Productos</a></div>'),
           ("<span>Share</span> <span>Tweet</span>", "<span>Compartir</span> <span>Tuitear</span>"),
           ("Privacy policy", "Política de privacidad"),
           ("Read more", "Leer más"),
           ("Terms of use | Privacy | Sitemap", "Condiciones de uso | Privacidad | Mapa del sitio"),
           ("Back to top", "Volver arriba"),
           ("Follow us on Facebook", "Síguenos en Facebook")],
}
COMPANIES = ["Acme Corp", "Globex GmbH", "Initech SA", "Umbrella Ltd", "Hooli Inc"]
DOMAINS = ["example", "shop-online", "news24", "travelguide", "acme"]
PATHS = ["products", "blog", "news", "category", "support"]


def read_pairs(path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    head = rows[0]
    si, ti = head.index("src_text"), head.index("trg_text")
    return [(r[si], r[ti]) for r in rows[1:]]


def make(split_dir, lang, others):
    rng = random.Random(19)
    clean = read_pairs(f"{split_dir}/en-{lang}.test.tsv")
    third = {}
    for o in others:
        for part in ("train", "valid", "test"):
            for s, t in read_pairs(f"{split_dir}/en-{o}.{part}.tsv"):
                third.setdefault(s, t)
    out = [("clean", s, t) for s, t in clean]
    n = len(clean)
    for i, (s, t) in enumerate(clean):
        j = (i + 1 + rng.randrange(n - 1)) % n
        out.append(("misaligned", s, clean[j][1]))
        words = t.split(" ")
        if len(words) >= 4:
            shuffled = words[:]
            while shuffled == words:
                rng.shuffle(shuffled)
            out.append(("misordered", s, " ".join(shuffled)))
        if s in third and third[s] != t:
            out.append(("wronglang", s, third[s]))
        out.append(("untranslated", s, s))
        if len(s.split(" ")) >= 4 and len(words) >= 3:
            out.append(("short", s, " ".join(words[: rng.choice((1, 2))])))
        es, ts = rng.choice(DEBRIS[lang])
        fill = dict(y=rng.randrange(1998, 2025), c=rng.choice(COMPANIES), d=rng.choice(DOMAINS),
                    p=rng.choice(PATHS), n=rng.randrange(1, 999))
        out.append(("debris", es.format(**fill), ts.format(**fill)))
    w = sys.stdout
    w.write("src_text\ttrg_text\tx_kind\n")
    for k, s, t in out:
        w.write(f"{s}\t{t}\t{k}\n")


def report(path, score, min_clean):
    rows = []
    names = score.split(",") if score else []
    with open(path, encoding="utf-8", newline="") as f:
        r = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        head = next(r)
        ki, ri = head.index("x_kind"), head.index("clean_reason")
        sis = [head.index(s) for s in names]
        for row in r:
            v = tuple(float(row[si]) if row[si] != "nan" else float("-inf") for si in sis)
            rows.append((row[ki], row[ri], v))
    thresholds = []
    if names:
        n_clean = sum(1 for k, reason, v in rows if k == "clean")
        # The highest thresholds that still keep min_clean of all clean
        # pairs, counting the chain's own rejections.
        kept = [v for k, reason, v in rows if k == "clean" and reason == "keep"]
        allowed = len(kept) - int(min_clean * n_clean + 0.999999)
        for c in range(len(names)):
            share = allowed // 2 if c == 0 and len(names) == 2 else allowed
            vals = sorted(v[c] for v in kept)
            t = vals[share] if 0 <= share < len(vals) else float("-inf")
            thresholds.append(t)
            before = len(kept)
            kept = [v for v in kept if v[c] >= t]
            allowed -= before - len(kept)
    kinds = {}
    for k, reason, v in rows:
        ok = reason == "keep" and all(v[c] >= t for c, t in enumerate(thresholds))
        c = kinds.setdefault(k, [0, 0])
        c[0] += 1
        c[1] += ok
    if thresholds:
        print("threshold " + ", ".join(f"{s} >= {t:.4f}" for s, t in zip(names, thresholds)))
    for k in ("clean", "misaligned", "misordered", "wronglang", "untranslated", "short", "debris"):
        if k not in kinds:
            continue
        n, n_kept = kinds[k]
        share = n_kept / n if k == "clean" else 1 - n_kept / n
        print(f"{k}\t{n}\t{'kept' if k == 'clean' else 'caught'}\t{100 * share:.1f}%")


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        args = sys.argv[2:]
        score = args[args.index("--score") + 1] if "--score" in args else None
        mc = float(args[args.index("--min-clean") + 1]) if "--min-clean" in args else 0.97
        report(args[0], score, mc)
