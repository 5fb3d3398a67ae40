// pc-docalign: pair the documents of two languages (URL language markers,
// then content), doc-pair JSONL out.
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>

#include "align/docalign/doc_sides.h"
#include "align/docalign/docalign_run.h"
#include "align/ibm1_model.h"
#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/output.h"
#include "mt/encoder/open_encoder.h"

using namespace corpus;

namespace {

constexpr const char* kUsage = "pc-docalign -s SRC -t TRG [options] [MIXED.jsonl | SRC.jsonl TRG.jsonl]";

struct Opts {
  std::string method = "both", content = "auto", ibm1, encoder;
  std::optional<double> threshold;
  bool given_langs_only = false;
};

// The IBM1 model must translate -s into -t (when it records its languages).
void check_model_langs(const align::Ibm1Model& m, const cli::Common& c, const std::string& path) {
  auto lang = [&](const char* k) { return m.config.contains(k) ? m.config[k].get<std::string>() : std::string(); };
  const std::string s = lang("src_lang"), t = lang("trg_lang");
  if ((!s.empty() && !align::same_language(c.src_lang, s)) || (!t.empty() && !align::same_language(c.trg_lang, t)))
    throw ConfigError(fmt::format("{}: the IBM1 model translates {} -> {}, not {} -> {}", path, s, t, c.src_lang,
                                  c.trg_lang),
                      fmt::format("train one with pc-ibm1 train -s {} -t {}", c.src_lang, c.trg_lang));
}

}  // namespace

int main(int argc, char** argv) {
  cli::App app("pc-docalign",
               "Pair the documents of two languages: URLs without their language markers first, then content "
               "similarity (IBM1-translated TF-IDF or sentence embeddings) with greedy 1-to-1 matching. Writes "
               "doc-pair JSONL with both documents' sentences.",
               kUsage);
  cli::Common c;
  Opts o;
  app.group("Matching");
  app.choice("method", "M", &o.method, {"both", "url", "content"},
             "both: URLs, then content for the rest; url or content alone");
  app.choice("content", "SCORE", &o.content, {"auto", "tfidf", "embed"},
             "content score; auto: embed with --encoder, else tfidf");
  app.option("ibm1", "MODEL", &o.ibm1, "tfidf: translate source documents word by word with this pc-ibm1 model");
  app.option("encoder", "MODEL", &o.encoder, "embed: pc-embed sentence encoder (any kind) for document vectors");
  app.option("threshold", "T", &o.threshold, "lowest content score that pairs two documents", "0.05 tfidf, 0.3 embed")
      .range(-1, 1);
  app.flag("given-langs-only", &o.given_langs_only,
           "URL markers are only the -s/-t codes, not every ISO 639-1 code");
  app.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kLangs | cli::Common::kSkipBad |
                    cli::Common::kMaxLine | cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    if (c.src_lang.empty() || c.trg_lang.empty())
      throw cli::UsageError("give both languages: -s SRC -t TRG", "pc-docalign -s en -t fr en.jsonl fr.jsonl");
    if (align::same_language(c.src_lang, c.trg_lang) || align::same_language(c.trg_lang, c.src_lang))
      throw cli::UsageError(fmt::format("-s and -t are the same language ({})", c.src_lang));
    if (c.inputs.size() > 2) throw cli::UsageError("give one mixed stream or two files, not more", kUsage);
    if (c.inputs.size() == 2 && c.inputs[0] == "-" && c.inputs[1] == "-")
      throw cli::UsageError("only one of the two inputs can be stdin", kUsage);
    const bool embed = o.content == "embed" || (o.content == "auto" && !o.encoder.empty());
    if (o.method != "url" && embed && o.encoder.empty())
      throw cli::UsageError("--content embed needs --encoder MODEL");
    if (o.method != "url" && ((embed && !o.ibm1.empty()) || (!embed && !o.encoder.empty())))
      ctx.warn(embed ? "--ibm1 is not used: content matching is by --encoder (--content embed)"
                     : "--encoder is not used: content matching is --content tfidf");
    if (o.method == "content" && !embed && o.ibm1.empty())
      ctx.info("no --ibm1 model: content matching compares the words the documents share, untranslated");

    std::unique_ptr<align::Ibm1Model> ibm1;
    std::unique_ptr<align::SentenceEncoder> enc;
    if (!o.ibm1.empty() && o.method != "url" && !embed) {
      ibm1 = std::make_unique<align::Ibm1Model>(align::Ibm1Model::load(o.ibm1));
      check_model_langs(*ibm1, c, o.ibm1);
    }
    if (embed && o.method != "url") enc = mt::open_sentence_encoder(o.encoder);

    align::DocSide src{c.src_lang, {}}, trg{c.trg_lang, {}};
    align::DocReader reader(c.skip_bad, c.max_line);
    if (c.inputs.size() == 2) {
      for (size_t side = 0; side < 2; ++side) {
        const std::string& f = c.inputs[side];
        ctx.note_input(f);
        if (f == "-") ctx.check_stdin_not_terminal(kUsage);
        reader.read_side(open_input(f), side ? trg : src);
      }
    } else {
      reader.read_mixed(open_input(ctx.single_input(c.inputs, kUsage)), src, trg);  // single_input records it
    }
    const align::DocReadCounts& rn = reader.counts();
    for (size_t side = 0; side < 2; ++side) {
      const align::DocSide& d = side ? trg : src;
      if (!d.docs.empty()) continue;
      const bool two = c.inputs.size() == 2;
      throw Error(fmt::format("{} has no {} documents with sentences ({} documents read)",
                              two ? c.inputs[side] : "the input", d.lang, rn.read),
                  two ? "give the -s file first" : "check -s/-t against the documents' \"lang\" keys");
    }

    align::DocAlignOptions a;
    a.match = o.method == "url" ? align::DocMatch::kUrl
              : o.method == "content" ? align::DocMatch::kContent : align::DocMatch::kBoth;
    a.content = embed ? align::ContentScore::kEmbed : align::ContentScore::kTfidf;
    a.ibm1 = ibm1.get();
    a.encoder = enc.get();
    a.threshold = o.threshold.value_or(embed ? 0.3 : 0.05);
    a.iso_codes = !o.given_langs_only;
    Output out(c.output);  // appears under its name only when complete
    const align::DocAlignCounts n = align::align_documents(src, trg, a, [&](std::string_view l) { out.write(l); });
    out.commit();

    ctx.set_count("documents in", rn.read);
    if (rn.other_lang) ctx.set_count("other language", rn.other_lang);
    if (rn.no_sentences) ctx.set_count("without sentences", rn.no_sentences);
    if (rn.split_here) ctx.set_count("split here", rn.split_here);
    if (c.skip_bad || rn.skipped_bad) ctx.set_count("skipped (bad)", rn.skipped_bad);
    ctx.set_count(c.src_lang + " documents", src.docs.size());
    ctx.set_count(c.trg_lang + " documents", trg.docs.size());
    ctx.set_count("url pairs", n.url_pairs);
    if (a.match != align::DocMatch::kUrl) ctx.set_count("content pairs", n.content_pairs);
    if (n.ambiguous_keys) ctx.set_count("ambiguous url keys", n.ambiguous_keys);
    ctx.set_count(c.src_lang + " unpaired", n.src_unpaired);
    ctx.set_count(c.trg_lang + " unpaired", n.trg_unpaired);
  });
}
