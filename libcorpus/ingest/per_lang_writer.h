// --split-by-lang: one output file per language in a folder, written without
// holding a descriptor per language. Lines are buffered per language and
// appended in chunks (each chunk its own gzip member or zstd frame for
// .gz/.zst suffixes), opening one file at a time; files live under temporary
// names until commit() renames them, as corpus::Output does.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace corpus {

class LangSplitWriter {
 public:
  // Files are DIR/LANG + suffix (suffix ".jsonl", ".jsonl.gz" or ".jsonl.zst").
  LangSplitWriter(std::string dir, std::string suffix, size_t buffer_bytes = 32u << 20);
  ~LangSplitWriter();  // removes the temporary files unless committed
  LangSplitWriter(const LangSplitWriter&) = delete;
  LangSplitWriter& operator=(const LangSplitWriter&) = delete;

  void write(const std::string& lang, std::string_view line);  // adds '\n'
  void commit();

 private:
  void flush(const std::string& lang, std::string& buf);
  // The language's temporary (.LANG.SUFFIX.tmp-HOST-PID-XXXXXX, core/tempfiles.h),
  // made on first use.
  const std::string& temp_path(const std::string& lang);

  std::string dir_, suffix_;
  std::map<std::string, std::string> tmp_;  // language -> its temporary
  size_t cap_, buffered_ = 0;
  std::map<std::string, std::string> bufs_;
  bool committed_ = false;
};

}  // namespace corpus
