#include "libcorpus/core/tmx_convert.h"

#include <algorithm>
#include <cctype>

#include "libcorpus/core/error.h"
#include "libcorpus/core/line_pipeline.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/ascii.h"

namespace corpus {

namespace {

constexpr const char* kColumnsProp = "x-paracorp-columns";
constexpr const char* kHeaderProp = "x-paracorp-tsv-header";
constexpr const char* kSkipHint = "fix the record, or pass --skip-bad to skip such records";

std::string join(const std::vector<std::string>& v, char sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? std::string(1, sep) : "") + v[i];
  return s;
}

}  // namespace

bool same_language(std::string_view a, std::string_view b) {
  std::string x = ascii_lower(a), y = ascii_lower(b);
  for (auto& c : x) if (c == '_') c = '-';
  for (auto& c : y) if (c == '_') c = '-';
  if (x == y) return true;
  auto primary = [](const std::string& s) { return s.substr(0, s.find('-')); };
  bool x_bare = x.find('-') == std::string::npos, y_bare = y.find('-') == std::string::npos;
  return (x_bare || y_bare) && primary(x) == primary(y);
}

namespace {


// A language code at s[i]: 2-3 lower-case letters, optionally "_" and 2-4
// letters (pt_BR, zh_Hant). Returns the end, or npos.
size_t lang_code_end(std::string_view s, size_t i) {
  size_t j = i;
  while (j < s.size() && j - i < 3 && is_ascii_lower(s[j])) ++j;
  if (j - i < 2) return std::string_view::npos;
  if (j < s.size() && s[j] == '_') {
    size_t k = j + 1;
    while (k < s.size() && k - j - 1 < 4 && is_ascii_alpha(s[k])) ++k;
    if (k - j - 1 >= 2) j = k;
  }
  return j;
}

}  // namespace

// "en-fr.tsv", "corpus.en-fr.tmx.gz", "x_de-en.txt": the first LANG-LANG.(tsv|tmx|txt)
// that starts the name or follows '.', '_' or '-'.
std::optional<std::pair<std::string, std::string>> langs_from_filename(const std::string& path) {
  const std::string_view base = std::string_view(path).substr(path.rfind('/') + 1);
  for (size_t i = 0; i < base.size(); ++i) {
    if (i > 0 && base[i - 1] != '.' && base[i - 1] != '_' && base[i - 1] != '-') continue;
    size_t a = lang_code_end(base, i);
    if (a == std::string_view::npos || a >= base.size() || base[a] != '-') continue;
    size_t b = lang_code_end(base, a + 1);
    if (b == std::string_view::npos || b >= base.size() || base[b] != '.') continue;
    std::string_view ext = base.substr(b + 1, 3);
    if (ext == "tsv" || ext == "tmx" || ext == "txt")
      return std::make_pair(std::string(base.substr(i, a - i)), std::string(base.substr(a + 1, b - a - 1)));
  }
  return std::nullopt;
}

std::string lang_from_suffix(const std::string& path) {
  std::string base = path.substr(path.rfind('/') + 1);
  for (const char* z : {".gz", ".zst", ".xz", ".bz2"}) {
    std::string_view zs(z);
    if (base.size() > zs.size() && base.compare(base.size() - zs.size(), zs.size(), zs) == 0)
      base.resize(base.size() - zs.size());
  }
  // The last ".xx" or ".xxx" of lower-case letters, unless it is a file type.
  const size_t dot = base.rfind('.');
  if (dot == std::string::npos) return {};
  const std::string code = base.substr(dot + 1);
  if (code.size() < 2 || code.size() > 3 || !std::all_of(code.begin(), code.end(), is_ascii_lower)) return {};
  for (const char* ext : {"txt", "tsv", "tmx", "xml", "csv", "out", "raw", "tok", "bpe", "spm", "log", "dat", "doc"})
    if (code == ext) return {};
  return code;
}

ConvertStats tsv_to_tmx(BitextLines& in, Output& out, const TsvToTmxOptions& opt, const ProgressFn& progress) {
  const TsvColumns& cols = in.columns();
  const TmxLayout layout = TmxLayout::from_columns(cols.names, opt.src_lang, opt.trg_lang);
  TmxHeader h;
  h.srclang = opt.src_lang;
  h.creationtoolversion = opt.tool_version;
  h.props = {{kColumnsProp, join(cols.names, ' ')}, {kHeaderProp, cols.header ? "yes" : "no"}};
  h.props.insert(h.props.end(), opt.header_props.begin(), opt.header_props.end());
  std::string text;
  append_tmx_start(text, h);
  out.write(text);

  ConvertStats st;
  const size_t ncols = cols.size();
  LinePipelineSource src{[&](std::string& o) { return in.next(o); }, [&] { return in.line_number(); },
                         [&] { return in.raw_bytes_read(); }};
  run_line_pipeline(
      src, opt.batch_bytes,
      [&](LineBatch& b) {
        std::vector<std::string_view> f;
        b.out.reserve(b.data.size() * 2 + b.size() * 128);
        for (size_t i = 0; i < b.size(); ++i) {
          split_tsv(b.line(i), f);
          std::string msg = check_row(f, ncols);
          if (msg.empty()) msg = append_tmx_unit(b.out, layout, f, b.first_row + i + 1);
          if (msg.empty()) {
            ++b.rows_out;
            continue;
          }
          if (b.error.empty()) {
            b.error = msg;
            b.error_line = b.first_line + i;
          }
          ++b.skipped;
          if (!opt.skip_bad) return;
        }
      },
      [&](LineBatch& b) {
        if (!b.error.empty() && !opt.skip_bad) throw Error(b.error, kSkipHint).at(in.name(), b.error_line);
        out.write(b.out);
        st.rows_in += b.size();
        st.rows_out += b.rows_out;
        st.skipped += b.skipped;
        if (progress) progress(b.input_pos, st.rows_in);
      });
  text.clear();
  append_tmx_end(text);
  out.write(text);
  return st;
}

namespace {

const TmxVariant* find_variant(const TmxUnit& u, const std::string& lang) {
  for (const auto& v : u.variants)
    if (ascii_lower(v.lang) == ascii_lower(lang)) return &v;
  for (const auto& v : u.variants)
    if (same_language(v.lang, lang)) return &v;
  return nullptr;
}

std::string column_for_prop(std::string_view type) {
  std::string n = ascii_lower(type);
  for (auto& c : n)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) c = '_';
  if (is_known_column(n)) return n;
  return "x_" + n;
}

const std::string* prop_value(const Props& props, std::string_view type) {
  for (const auto& [k, v] : props)
    if (k == type) return &v;
  return nullptr;
}

}  // namespace

ConvertStats tmx_to_tsv(ByteSource& in, Output& out, const TmxToTsvOptions& opt, const ProgressFn& progress) {
  TmxReader reader(in);
  const TmxHeader& h = reader.header();
  std::string src = opt.src_lang, trg = opt.trg_lang;
  if (src.empty() && ascii_lower(h.srclang) != "*all*") src = h.srclang;

  std::vector<std::string> columns;
  bool header_line = true;
  bool ours = false;
  if (const std::string* c = prop_value(h.props, kColumnsProp)) {
    ours = true;
    size_t b = 0;
    while (b <= c->size()) {
      size_t e = c->find(' ', b);
      if (e == std::string::npos) e = c->size();
      if (e > b) columns.push_back(c->substr(b, e - b));
      b = e + 1;
    }
    if (const std::string* hv = prop_value(h.props, kHeaderProp)) header_line = *hv != "no";
  }

  ConvertStats st;
  // The next well-formed unit: a malformed one stops the run, or with
  // --skip-bad is counted (read and skipped) and passed over.
  auto next_good = [&](TmxUnit& unit) {
    while (reader.next(unit)) {
      if (unit.error.empty()) return true;
      if (!opt.skip_bad) throw Error(unit.error, kSkipHint).at(in.name(), unit.error_line);
      ++st.rows_in;
      ++st.skipped;
    }
    return false;
  };
  TmxUnit u;
  bool have = next_good(u);
  if (have) {
    if (src.empty() && !u.variants.empty()) src = u.variants[0].lang;
    if (trg.empty())
      for (const auto& v : u.variants)
        if (!same_language(v.lang, src)) {
          trg = v.lang;
          break;
        }
    if (trg.empty())
      throw ConfigError("cannot tell the target language from the first <tu> (line " + std::to_string(u.line) + ")",
                       "give -t/--trg-lang")
          .at(in.name());
  }
  if (!ours) {
    // A TMX from elsewhere: the first unit decides the columns.
    columns = {"src_text", "trg_text"};
    if (have) {
      const TmxVariant* sv = find_variant(u, src);
      const TmxVariant* tv = find_variant(u, trg);
      if (sv && prop_value(sv->props, "source-document")) columns.insert(columns.begin(), "src_url");
      if (tv && prop_value(tv->props, "source-document"))
        columns.insert(columns.begin() + (columns[0] == "src_url" ? 1 : 0), "trg_url");
      for (const auto& [k, v] : u.props) {
        std::string c = column_for_prop(k);
        if (std::find(columns.begin(), columns.end(), c) == columns.end()) columns.push_back(c);
      }
    }
  }
  TsvWriter w(out);
  if (header_line) w.header(columns);

  std::vector<std::string> fields(columns.size());
  std::vector<std::string_view> views(columns.size());
  for (; have; have = next_good(u)) {
    ++st.rows_in;
    const TmxVariant* sv = find_variant(u, src);
    const TmxVariant* tv = find_variant(u, trg);
    if (!sv || !tv) {
      if (!opt.skip_bad)
        throw Error("<tu> has no <tuv> for language " + quote(sv ? trg : src), kSkipHint).at(in.name(), u.line);
      ++st.skipped;
      continue;
    }
    for (size_t i = 0; i < columns.size(); ++i) {
      const std::string& c = columns[i];
      std::string& f = fields[i];
      f.clear();
      if (c == "src_text" || c == "trg_text") {
        f = c == "src_text" ? sv->seg : tv->seg;
      } else if (c == "src_url" || c == "trg_url") {
        if (const std::string* p = prop_value((c == "src_url" ? sv : tv)->props, "source-document")) f = *p;
      } else {
        for (const auto& [k, v] : u.props)
          if (k == c || column_for_prop(k) == c) {
            f = v;
            break;
          }
      }
      if (replace_tabs_newlines(f)) ++st.replaced;
      views[i] = f;
    }
    w.row(views);
    ++st.rows_out;
    if (progress && (st.rows_in & 1023) == 0) progress(in.raw_bytes_read(), st.rows_in);
  }
  return st;
}

}  // namespace corpus
