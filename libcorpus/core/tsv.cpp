#include "libcorpus/core/tsv.h"

#include <array>
#include <cstring>

#include "libcorpus/core/error.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/utf8.h"

namespace corpus {

namespace {

constexpr std::array<std::string_view, 11> kFixedColumns = {
    "src_text", "trg_text", "src_url", "trg_url", "score", "src_lang",
    "trg_lang", "src_id",   "trg_id",  "src_digest", "trg_digest"};

bool is_name_chars(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

bool has_suffix(std::string_view s, std::string_view suf) {
  return s.size() > suf.size() && s.substr(s.size() - suf.size()) == suf;
}

}  // namespace

bool is_known_column(std::string_view name) {
  for (auto k : kFixedColumns)
    if (name == k) return true;
  if (name.size() > 2 && name.substr(0, 2) == "x_" && is_name_chars(name.substr(2))) return true;
  for (std::string_view suf : {std::string_view("_score"), std::string_view("_reason")})
    if (has_suffix(name, suf) && is_name_chars(name.substr(0, name.size() - suf.size()))) return true;
  return false;
}

int TsvColumns::index(std::string_view name) const {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  return -1;
}

bool has_tsv_breaker(std::string_view s) {
  return std::memchr(s.data(), '\t', s.size()) || std::memchr(s.data(), '\n', s.size()) ||
         std::memchr(s.data(), '\0', s.size());
}

bool replace_tabs_newlines(std::string& s) {
  if (!std::memchr(s.data(), '\t', s.size()) && !std::memchr(s.data(), '\n', s.size())) return false;
  for (auto& ch : s)
    if (ch == '\t' || ch == '\n') ch = ' ';
  return true;
}

void split_tsv(std::string_view line, std::vector<std::string_view>& fields) {
  fields.clear();
  size_t start = 0;
  for (;;) {
    const void* tab = std::memchr(line.data() + start, '\t', line.size() - start);
    if (!tab) {
      fields.push_back(line.substr(start));
      return;
    }
    size_t pos = static_cast<size_t>(static_cast<const char*>(tab) - line.data());
    fields.push_back(line.substr(start, pos - start));
    start = pos + 1;
  }
}

TsvColumns columns_from_first_line(std::string_view line) {
  std::vector<std::string_view> f;
  split_tsv(line, f);
  TsvColumns c;
  bool all_known = true;
  for (auto x : f) all_known = all_known && is_known_column(x);
  if (all_known) {
    c.header = true;
    for (auto x : f) c.names.emplace_back(x);
  } else {
    c.names = {"src_text", "trg_text"};
  }
  return c;
}

std::string check_row(const std::vector<std::string_view>& fields, size_t ncols) {
  if (fields.size() != ncols)
    return "expected " + std::to_string(ncols) + " tab-separated columns, found " + std::to_string(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    std::string msg = check_text(fields[i]);
    if (!msg.empty()) return msg + " in column " + std::to_string(i + 1);
  }
  return {};
}

namespace {

void validate_columns(const TsvColumns& c, const std::string& name) {
  if (c.index("src_text") < 0 || c.index("trg_text") < 0)
    throw Error("header has no src_text and trg_text columns", "name the text columns src_text and trg_text")
        .at(name, 1);
  for (size_t i = 0; i < c.names.size(); ++i)
    for (size_t j = i + 1; j < c.names.size(); ++j)
      if (c.names[i] == c.names[j]) throw Error("column " + quote(c.names[i]) + " appears twice in the header").at(name, 1);
}

class TsvLines final : public BitextLines {
 public:
  TsvLines(std::unique_ptr<ByteSource> src, LineLimit limit) : src_(std::move(src)), reader_(*src_, limit) {
    std::string_view first;
    if (reader_.next(first)) {
      columns_ = columns_from_first_line(first);
      if (columns_.header) {
        validate_columns(columns_, src_->name());
      } else {
        pending_ = std::string(first);
        has_pending_ = true;
      }
    } else {
      columns_.names = {"src_text", "trg_text"};
    }
  }
  const TsvColumns& columns() const override { return columns_; }
  bool next(std::string& out) override {
    if (has_pending_) {
      has_pending_ = false;
      out.append(pending_);
      line_ = reader_.line_number();
      pending_.clear();
      return true;
    }
    std::string_view l;
    if (!reader_.next(l)) return false;
    out.append(l);
    line_ = reader_.line_number();
    return true;
  }
  const std::string& name() const override { return src_->name(); }
  uint64_t line_number() const override { return line_; }
  uint64_t raw_bytes_read() const override { return src_->raw_bytes_read(); }
  std::optional<uint64_t> raw_size() const override { return src_->raw_size(); }
  uint64_t long_lines_skipped() const override { return reader_.long_lines_skipped(); }

 private:
  std::unique_ptr<ByteSource> src_;
  LineReader reader_;
  TsvColumns columns_;
  std::string pending_;
  bool has_pending_ = false;
  uint64_t line_ = 0;
};

class LockstepLines final : public BitextLines {
 public:
  LockstepLines(std::unique_ptr<ByteSource> s, std::unique_ptr<ByteSource> t, size_t max_line)
      : src_(std::move(s)), trg_(std::move(t)), rs_(*src_, max_line), rt_(*trg_, max_line) {
    columns_.names = {"src_text", "trg_text"};
  }
  const TsvColumns& columns() const override { return columns_; }
  bool next(std::string& out) override {
    std::string_view a, b;
    bool ha = rs_.next(a);
    size_t before = out.size();
    if (ha) {
      check_no_tab(a, *src_, rs_.line_number());
      out.append(a);
    }
    bool hb = rt_.next(b);
    if (ha != hb) {
      out.resize(before);
      uint64_t ns = rs_.line_number(), nt = rt_.line_number();
      throw ConfigError("line counts differ: " + src_->name() + " has " + std::to_string(ns) + " lines, " +
                           trg_->name() + " has " + std::to_string(nt) + (ha ? "" : " or more"),
                       "the --src and --trg files must be parallel, one sentence per line");
    }
    if (!ha) return false;
    check_no_tab(b, *trg_, rt_.line_number());
    out.push_back('\t');
    out.append(b);
    return true;
  }
  const std::string& name() const override { return src_->name(); }
  uint64_t line_number() const override { return rs_.line_number(); }
  uint64_t raw_bytes_read() const override { return src_->raw_bytes_read() + trg_->raw_bytes_read(); }
  std::optional<uint64_t> raw_size() const override {
    auto a = src_->raw_size(), b = trg_->raw_size();
    if (a && b) return *a + *b;
    return std::nullopt;
  }
  uint64_t long_lines_skipped() const override { return 0; }

 private:
  static void check_no_tab(std::string_view l, const ByteSource& s, uint64_t line) {
    if (l.find('\t') != std::string_view::npos)
      throw Error("tab inside a sentence", "one sentence per line, without tabs").at(s.name(), line);
  }
  std::unique_ptr<ByteSource> src_, trg_;
  LineReader rs_, rt_;
  TsvColumns columns_;
};

}  // namespace

std::unique_ptr<BitextLines> open_tsv_lines(std::unique_ptr<ByteSource> src, LineLimit limit) {
  return std::make_unique<TsvLines>(std::move(src), limit);
}

std::unique_ptr<BitextLines> open_lockstep_lines(const std::string& src_path, const std::string& trg_path,
                                                 LineLimit limit) {
  if ((src_path == "-" || src_path.empty()) && (trg_path == "-" || trg_path.empty()))
    throw ConfigError("--src and --trg cannot both be stdin");
  return std::make_unique<LockstepLines>(open_input(src_path), open_input(trg_path), limit.max_line);
}

BitextReader::BitextReader(std::unique_ptr<BitextLines> lines, bool skip_bad)
    : lines_(std::move(lines)), skip_bad_(skip_bad) {}

bool BitextReader::next(std::vector<std::string_view>& fields) {
  for (;;) {
    line_.clear();
    if (!lines_->next(line_)) return false;
    split_tsv(line_, fields);
    std::string msg = check_row(fields, lines_->columns().size());
    if (msg.empty()) return true;
    if (!skip_bad_) throw Error(msg, "fix the line, or pass --skip-bad to skip such lines").at(lines_->name(), lines_->line_number());
    ++skipped_;
  }
}

void TsvWriter::header(const std::vector<std::string>& names) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out_.put('\t');
    out_.write(names[i]);
  }
  out_.put('\n');
}

void TsvWriter::row(const std::vector<std::string_view>& fields) {
  for (size_t i = 0; i < fields.size(); ++i) {
    auto f = fields[i];
    if (has_tsv_breaker(f))
      throw Error("field " + std::to_string(i + 1) + " contains a tab, newline or NUL: " + quote(f),
                  "TSV fields cannot hold them; replace them first");
    if (i) out_.put('\t');
    out_.write(f);
  }
  out_.put('\n');
}

size_t column_of(const BitextLines& in, std::string_view name) {
  const int c = in.columns().index(name);
  if (c >= 0) return static_cast<size_t>(c);
  std::string have;
  for (const auto& s : in.columns().names) have += (have.empty() ? "" : ", ") + s;
  throw ConfigError("the input has no column " + quote(name) + " (it has " + have + ")",
                    "give --column with one of its columns")
      .at(in.name());
}

}  // namespace corpus
