#include "core/NameTerms.hpp"

namespace tessera::viewer {

QStringList nameTerms(const QString& text) {
  QStringList out;
  for (const QString& part : text.split(QLatin1Char(';'))) {
    const QString term = part.trimmed();
    if (!term.isEmpty() && !out.contains(term, Qt::CaseInsensitive)) out << term;
  }
  return out;
}

QRegularExpression nameTermsPattern(const QStringList& terms) {
  QStringList escaped;
  for (const QString& t : terms)
    escaped << QRegularExpression::escape(t);
  return QRegularExpression(escaped.join(QLatin1Char('|')),
                            QRegularExpression::CaseInsensitiveOption);
}

bool matchesAnyTerm(const QString& name, const QStringList& terms) {
  if (terms.isEmpty()) return true;
  for (const QString& t : terms)
    if (name.contains(t, Qt::CaseInsensitive)) return true;
  return false;
}

} // namespace tessera::viewer
