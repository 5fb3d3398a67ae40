#include "libcorpus/core/split_records.h"

#include <algorithm>
#include <charconv>

#include <nlohmann/json.hpp>

#include "libcorpus/core/json_write.h"
#include "libcorpus/core/jsonl.h"
#include "libcorpus/core/utf8.h"

namespace corpus {

namespace {

bool no_lang(std::string_view l) { return l.empty() || l == "und" || l == "zxx"; }

}  // namespace

std::string_view effective_lang(std::string_view para_lang, std::string_view doc_lang, std::string_view fallback) {
  if (!no_lang(para_lang)) return para_lang;
  if (!no_lang(doc_lang)) return doc_lang;
  return fallback;
}

size_t repair_utf8(std::string& s) {
  size_t bad = 0;
  if (s.find('\0') != std::string::npos) {
    bad += static_cast<size_t>(std::count(s.begin(), s.end(), '\0'));
    s.erase(std::remove(s.begin(), s.end(), '\0'), s.end());
  }
  size_t at = find_invalid_utf8(s);
  if (at == std::string::npos) return bad;
  std::string out = s.substr(0, at);
  while (at != std::string::npos) {
    out += "\xEF\xBF\xBD";
    ++bad;
    size_t from = at + 1;
    std::string_view rest = std::string_view(s).substr(from);
    size_t next = find_invalid_utf8(rest);
    out.append(rest.substr(0, next));
    at = next == std::string_view::npos ? std::string::npos : from + next;
  }
  s.swap(out);
  return bad;
}

void SplitWorker::paragraph(std::string& para, std::string_view lang, std::vector<std::string>& sents,
                            SplitCounts& n) {
  if (!cfg_.norm.empty() && cfg_.norm.apply(para)) ++n.normalized;
  ++n.paragraphs;
  spans_.clear();
  seg_.split(para, lang, spans_);
  for (const Span& s : spans_) sents.emplace_back(para, s.begin, s.size());
  n.sentences += spans_.size();
}

std::string SplitWorker::text_line(std::string_view line, bool first, std::string& out, SplitCounts& n) {
  // PieceReader's marks: a leading '\n' continues the previous record, a
  // trailing one is continued by the next.
  const bool cont = !line.empty() && line.front() == '\n';
  if (cont) line.remove_prefix(1);
  const bool piece = !line.empty() && line.back() == '\n';
  if (piece) line.remove_suffix(1);
  if (!piece && !line.empty() && line.back() == '\r') line.remove_suffix(1);
  buf_.assign(line);
  if (std::string msg = check_text(buf_); !msg.empty()) {
    if (!cfg_.skip_bad) return msg;
    repair_utf8(buf_);
    ++n.repaired;
  }
  if (cfg_.keep_paragraphs && !first && !cont) out += '\n';
  sents_.clear();
  paragraph(buf_, cfg_.lang, sents_, n);
  if (cont) --n.paragraphs;
  for (const std::string& s : sents_) {
    out += s;
    out += '\n';
  }
  return {};
}

std::string SplitWorker::jsonl_line(std::string_view line, std::string& out, SplitCounts& n) {
  std::string_view use = line;
  if (find_invalid_utf8(line) != std::string_view::npos) {
    if (!cfg_.skip_bad) return check_text(line);
    buf_.assign(line);
    repair_utf8(buf_);
    ++n.repaired;
    use = buf_;
  }
  Document doc;
  if (std::string msg = parse_document(use, doc); !msg.empty()) {
    if (!cfg_.skip_bad) return msg;
    ++n.skipped;
    return {};
  }
  const std::string doc_lang = doc.lang();
  std::vector<std::string_view> para_langs;
  if (auto it = doc.json.find("para_langs"); it != doc.json.end() && !it->is_null()) {
    bool ok = it->is_array();
    if (ok)
      for (const auto& v : *it) ok = ok && v.is_string();
    if (!ok) {
      if (!cfg_.skip_bad) return "\"para_langs\" must be an array of strings";
      ++n.skipped;
      return {};
    }
    for (const auto& v : *it) para_langs.emplace_back(v.get_ref<const std::string&>());
  }
  const std::string text = doc.text();
  size_t n_paras = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  if (!para_langs.empty() && para_langs.size() != n_paras) {
    std::string msg = "\"para_langs\" has " + std::to_string(para_langs.size()) + " entries but \"text\" has " +
                      std::to_string(n_paras) + " paragraphs";
    if (!cfg_.skip_bad) return msg;
    ++n.skipped;
    return {};
  }
  sents_.clear();
  sent_para_.clear();
  std::string new_text;
  size_t from = 0;
  for (size_t p = 0; p < n_paras; ++p) {
    size_t nl = text.find('\n', from);
    std::string para = text.substr(from, nl == std::string::npos ? std::string::npos : nl - from);
    from = nl + 1;
    const size_t before = sents_.size();
    paragraph(para, effective_lang(para_langs.empty() ? "" : para_langs[p], doc_lang, cfg_.lang), sents_, n);
    sent_para_.insert(sent_para_.end(), sents_.size() - before, p);
    if (!cfg_.norm.empty()) {
      if (p > 0) new_text += '\n';
      new_text += para;
    }
  }
  if (!cfg_.norm.empty()) doc.json["text"] = std::move(new_text);
  if (doc.json.contains("sentences") || doc.json.contains("sent_para")) {
    // Keys the input already has keep their places: through the json tree.
    doc.json["sentences"] = sents_;
    doc.json["sent_para"] = sent_para_;
    append_json(out, doc.json, true);
  } else {
    // The two arrays go last, written straight from the sentences: a json
    // node per sentence cost time, and memory on a huge document.
    append_json(out, doc.json, true);
    out.pop_back();  // the object's '}'
    out += ",\"sentences\":[";
    for (size_t i = 0; i < sents_.size(); ++i) {
      if (i > 0) out += ',';
      append_json_string(out, sents_[i], true);
    }
    out += "],\"sent_para\":[";
    char num[24];
    for (size_t i = 0; i < sent_para_.size(); ++i) {
      if (i > 0) out += ',';
      out.append(num, std::to_chars(num, num + sizeof num, sent_para_[i]).ptr);
    }
    out += "]}";
  }
  out += '\n';
  return {};
}

}  // namespace corpus
