// The element names the streaming extractor knows (html_stream.h), with the
// categories of the WHATWG tree-construction rules (§13.2.4.2 "special",
// §13.2.4.3 formatting, the scopes of §13.2.4.2) and of the block model.
//
// The names are gumbo 0.10.1's 150 tags, so that an end tag matches an
// element as gumbo's does: every other name is kUnknown, and gumbo lets
// </x-a> close an open <x-b> (it compares tag numbers). <dialog>, for
// instance, is unknown to gumbo 0.10.1 and so here.
#pragma once

#include <cstdint>
#include <string_view>

namespace corpus::html {

// X(identifier, name, flags)
#define PC_HTML_TAGS(X)                                                                                      \
  X(html, "html", kSpecial | kScope) X(head, "head", kSpecial | kDrop) X(title, "title", kSpecial)          \
  X(base, "base", kSpecial | kVoid) X(link, "link", kSpecial | kVoid) X(meta, "meta", kSpecial | kVoid)     \
  X(style, "style", kSpecial | kDrop) X(script, "script", kSpecial | kDrop)                                \
  X(noscript, "noscript", kSpecial | kDrop) X(template_, "template", kSpecial | kScope | kDrop)             \
  X(body, "body", kSpecial | kBlock) X(article, "article", kSpecial | kClosesP | kBlock)                    \
  X(section, "section", kSpecial | kClosesP | kBlock) X(nav, "nav", kSpecial | kClosesP | kDrop)          \
  X(aside, "aside", kSpecial | kClosesP | kDrop) X(h1, "h1", kSpecial | kClosesP | kBlock | kHeading)      \
  X(h2, "h2", kSpecial | kClosesP | kBlock | kHeading) X(h3, "h3", kSpecial | kClosesP | kBlock | kHeading) \
  X(h4, "h4", kSpecial | kClosesP | kBlock | kHeading) X(h5, "h5", kSpecial | kClosesP | kBlock | kHeading) \
  X(h6, "h6", kSpecial | kClosesP | kBlock | kHeading) X(hgroup, "hgroup", kSpecial | kClosesP | kBlock)    \
  X(header, "header", kSpecial | kClosesP | kDrop) X(footer, "footer", kSpecial | kClosesP | kDrop)        \
  X(address, "address", kSpecial | kClosesP | kBlock) X(p, "p", kSpecial | kClosesP | kBlock | kImplied)    \
  X(hr, "hr", kSpecial | kVoid | kClosesP | kBlock) X(pre, "pre", kSpecial | kClosesP | kBlock)             \
  X(blockquote, "blockquote", kSpecial | kClosesP | kBlock) X(ol, "ol", kSpecial | kClosesP | kBlock)       \
  X(ul, "ul", kSpecial | kClosesP | kBlock) X(li, "li", kSpecial | kBlock | kImplied)                        \
  X(dl, "dl", kSpecial | kClosesP | kBlock) X(dt, "dt", kSpecial | kBlock | kImplied)                        \
  X(dd, "dd", kSpecial | kBlock | kImplied) X(figure, "figure", kSpecial | kClosesP | kBlock)                \
  X(figcaption, "figcaption", kSpecial | kClosesP | kBlock) X(main, "main", kSpecial | kClosesP | kBlock)   \
  X(div, "div", kSpecial | kClosesP | kBlock) X(a, "a", kFormatting) X(em, "em", kFormatting)               \
  X(strong, "strong", kFormatting) X(small, "small", kFormatting) X(s, "s", kFormatting) X(cite, "cite", 0) \
  X(q, "q", 0) X(dfn, "dfn", 0) X(abbr, "abbr", 0) X(data, "data", 0) X(time, "time", 0)                    \
  X(code, "code", kFormatting) X(var, "var", 0) X(samp, "samp", 0) X(kbd, "kbd", 0) X(sub, "sub", 0)        \
  X(sup, "sup", 0) X(i, "i", kFormatting) X(b, "b", kFormatting) X(u, "u", kFormatting) X(mark, "mark", 0)  \
  X(ruby, "ruby", 0) X(rt, "rt", kImplied) X(rp, "rp", kImplied) X(bdi, "bdi", 0) X(bdo, "bdo", 0)          \
  X(span, "span", 0) X(br, "br", kSpecial | kVoid | kBlock) X(wbr, "wbr", kSpecial | kVoid)                 \
  X(ins, "ins", 0) X(del, "del", 0) X(image, "image", kVoid) X(img, "img", kSpecial | kVoid)                \
  X(iframe, "iframe", kSpecial | kDrop) X(embed, "embed", kSpecial | kVoid | kDrop)                         \
  X(object, "object", kSpecial | kScope | kDrop) X(param, "param", kSpecial | kVoid)                        \
  X(video, "video", kDrop) X(audio, "audio", kDrop) X(source, "source", kSpecial | kVoid)                   \
  X(track, "track", kSpecial | kVoid) X(canvas, "canvas", kDrop) X(map, "map", 0)                           \
  X(area, "area", kSpecial | kVoid) X(math, "math", kDrop) X(mi, "mi", 0) X(mo, "mo", 0) X(mn, "mn", 0)     \
  X(ms, "ms", 0) X(mtext, "mtext", 0) X(mglyph, "mglyph", 0) X(malignmark, "malignmark", 0)                 \
  X(annotation_xml, "annotation-xml", 0) X(svg, "svg", kDrop) X(foreignobject, "foreignobject", 0)          \
  X(desc, "desc", 0) X(table, "table", kSpecial | kScope | kClosesP | kBlock)                                        \
  X(caption, "caption", kSpecial | kScope | kBlock) X(colgroup, "colgroup", kSpecial)                       \
  X(col, "col", kSpecial | kVoid) X(tbody, "tbody", kSpecial | kBlock) X(thead, "thead", kSpecial | kBlock)  \
  X(tfoot, "tfoot", kSpecial | kBlock) X(tr, "tr", kSpecial | kBlock) X(td, "td", kSpecial | kScope | kBlock) \
  X(th, "th", kSpecial | kScope | kBlock) X(form, "form", kSpecial | kClosesP | kDrop)                      \
  X(fieldset, "fieldset", kSpecial | kClosesP | kBlock) X(legend, "legend", kBlock) X(label, "label", 0)    \
  X(input, "input", kSpecial | kVoid) X(button, "button", kSpecial | kDrop) X(select, "select", kSpecial | kDrop) \
  X(datalist, "datalist", kDrop) X(optgroup, "optgroup", kImplied) X(option, "option", kBlock | kImplied)    \
  X(textarea, "textarea", kSpecial | kDrop) X(keygen, "keygen", kVoid) X(output, "output", 0)               \
  X(progress, "progress", 0) X(meter, "meter", 0) X(details, "details", kSpecial | kClosesP | kBlock)       \
  X(summary, "summary", kSpecial | kClosesP | kBlock) X(menu, "menu", kSpecial | kClosesP)                  \
  X(menuitem, "menuitem", kVoid) X(applet, "applet", kSpecial | kScope) X(acronym, "acronym", 0)            \
  X(bgsound, "bgsound", kSpecial | kVoid) X(dir, "dir", kSpecial | kClosesP) X(frame, "frame", kSpecial | kVoid) \
  X(frameset, "frameset", kSpecial) X(noframes, "noframes", kSpecial) X(isindex, "isindex", kSpecial | kVoid) \
  X(listing, "listing", kSpecial | kClosesP) X(xmp, "xmp", kSpecial | kClosesP) X(nextid, "nextid", 0)                 \
  X(noembed, "noembed", kSpecial) X(plaintext, "plaintext", kSpecial | kClosesP) X(rb, "rb", kImplied)      \
  X(strike, "strike", kFormatting) X(basefont, "basefont", kSpecial | kVoid) X(big, "big", kFormatting)     \
  X(blink, "blink", 0) X(center, "center", kSpecial | kClosesP | kBlock) X(font, "font", kFormatting)       \
  X(marquee, "marquee", kSpecial | kScope) X(multicol, "multicol", 0) X(nobr, "nobr", kFormatting)          \
  X(spacer, "spacer", 0) X(tt, "tt", kFormatting) X(rtc, "rtc", kImplied)

enum Flag : uint16_t {
  kSpecial = 1,      // §13.2.4.2 "special": stops the "any other end tag" walk
  kScope = 2,        // a boundary of "has an element in scope"
  kFormatting = 4,   // §13.2.4.3 formatting elements (only <a> is tracked as one)
  kVoid = 8,         // no end tag, never on the stack
  kClosesP = 16,     // its start tag closes a <p> in button scope
  kImplied = 32,     // §13.2.6.3 "generate implied end tags"
  kBlock = 64,       // block model: ends a paragraph where it starts and ends
  kDrop = 128,       // block model: its content is not text
  kHeading = 256,    // h1-h6
};

enum Tag : uint8_t {
#define PC_HTML_TAG_ENUM(id, name, flags) id,
  PC_HTML_TAGS(PC_HTML_TAG_ENUM)
#undef PC_HTML_TAG_ENUM
  kUnknown,
  kTagCount
};

uint16_t tag_flags(Tag t);
std::string_view tag_name(Tag t);
// `name` in ASCII lower case; kUnknown for a name gumbo does not know.
Tag tag_from_name(std::string_view name);

}  // namespace corpus::html
