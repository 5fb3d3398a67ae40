#include "libcorpus/ingest/ingest_source.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

#include <fmt/format.h>

#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/warc.h"

namespace corpus {

namespace fs = std::filesystem;

std::string mime_for_filename(const std::string& name) {
  std::string ext = fs::path(name).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".html" || ext == ".htm" || ext == ".xhtml" || ext == ".shtml") return "text/html";
  if (ext == ".txt" || ext == ".text") return "text/plain";
  return "";
}

namespace {

class WarcItems : public ItemSource {
 public:
  WarcItems(std::unique_ptr<ByteSource> src, uint64_t max_size)
      : src_(std::move(src)), reader_(*src_, max_size), input_(src_->name()) {}

  bool next(IngestItem& it) override {
    if (done_) return false;
    if (need_resync_) {
      need_resync_ = false;
      try {
        if (!reader_.resync()) return false;
      } catch (const Error&) {
        return false;  // the stream itself is broken (already reported)
      }
    }
    WarcRecord rec;
    it = IngestItem{};
    it.input = input_;
    it.is_warc = true;
    try {
      if (!reader_.next(rec)) return false;
    } catch (const Error& e) {
      it.number = reader_.records();
      it.bad = e.what();
      need_resync_ = true;
      return true;
    }
    it.number = rec.number;
    it.url = std::string(rec.header("WARC-Target-URI"));
    if (it.url.size() >= 2 && it.url.front() == '<' && it.url.back() == '>') it.url = it.url.substr(1, it.url.size() - 2);
    it.warc_type = std::string(rec.type());
    it.warc_content_type = std::string(rec.header("Content-Type"));
    it.date = std::string(rec.header("WARC-Date"));
    it.offset = rec.offset;
    it.length = rec.content_length;
    it.oversize = rec.oversize;
    it.data = std::move(rec.block);
    return true;
  }
  uint64_t position() const override { return reader_.position(); }

 private:
  std::unique_ptr<ByteSource> src_;
  WarcReader reader_;
  std::string input_;
  bool need_resync_ = false;
  bool done_ = false;
};

std::string archive_message(archive* a) {
  const char* m = archive_error_string(a);
  return m ? m : "unknown error";
}

class ArchiveItems : public ItemSource {
 public:
  ArchiveItems(std::unique_ptr<ByteSource> src, uint64_t max_size) : src_(std::move(src)), max_(max_size) {
    a_ = archive_read_new();
    archive_read_support_format_tar(a_);
    archive_read_support_format_zip(a_);
    archive_read_support_filter_none(a_);
    buf_.resize(1 << 16);
    if (archive_read_open(a_, this, nullptr, &ArchiveItems::read_cb, nullptr) != ARCHIVE_OK)
      throw Error(std::string("cannot read the archive: ") + archive_error_string(a_)).at(src_->name());
  }
  ~ArchiveItems() override { archive_read_free(a_); }

  bool next(IngestItem& it) override {
    if (done_) return false;
    for (;;) {
      archive_entry* e = nullptr;
      int rc;
      try {
        rc = archive_read_next_header(a_, &e);
      } catch (const Error& err) {
        return bad(it, err.what());
      }
      if (rc == ARCHIVE_EOF) return false;
      if (rc < ARCHIVE_WARN) return bad(it, std::string("bad archive: ") + archive_message(a_));
      ++number_;
      if (archive_entry_filetype(e) != AE_IFREG) continue;
      it = IngestItem{};
      it.input = src_->name();
      it.number = number_;
      it.url = src_->name() + "!/" + archive_entry_pathname(e);
      it.length = archive_entry_size_is_set(e) ? static_cast<uint64_t>(archive_entry_size(e)) : 0;
      if (archive_entry_size_is_set(e) && it.length > max_) {
        it.oversize = true;
        return true;
      }
      for (;;) {
        la_ssize_t n;
        try {
          n = archive_read_data(a_, buf_.data(), buf_.size());
        } catch (const Error& err) {
          return bad(it, err.what());
        }
        if (n == 0) break;
        if (n < 0) return bad(it, std::string("bad archive entry: ") + archive_message(a_));
        if (it.data.size() + static_cast<size_t>(n) > max_) {
          it.oversize = true;
          it.data.clear();
          archive_read_data_skip(a_);
          break;
        }
        it.data.append(buf_.data(), static_cast<size_t>(n));
      }
      if (!it.oversize) it.length = it.data.size();
      return true;
    }
  }
  uint64_t position() const override { return static_cast<uint64_t>(archive_filter_bytes(a_, -1)); }

 private:
  bool bad(IngestItem& it, std::string msg) {
    it = IngestItem{};
    it.input = src_->name();
    it.number = number_;
    it.bad = std::move(msg);
    done_ = true;  // archives cannot resync
    return true;
  }
  static la_ssize_t read_cb(archive*, void* self, const void** out) {
    auto* me = static_cast<ArchiveItems*>(self);
    *out = me->rbuf_;
    try {
      return static_cast<la_ssize_t>(me->src_->read(me->rbuf_, sizeof me->rbuf_));
    } catch (const Error& e) {
      archive_set_error(me->a_, EIO, "%s", e.what());
      return -1;
    }
  }

  std::unique_ptr<ByteSource> src_;
  uint64_t max_;
  archive* a_ = nullptr;
  std::string buf_;
  char rbuf_[1 << 16];
  uint64_t number_ = 0;
  bool done_ = false;
};

struct FolderEntry {
  std::string path;
  bool link_skipped = false;  // a symbolic link, not followed
  bool operator<(const FolderEntry& o) const { return path < o.path; }
};

class FileItems : public ItemSource {
 public:
  FileItems(std::vector<FolderEntry> files, std::string input, uint64_t max_size)
      : files_(std::move(files)), input_(std::move(input)), max_(max_size) {}

  bool next(IngestItem& it) override {
    if (i_ >= files_.size()) return false;
    const FolderEntry& e = files_[i_++];
    const std::string& f = e.path;
    it = IngestItem{};
    it.input = input_;
    it.number = i_;
    it.url = f;
    if (e.link_skipped) {
      it.skipped = "symlink not followed";
      return true;
    }
    std::error_code ec;
    uint64_t size = fs::file_size(f, ec);
    if (ec) throw Error(ec.message()).at(f);
    it.length = size;
    if (size > max_) {
      it.oversize = true;
      return true;
    }
    auto src = open_input(f);
    it.data.resize(static_cast<size_t>(std::min<uint64_t>(size, max_)) + 1);
    size_t got = 0;
    for (;;) {
      if (got == it.data.size()) it.data.resize(it.data.size() * 2);
      size_t n = src->read(it.data.data() + got, it.data.size() - got);
      if (n == 0) break;
      got += n;
      if (got > max_) {  // a compressed file that expands past the limit
        it.oversize = true;
        it.data.clear();
        return true;
      }
    }
    it.data.resize(got);
    pos_ += size;
    return true;
  }
  uint64_t position() const override { return pos_; }

 private:
  std::vector<FolderEntry> files_;
  std::string input_;
  uint64_t max_;
  size_t i_ = 0;
  uint64_t pos_ = 0;
};

// An input of no known kind: one bad item, so that --skip-bad can go on.
class UnknownInput : public ItemSource {
 public:
  explicit UnknownInput(std::string path) : path_(std::move(path)) {}
  bool next(IngestItem& it) override {
    if (done_) return false;
    done_ = true;
    it = IngestItem{};
    it.input = path_;
    it.bad = "not a WARC file, a tar or zip archive, a folder, or an .html/.txt file";
    return true;
  }
  uint64_t position() const override { return 0; }

 private:
  std::string path_;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<ItemSource> open_items(const std::string& path, uint64_t max_size, bool follow_symlinks) {
  std::error_code ec;
  if (path != "-" && !path.empty() && fs::is_directory(path, ec)) {
    std::vector<FolderEntry> files;
    const auto opts = follow_symlinks ? fs::directory_options::follow_directory_symlink : fs::directory_options::none;
    for (auto it = fs::recursive_directory_iterator(path, opts, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      const bool kept_name = !mime_for_filename(it->path().string()).empty();
      if (!follow_symlinks && it->is_symlink(ec)) {
        // Counted when it would have been read: a file of a kept kind, or a folder.
        if (kept_name || it->is_directory(ec)) files.push_back({it->path().string(), true});
        continue;
      }
      if (it->is_regular_file(ec) && kept_name) files.push_back({it->path().string(), false});
    }
    if (ec) throw Error(ec.message()).at(path);
    std::sort(files.begin(), files.end());
    return std::make_unique<FileItems>(std::move(files), path, max_size);
  }
  auto src = std::make_unique<PeekableSource>(open_input(path));
  std::string_view head = src->peek(512);
  if (head.empty() || head.substr(0, 5) == "WARC/") return std::make_unique<WarcItems>(std::move(src), max_size);
  if (head.substr(0, 4) == "PK\x03\x04" || head.substr(0, 4) == "PK\x05\x06" ||
      (head.size() >= 262 && head.substr(257, 5) == "ustar"))
    return std::make_unique<ArchiveItems>(std::move(src), max_size);
  if (path != "-" && !mime_for_filename(path).empty())
    return std::make_unique<FileItems>(std::vector<FolderEntry>{{path, false}}, path, max_size);
  return std::make_unique<UnknownInput>(path.empty() ? "-" : path);
}

}  // namespace corpus
