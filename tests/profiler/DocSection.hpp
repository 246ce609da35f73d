// The generated sections of docs/formats.md: the text between two marker lines must be exactly
// what the schema renders, or the test names the first differing line and how to regenerate it.
#pragma once

#include <string>

namespace test {

/// Checks that docs/formats.md holds exactly `rendered` between the lines
/// "<!-- <marker>:begin -->" and "<!-- <marker>:end -->". `what` names the section in messages
/// ("schema"); `regenerate` says how to make it again.
void checkDocSection(const std::string& marker, const std::string& what,
                     const std::string& rendered, const std::string& regenerate);

} // namespace test
