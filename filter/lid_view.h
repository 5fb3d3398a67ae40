// The words of one side that tell its language, for the lid rule's CLD2
// check. Catalogue and web strings carry names, options, codes and command
// syntax that are words of no language: "Cdrom con Ubuntu 10.04 «Lucid
// Lynx»", "ulimit [-SHabcdefiklmnpqrstuvxPRT] [límite]", "code
// ExecStatusType invalide". An identifier judging them judges the names
// (docs/clean.md has what the view gained on the valid pairs, and why the
// fastText model still sees the whole side). The view
// leaves out, per white-space token:
//  - tokens inside or holding [ ], { } or < > (synopses, placeholders,
//    markup);
//  - tokens that, without their quotes, brackets and sentence punctuation,
//    do not start with a letter (-x, --foo, /usr, %s, $HOME, `cmd`);
//  - tokens the other side has too, ignoring case (copied names and terms:
//    "Lucid Lynx", "ulimit", "Cdrom");
// and then, per part between hyphens, the parts that are not words: a
// digit or any character other than letters, marks and apostrophes
// (10.04, LZMA1, file.txt, foo_bar, fork()), a capital after the first
// letter (SCRAM, ExecStatusType, PQexec) unless most letters of the side
// are capitals (a side in upper case is words, not acronyms), or a part
// the other side has.
// Not for scripts written without spaces (a token there is a clause): the
// rule gives those sides to the identifiers whole.
#pragma once

#include <string>
#include <string_view>

namespace filter {

// The words of `side` kept, by single spaces, without their outer
// punctuation; the parts of a hyphenated word are judged one by one
// ("GSSAPI-Unwrap-Fehler" -> "Fehler", "Inconnue-13" -> "Inconnue").
// `side` and `other` (the pair's other side) are valid UTF-8.
std::string lid_view(std::string_view side, std::string_view other);
// Both views of a pair, each side read once.
void lid_views(std::string_view src, std::string_view trg, std::string& src_view, std::string& trg_view);

}  // namespace filter
