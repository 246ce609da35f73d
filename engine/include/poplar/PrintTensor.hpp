// How program::PrintTensor lays a tensor out: summarising, line width, float format, brackets.
#pragma once

namespace poplar {

/// Formatting of program::PrintTensor output. The defaults print
///   title: [1.0000000 1.5000000 2.0000000]
/// for a vector and one row per line for a matrix:
///   title: [
///    [5.0000000 4.5000000]
///    [4.0000000 3.5000000]
///   ]
struct PrintTensorFmt {
  enum class FloatFormat {
    Auto = 0,       ///< fixed, or scientific when the magnitudes need it; one precision for all
    Fixed = 1,      ///< fixed point with `digits` significant digits for the largest magnitude
    Scientific = 2, ///< d.ddddddde+XX
    None = 3,       ///< each element on its own, shortest form with `digits` significant digits
  };

  /// summariseThreshold: tensors with more elements show only `edgeItems` at each end of each
  /// dimension, with "..." between (0: never summarise). maxLineWidth: longer lines wrap after a
  /// separator (0: never wrap). digits: significant digits of floats (0: no common format or
  /// alignment: each element printed on its own).
  PrintTensorFmt(unsigned summariseThreshold_ = 1000, unsigned edgeItems_ = 3,
                 unsigned maxLineWidth_ = 75, unsigned digits_ = 8,
                 FloatFormat floatFormat_ = FloatFormat::Auto, char separator_ = ' ',
                 char openBracket_ = '[', char closeBracket_ = ']')
      : summariseThreshold(summariseThreshold_), edgeItems(edgeItems_), maxLineWidth(maxLineWidth_),
        digits(digits_), floatFormat(floatFormat_), separator(separator_),
        openBracket(openBracket_), closeBracket(closeBracket_) {}

  unsigned summariseThreshold;
  unsigned edgeItems;
  unsigned maxLineWidth;
  unsigned digits;
  FloatFormat floatFormat;
  char separator;
  char openBracket;
  char closeBracket;
};

} // namespace poplar
