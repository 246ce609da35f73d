#include "core/ItemRangeText.hpp"

#include <QCoreApplication>
#include <QRegularExpression>
#include <cmath>

namespace tessera::viewer {

namespace {
QString tr(const char* text) {
  return QCoreApplication::translate("ItemRangeText", text);
}
} // namespace

std::optional<TypedRange> parseItemRange(const QString& text, std::size_t domainFirst,
                                         std::size_t domainLast, const QString& noun,
                                         QString* error) {
  static const QRegularExpression pattern(
      QStringLiteral(R"(^\s*(\d+)\s*(?:(?:-|–|\.\.|to)\s*(\d+)\s*)?$)"),
      QRegularExpression::CaseInsensitiveOption);
  const QRegularExpressionMatch m = pattern.match(text);
  auto fail = [&](const QString& message) -> std::optional<TypedRange> {
    if (error) *error = message;
    return std::nullopt;
  };
  if (!m.hasMatch())
    return fail(tr("'%1' is not a range: type first-last, e.g. 100-200, or one %2")
                    .arg(text.trimmed(), noun));
  bool ok1 = false, ok2 = true;
  const qulonglong a = m.captured(1).toULongLong(&ok1);
  const qulonglong b = m.captured(2).isEmpty() ? a : m.captured(2).toULongLong(&ok2);
  if (!ok1 || !ok2) return fail(tr("'%1' is too large").arg(text.trimmed()));
  if (domainLast <= domainFirst) return fail(tr("nothing to show"));
  if (b < a) return fail(tr("%1 %2 comes before %3").arg(noun).arg(b).arg(a));
  if (a < domainFirst || b >= domainLast)
    return fail(tr("%1s %2-%3 are shown here").arg(noun).arg(domainFirst).arg(domainLast - 1));
  return TypedRange{std::size_t(a), std::size_t(b), m.captured(2).isEmpty()};
}

QString formatItemRange(double from, double to) {
  const long long a = std::llround(std::floor(from));
  const long long b = std::max(a, std::llround(std::ceil(to)) - 1);
  return QStringLiteral("%1-%2").arg(a).arg(b);
}

} // namespace tessera::viewer
