#include "filter/fasttext_lid.h"

#include <fasttext/fasttext.h>
#include <fmt/format.h>
#include <unicode/locid.h>

#include <cctype>
#include <cmath>
#include <cerrno>
#include <fstream>
#include <iterator>
#include <sstream>

#include "filter/fasttext_format.h"
#include "filter/rules.h"
#include "libcorpus/core/error.h"

namespace filter {
namespace {

// checkModel() is protected: a loader that reads from a stream fastText's
// own way (magic and version first, then the rest).
class Loader : public fasttext::FastText {
 public:
  void load(std::istream& in) {
    if (!checkModel(in)) throw corpus::Error("not a fastText model file");
    loadModel(in);
  }
};

}  // namespace

std::string language_code(std::string_view code) {
  std::string p(primary_language(code));
  for (char& c : p) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (p.size() != 2) return p;
  const char* three = icu::Locale(p.c_str()).getISO3Language();
  return three != nullptr && *three != '\0' ? std::string(three) : p;
}

FastTextLid::FastTextLid(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw corpus::Error(corpus::errno_text(errno)).at(path);
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) throw corpus::Error("read error: " + corpus::errno_text(errno)).at(path);
  FastTextShape shape;
  try {
    shape = check_fasttext_model(bytes);
  } catch (corpus::Error& e) {
    throw e.at(path);
  }
  auto loader = std::make_unique<Loader>();
  try {
    std::istringstream in(std::move(bytes));
    loader->load(in);
  } catch (const std::exception& e) {
    throw corpus::Error(fmt::format("fastText could not load the model: {}", e.what())).at(path);
  }
  const auto dict = loader->getDictionary();
  constexpr std::string_view kPrefix = "__label__";
  for (int32_t i = 0; i < shape.labels; ++i) {
    std::string l = dict->getLabel(i);
    if (std::string_view(l).starts_with(kPrefix)) l.erase(0, kPrefix.size());
    codes_.push_back(language_code(l));
    labels_.push_back(std::move(l));
  }
  model_ = std::move(loader);
}

FastTextLid::~FastTextLid() = default;

std::vector<FastTextLid::Guess> FastTextLid::predict(std::string_view text) const {
  // What predictLine does, keeping label indices rather than copying names.
  std::istringstream in(std::string(text) + "\n");
  std::vector<int32_t> words, unused;
  fasttext::Predictions out;
  try {
    model_->getDictionary()->getLine(in, words, unused);
    model_->predict(-1, words, out, 0.0);
  } catch (const std::exception& e) {  // the file check leaves fastText nothing to throw on; a last guard
    throw corpus::Error(fmt::format("fastText failed on a prediction: {}", e.what()));
  }
  std::vector<Guess> g;
  g.reserve(out.size());
  for (const auto& [logp, i] : out) g.push_back({labels_[i], codes_[i], std::exp(logp)});
  return g;
}

}  // namespace filter
