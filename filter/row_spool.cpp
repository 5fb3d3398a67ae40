#include "filter/row_spool.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>

#include "libcorpus/core/error.h"
#include "libcorpus/core/tempfiles.h"

namespace filter {

namespace {
// Fixed part of a spooled row; the head and tail bytes follow it.
struct SpoolRecord {
  uint64_t dedup_key, src_key, trg_key, head_size, tail_size;
  int32_t reason;
};
}  // namespace

RowSpool::RowSpool() : f_(corpus::tempfiles::open_unnamed("pc-clean-spool")) {}

RowSpool::~RowSpool() { std::fclose(f_); }

void RowSpool::write(const void* p, size_t n) {
  if (n && std::fwrite(p, 1, n, f_) != n)
    throw corpus::Error("cannot write the temporary file: " + corpus::errno_text(errno), "is TMPDIR full?");
}

void RowSpool::read(void* p, size_t n) {
  if (n && std::fread(p, 1, n, f_) != n)
    throw corpus::Error("cannot read the temporary file back" +
                        (std::ferror(f_) ? ": " + corpus::errno_text(errno) : std::string(" (short)")));
}

void RowSpool::put(int32_t reason, uint64_t dedup_key, uint64_t src_key, uint64_t trg_key, std::string_view head,
                   std::string_view tail) {
  const SpoolRecord rec{dedup_key, src_key, trg_key, head.size(), tail.size(), reason};
  write(&rec, sizeof rec);
  write(head.data(), head.size());
  write(tail.data(), tail.size());
}

void RowSpool::rewind() {
  if (std::fflush(f_) != 0)
    throw corpus::Error("cannot write the temporary file: " + corpus::errno_text(errno), "is TMPDIR full?");
  std::rewind(f_);
}

bool RowSpool::next(SpooledRow& r) {
  SpoolRecord rec;
  const size_t got = std::fread(&rec, 1, sizeof rec, f_);
  if (got == 0 && !std::ferror(f_)) return false;
  if (got != sizeof rec) throw corpus::Error("cannot read the temporary file back (short)");
  r.reason = rec.reason;
  r.dedup_key = rec.dedup_key;
  r.src_key = rec.src_key;
  r.trg_key = rec.trg_key;
  r.head.resize(rec.head_size);
  r.tail.resize(rec.tail_size);
  read(r.head.data(), rec.head_size);
  read(r.tail.data(), rec.tail_size);
  return true;
}

}  // namespace filter
