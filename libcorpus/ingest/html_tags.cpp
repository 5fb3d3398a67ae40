#include "libcorpus/ingest/html_tags.h"

#include <array>

namespace corpus::html {

namespace {

struct TagInfo {
  std::string_view name;
  uint16_t flags;
};

constexpr TagInfo kTagInfo[] = {
#define PC_HTML_TAG_INFO(id, name, flags) {name, flags},
    PC_HTML_TAGS(PC_HTML_TAG_INFO)
#undef PC_HTML_TAG_INFO
    {"", 0},
};
static_assert(std::size(kTagInfo) == kTagCount);

// Names -> tags through a small open-addressing table (every tag is looked up).
class TagIndex {
 public:
  TagIndex() {
    slots_.fill(kEmpty);
    for (uint8_t i = 0; i < kUnknown; ++i) {
      size_t h = hash(kTagInfo[i].name) & kMask;
      while (slots_[h] != kEmpty) h = (h + 1) & kMask;
      slots_[h] = i;
    }
  }
  Tag find(std::string_view name) const {
    if (name.empty() || name.size() > 14) return kUnknown;  // "annotation-xml" is the longest
    for (size_t h = hash(name) & kMask;; h = (h + 1) & kMask) {
      if (slots_[h] == kEmpty) return kUnknown;
      if (kTagInfo[slots_[h]].name == name) return static_cast<Tag>(slots_[h]);
    }
  }

 private:
  static constexpr size_t kSlots = 1024, kMask = kSlots - 1;
  static constexpr uint8_t kEmpty = 0xFF;
  static size_t hash(std::string_view s) {
    size_t h = 2166136261u;
    for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
    return h ^ (h >> 11);
  }
  std::array<uint8_t, kSlots> slots_{};
};

}  // namespace

uint16_t tag_flags(Tag t) { return kTagInfo[t].flags; }
std::string_view tag_name(Tag t) { return kTagInfo[t].name; }

Tag tag_from_name(std::string_view name) {
  static const TagIndex index;
  return index.find(name);
}

}  // namespace corpus::html
