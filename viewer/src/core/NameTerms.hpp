// The name boxes (Memory's and Liveness's Variables boxes) take several names at once, separated
// by ';': "layer1/weights; layer2/weights" picks two groups of variables, each charted as its
// own series. A term matches every name containing it, ignoring case.
//
// Threads: any. Cost: linear in the text.
#pragma once

#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace tessera::viewer {

/// The terms of a box's text: split at ';', trimmed, empty ones and repeats (ignoring case)
/// dropped, in the order typed.
QStringList nameTerms(const QString& text);
/// Matches a name containing any of the terms, ignoring case (no term: matches everything).
QRegularExpression nameTermsPattern(const QStringList& terms);
/// Whether `name` contains any of the terms, ignoring case (no term: true).
bool matchesAnyTerm(const QString& name, const QStringList& terms);

} // namespace tessera::viewer
