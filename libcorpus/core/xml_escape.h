// Escaping text for XML 1.0 element content and attribute values.
#pragma once

#include <string>
#include <string_view>

namespace corpus {

// Appends `s` to `out` with & < > (and " in attributes) escaped, and CR written
// as &#xD; so that it survives parsing. Returns false, appending nothing, if
// `s` holds a character XML 1.0 cannot carry (C0 controls other than TAB, LF,
// CR; U+FFFE; U+FFFF); `bad` then gets its byte offset.
bool append_xml_escaped(std::string& out, std::string_view s, bool attribute, size_t* bad = nullptr);

}  // namespace corpus
