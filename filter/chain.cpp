#include "filter/chain.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

#include "libcorpus/core/error.h"
#include "libcorpus/core/split_fields.h"

namespace filter {

namespace {

struct KindName {
  RuleKind kind;
  const char* name;
  // kWord: none, or one word (lid=short); kList: none, or words joined by '+' (spell=de+fr)
  enum Arg { kNone, kWord, kList, kRange, kPair, kNumber, kCount, kText, kThreshold } arg;
};

constexpr KindName kKinds[] = {
    {RuleKind::kLen, "len", KindName::kRange},           {RuleKind::kWords, "words", KindName::kRange},
    {RuleKind::kRatio, "ratio", KindName::kNumber},      {RuleKind::kWordRatio, "wratio", KindName::kPair},
    {RuleKind::kSame, "same", KindName::kNone},
    {RuleKind::kUntranslated, "untranslated", KindName::kNumber},
    {RuleKind::kAlpha, "alpha", KindName::kNumber},      {RuleKind::kDigits, "digits", KindName::kNumber},
    {RuleKind::kUrl, "url", KindName::kNone},            {RuleKind::kNumbers, "numbers", KindName::kNone},
    {RuleKind::kBrackets, "brackets", KindName::kNone},  {RuleKind::kPlaceholders, "placeholders", KindName::kNone},
    {RuleKind::kRepeat, "repeat", KindName::kCount},     {RuleKind::kCaps, "caps", KindName::kNumber},
    {RuleKind::kLid, "lid", KindName::kWord},            {RuleKind::kSpell, "spell", KindName::kList},
    {RuleKind::kScript, "script", KindName::kNone},
    {RuleKind::kAlphabet, "alphabet", KindName::kNone},
    {RuleKind::kDebris, "debris", KindName::kNone},      {RuleKind::kPatterns, "patterns", KindName::kText},
    {RuleKind::kIbm1, "ibm1", KindName::kThreshold},     {RuleKind::kCos, "cos", KindName::kThreshold},
    {RuleKind::kOrder, "order", KindName::kThreshold},   {RuleKind::kNmt, "nmt", KindName::kThreshold},
    {RuleKind::kScore, "score", KindName::kThreshold},   {RuleKind::kMultiway, "multiway", KindName::kCount},   {RuleKind::kDedup, "dedup", KindName::kText},
    {RuleKind::kMaxTrg, "maxtrg", KindName::kCount},     {RuleKind::kMaxSrc, "maxsrc", KindName::kCount},
};

const KindName& info(RuleKind k) {
  for (const auto& kn : kKinds)
    if (kn.kind == k) return kn;
  throw corpus::Error("unknown rule kind");
}

std::string names() {
  std::string s;
  for (const auto& kn : kKinds) s += (s.empty() ? "" : ", ") + std::string(kn.name);
  return "fix, " + s;
}

[[noreturn]] void bad(std::string_view item, const std::string& what) {
  throw corpus::ConfigError(fmt::format("bad chain item '{}': {}", item, what),
                            "items: " + names() + " (see man pc-clean)");
}

double number(std::string_view item, std::string_view v) {
  double d = 0;
  auto r = std::from_chars(v.data(), v.data() + v.size(), d);
  if (v.empty() || r.ec != std::errc() || r.ptr != v.data() + v.size() || !std::isfinite(d))
    bad(item, fmt::format("'{}' is not a number", v));
  return d;
}

std::string num(double d) { return fmt::format("{}", d); }

}  // namespace

std::string Rule::name() const { return info(kind).name; }

std::string Rule::spec() const {
  const KindName& k = info(kind);
  switch (k.arg) {
    case KindName::kNone: return k.name;
    case KindName::kWord: case KindName::kList:
      return arg.empty() ? std::string(k.name) : fmt::format("{}={}", k.name, arg);
    case KindName::kRange: return fmt::format("{}={}:{}", k.name, num(a), num(b));
    case KindName::kPair:
      if (c == a && d == b) return fmt::format("{}={}:{}", k.name, num(a), num(b));
      return fmt::format("{}={}:{}:{}:{}", k.name, num(a), num(b), num(c), num(d));
    case KindName::kNumber: case KindName::kCount: return fmt::format("{}={}", k.name, num(a));
    case KindName::kText: return fmt::format("{}={}", k.name, arg);
    case KindName::kThreshold: return fmt::format("{}>={}", k.name, num(a));
  }
  return k.name;
}

Chain Chain::parse(std::string_view spec) {
  Chain c;
  size_t b = 0;
  while (b <= spec.size()) {
    size_t e = spec.find(',', b);
    if (e == std::string_view::npos) e = spec.size();
    std::string_view item = spec.substr(b, e - b);
    b = e + 1;
    if (item.empty()) {
      if (spec.empty()) break;
      bad(item, "an empty item (two commas, or a comma at an end)");
    }
    std::string_view name = item, value;
    bool ge = false, has_value = false;
    if (size_t p = item.find(">="); p != std::string_view::npos) {
      name = item.substr(0, p);
      value = item.substr(p + 2);
      ge = has_value = true;
    } else if (size_t q = item.find('='); q != std::string_view::npos) {
      name = item.substr(0, q);
      value = item.substr(q + 1);
      has_value = true;
    }
    if (name == "fix") {
      if (ge || !has_value) bad(item, "write fix=all, fix=none or fix=STEP+STEP");
      c.fix = Fixers::parse(value);
      c.has_fix = true;
      continue;
    }
    const KindName* k = nullptr;
    for (const auto& kn : kKinds)
      if (name == kn.name) k = &kn;
    if (!k) bad(item, "unknown rule '" + std::string(name) + "'");
    Rule r;
    r.kind = k->kind;
    switch (k->arg) {
      case KindName::kNone:
        if (has_value) bad(item, std::string(k->name) + " takes no value");
        break;
      case KindName::kWord:  // lid=short: CLD2's best-effort answer on short sides too (filter/lid.h)
        if (has_value && (ge || value != "short")) bad(item, std::string(k->name) + " takes no value but short");
        r.arg = value;
        break;
      case KindName::kList:  // spell=de+fr: the languages a side may wrongly be in
        if (has_value) {
          if (ge) bad(item, "write " + std::string(k->name) + " or " + std::string(k->name) + "=LANG+LANG");
          for (std::string_view l : corpus::split_fields(value, '+'))
            if (l.empty() || !std::all_of(l.begin(), l.end(), [](char ch) {
                  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == '-';
                }))
              bad(item, "languages are codes such as de or pt_BR, joined by '+'");
        }
        r.arg = value;
        break;
      case KindName::kRange: {
        size_t colon = value.find(':');
        if (ge || colon == std::string_view::npos) bad(item, "write " + std::string(k->name) + "=MIN:MAX");
        r.a = number(item, value.substr(0, colon));
        r.b = number(item, value.substr(colon + 1));
        if (r.a < 0 || r.b < r.a) bad(item, "needs 0 <= MIN <= MAX");
        break;
      }
      case KindName::kPair: {
        // W:C, or W:C:W2:C2 (a target shorter than expected, then a longer one).
        const std::vector<std::string_view> f = corpus::split_fields(value, ':');
        if (ge || (f.size() != 2 && f.size() != 4))
          bad(item, "write " + std::string(k->name) + "=W:C or " + std::string(k->name) + "=W:C:W2:C2");
        r.a = number(item, f[0]);
        r.b = number(item, f[1]);
        r.c = f.size() == 4 ? number(item, f[2]) : r.a;
        r.d = f.size() == 4 ? number(item, f[3]) : r.b;
        if (r.a < 1 || r.b < 1 || r.c < 1 || r.d < 1) bad(item, "every ratio is at least 1");
        break;
      }
      case KindName::kNumber: case KindName::kCount:
        if (ge || !has_value) bad(item, "write " + std::string(k->name) + "=VALUE");
        r.a = number(item, value);
        if (r.a < 0) bad(item, "the value must not be negative");
        if (k->arg == KindName::kCount && (r.a < 1 || r.a != std::floor(r.a))) bad(item, "needs a whole number >= 1");
        if (k->kind == RuleKind::kRatio && r.a < 1) bad(item, "a ratio is at least 1");
        if ((k->kind == RuleKind::kAlpha || k->kind == RuleKind::kDigits || k->kind == RuleKind::kCaps ||
             k->kind == RuleKind::kUntranslated) && r.a > 1)
          bad(item, "a share is between 0 and 1");
        break;
      case KindName::kText:
        if (ge || !has_value || value.empty()) bad(item, "write " + std::string(k->name) + "=VALUE");
        r.arg = value;
        if (k->kind == RuleKind::kDedup && value != "exact" && value != "near") bad(item, "write dedup=exact or dedup=near");
        break;
      case KindName::kThreshold:
        if (!ge) bad(item, "write " + std::string(k->name) + ">=THRESHOLD");
        r.a = number(item, value);
        break;
    }
    for (const Rule& o : c.rules)
      if (o.kind == r.kind) bad(item, "rule " + r.name() + " is given twice");
    c.rules.push_back(r);
  }
  return c;
}

std::string Chain::spec() const {
  std::string s;
  if (has_fix) s = "fix=" + fix.spec();
  for (const Rule& r : rules) {
    if (!s.empty()) s += ',';
    s += r.spec();  // not `"," + r.spec()`: gcc 12 warns falsely (-Wrestrict) on that form
  }
  return s;
}

bool Chain::has(RuleKind k) const {
  for (const Rule& r : rules)
    if (r.kind == k) return true;
  return false;
}

Chain Chain::without_lang_rules() const {
  Chain c = *this;
  std::erase_if(c.rules, [](const Rule& r) { return r.needs_langs(); });
  return c;
}

}  // namespace filter
