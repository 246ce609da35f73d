// The range box of the navigation strip (charts/RangeOverview): the items a chart shows, typed
// as text. "100-200" shows tiles (or steps) 100 to 200, both included; one number centres the
// view on that item at the present zoom.
//
// Threads: any. Cost: linear in the text.
#pragma once

#include <QString>
#include <cstddef>
#include <optional>

namespace tessera::viewer {

struct TypedRange {
  std::size_t first = 0, last = 0; ///< items [first, last]; first == last for one number
  bool single = false;             ///< one number was typed
};

/// Parses "a-b" (also "a–b", "a..b", "a to b", spaces allowed) or "a" for a domain of items
/// [domainFirst, domainLast). nullopt with *error set ("tile 2000 is past the last, 1471") when
/// the text is not a range of the domain; `noun` names the items in the message.
std::optional<TypedRange> parseItemRange(const QString& text, std::size_t domainFirst,
                                         std::size_t domainLast, const QString& noun,
                                         QString* error);
/// The visible items [from, to) as the box shows them: "100-200" (whole items touched).
QString formatItemRange(double from, double to);

} // namespace tessera::viewer
