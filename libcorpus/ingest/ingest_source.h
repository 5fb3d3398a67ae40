// The inputs pc-ingest reads, as one stream of items: WARC records (gz, zst
// or plain; WARC/1.0 and 1.1), entries of tar and zip archives, files of a
// folder (recursively, in byte order of their paths), or one HTML/text file.
// The kind is recognised from the data, not the name (a folder is a folder).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace corpus {

struct IngestItem {
  std::string input;         // the input path, for messages and `warc.file`
  uint64_t number = 0;       // 1-based record / entry number within the input
  std::string url;           // WARC-Target-URI, or the file's path
  bool is_warc = false;
  std::string warc_type;     // WARC-Type
  std::string warc_content_type;
  std::string date;          // WARC-Date
  uint64_t offset = 0;       // WARC: record offset in the decompressed stream
  uint64_t length = 0;       // WARC: Content-Length; files: size
  std::string data;          // WARC block, or the file's bytes
  bool oversize = false;     // over the size limit: `data` was not read
  std::string bad;           // what is wrong with a malformed record, or ""
  std::string skipped;       // an item not read on purpose, as its outcome ("symlink not followed"), or ""
};

class ItemSource {
 public:
  virtual ~ItemSource() = default;
  // The next item; false at the end. A malformed record comes back with
  // `bad` set; reading resumes at the next record when that is possible.
  virtual bool next(IngestItem& item) = 0;
  // Decompressed bytes consumed, for progress.
  virtual uint64_t position() const = 0;
};

// Opens `path` ("-" = stdin). Items larger than `max_size` are not read.
// In a folder, a symbolic link (to a file or a folder) is an item with
// `skipped` set unless `follow_symlinks`: a link may point anywhere on the
// machine (folder/x.txt -> /etc/passwd). Throws Error when the input cannot
// be opened or is of no known kind.
std::unique_ptr<ItemSource> open_items(const std::string& path, uint64_t max_size, bool follow_symlinks = false);

// The MIME type a file name implies (.html .htm .xhtml -> text/html, .txt ->
// text/plain), or "".
std::string mime_for_filename(const std::string& name);

}  // namespace corpus
