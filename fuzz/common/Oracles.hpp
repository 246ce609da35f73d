// Cheap checks of what the tools write, shared by the fuzz targets. They run for every input,
// so they validate without building anything: a JSON text is run through nlohmann's SAX
// acceptor (the same strict lexer as json::parse: invalid UTF-8 in a string is an error) rather
// than parsed into a DOM, and UTF-8 is checked byte by byte.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fuzz {

/// The text is one JSON value that json::parse would accept.
bool parsesAsJson(std::string_view text);

/// Why json::parse rejects the text (for the finding's message; only called on a failure).
std::string jsonError(std::string_view text);

/// The bytes are well-formed UTF-8 (Unicode 15, table 3-7: no overlong forms, no surrogates,
/// nothing above U+10FFFF).
bool wellFormedUtf8(std::string_view text);

/// Aborts (a finding) naming `what` unless parsesAsJson(text).
void mustParseJson(std::string_view text, const char* what);

/// Aborts (a finding) naming `what` unless wellFormedUtf8(text).
void mustBeUtf8(std::string_view text, const char* what);

} // namespace fuzz
