// The debris rule's test of one side: markup a message would not hold,
// entity debris, and the navigation, cookie and copyright lines of web pages.
#pragma once

#include <string_view>

namespace filter {

// ASCII case-insensitive. Inline tags such as <b> and <i> are not debris
// (the placeholders rule compares them); "«" in the text stops " » " from
// counting as a breadcrumb separator (French quotes, not a path).
bool has_debris(std::string_view s);

}  // namespace filter
