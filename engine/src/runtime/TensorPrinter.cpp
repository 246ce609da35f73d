#include "TensorPrinter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <poplar/exceptions.hpp>

namespace poplar::detail::runtime {
namespace {

using FloatFormat = PrintTensorFmt::FloatFormat;

/// The elements shown along a dimension of `size`: all of them, or the first and last
/// `edge` with a gap between when the tensor is summarised.
struct ShownRange {
  std::size_t size, edge;
  bool summarised;
  bool gapAfter(std::size_t k) const { return summarised && k == edge - 1; }
  std::size_t next(std::size_t k) const { return gapAfter(k) ? size - edge : k + 1; }
};

/// `v` printed with `format` ("%.*f", "%.*e"). A double carries 17 significant digits, so more
/// than 64 decimals only pad zeros; the cap also keeps a hostile precision (an executable's, or a
/// user's PrintTensorFmt) from making the C library allocate gigabytes. The text is sized by a
/// first pass: %f of a large double has over 300 digits.
constexpr int kMaxPrecision = 64;

std::string printf1(const char* format, int precision, double v) {
  precision = std::clamp(precision, 0, kMaxPrecision);
  const int n = std::snprintf(nullptr, 0, format, precision, v);
  if (n <= 0) return {};
  std::string text(static_cast<std::size_t>(n) + 1, '\0');
  std::snprintf(text.data(), text.size(), format, precision, v);
  text.resize(static_cast<std::size_t>(n));
  return text;
}

/// One element's text, before alignment. All elements of a tensor share `decimals` and
/// `scientific` unless the format is None. Digits are capped as printf1 caps precision, so that
/// an executable's 2^31 digits cannot overflow the arithmetic on them.
class ElementFormatter {
public:
  ElementFormatter(Type type, const PrintTensorFmt& fmt, const std::vector<double>& shown)
      : isFloat_(type.isFloatingPoint()),
        digits_(std::min(fmt.digits, static_cast<unsigned>(kMaxPrecision))),
        format_(fmt.floatFormat) {
    if (digits_ == 0) format_ = FloatFormat::None; // no common format, no alignment
    if (!isFloat_ || format_ == FloatFormat::None) return;
    double maxAbs = 0, minNonZero = HUGE_VAL;
    for (double v : shown)
      if (std::isfinite(v)) {
        maxAbs = std::max(maxAbs, std::fabs(v));
        if (v != 0) minNonZero = std::min(minNonZero, std::fabs(v));
      }
    scientific_ =
        format_ == FloatFormat::Scientific ||
        (format_ == FloatFormat::Auto && (maxAbs >= std::pow(10.0, digits_) || minNonZero < 1e-4));
    const int integerDigits =
        maxAbs >= 1 ? static_cast<int>(std::floor(std::log10(maxAbs))) + 1 : 1;
    decimals_ = scientific_ ? static_cast<int>(digits_) - 1
                            : std::max(0, static_cast<int>(digits_) - integerDigits);
  }

  std::string operator()(double v) const {
    if (!isFloat_) return std::to_string(static_cast<long long>(v));
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    if (format_ == FloatFormat::None)
      return printf1("%.*g", digits_ ? static_cast<int>(digits_) : 6, v);
    return printf1(scientific_ ? "%.*e" : "%.*f", decimals_, v);
  }

  bool aligned() const { return digits_ != 0; }

private:
  bool isFloat_;
  unsigned digits_;
  FloatFormat format_;
  bool scientific_ = false;
  int decimals_ = 0;
};

class Layout {
public:
  Layout(const std::vector<std::size_t>& shape, const PrintTensorFmt& fmt, bool summarise)
      : shape_(shape), fmt_(fmt) {
    strides_.assign(shape.size(), 1);
    for (std::size_t d = shape.size(); d-- > 1;)
      strides_[d - 1] = strides_[d] * shape[d];
    for (std::size_t size : shape)
      ranges_.push_back({size, fmt.edgeItems,
                         summarise && fmt.edgeItems > 0 && size > 2 * std::size_t(fmt.edgeItems)});
  }

  /// Offsets of the elements shown, in printing order.
  std::vector<std::size_t> shownOffsets() const {
    std::vector<std::size_t> out;
    std::function<void(std::size_t, std::size_t)> walk = [&](std::size_t d, std::size_t base) {
      if (d == shape_.size()) return out.push_back(base);
      for (std::size_t k = 0; k < shape_[d]; k = ranges_[d].next(k))
        walk(d + 1, base + k * strides_[d]);
    };
    walk(0, 0);
    return out;
  }

  /// Lays the tensor out after `prefix` ("title: "), elements already formatted and aligned.
  std::string render(const std::string& prefix, const std::vector<std::string>& text) {
    out_ = prefix;
    column_ = prefix.size();
    next_ = 0;
    text_ = &text;
    if (shape_.empty())
      out_ += text[0];
    else
      dimension(0);
    out_ += '\n';
    return out_;
  }

private:
  void put(const std::string& s) {
    out_ += s;
    column_ += s.size();
  }
  void newLine(std::size_t indent) {
    out_ += '\n';
    out_.append(indent, ' ');
    column_ = indent;
  }

  void dimension(std::size_t d) {
    put(std::string(1, fmt_.openBracket));
    const std::size_t size = shape_[d];
    if (d + 1 == shape_.size()) {
      row(d, size);
    } else if (size > 0) {
      // Rows of a matrix (and deeper): one per line, indented by depth.
      for (std::size_t k = 0; k < size; k = ranges_[d].next(k)) {
        newLine(d + 1);
        dimension(d + 1);
        if (ranges_[d].gapAfter(k)) {
          newLine(d + 1);
          put("...");
        }
      }
      newLine(d);
    }
    put(std::string(1, fmt_.closeBracket));
  }

  /// The innermost dimension: elements with separators, wrapped at maxLineWidth.
  void row(std::size_t d, std::size_t size) {
    bool first = true;
    auto element = [&](const std::string& s) {
      if (!first) {
        const bool wrap = fmt_.maxLineWidth && column_ + 1 + s.size() + 1 > fmt_.maxLineWidth;
        if (wrap) {
          if (fmt_.separator != ' ') put(std::string(1, fmt_.separator));
          newLine(d + 2);
        } else {
          put(std::string(1, fmt_.separator));
        }
      }
      put(s);
      first = false;
    };
    for (std::size_t k = 0; k < size; k = ranges_[d].next(k)) {
      element((*text_)[next_++]);
      if (ranges_[d].gapAfter(k)) element("...");
    }
  }

  const std::vector<std::size_t>& shape_;
  const PrintTensorFmt& fmt_;
  std::vector<std::size_t> strides_;
  std::vector<ShownRange> ranges_;
  std::string out_;
  std::size_t column_ = 0, next_ = 0;
  const std::vector<std::string>* text_ = nullptr;
};

} // namespace

std::string formatTensor(const std::string& title, Type type, const std::vector<double>& values,
                         const std::vector<std::size_t>& shape, const PrintTensorFmt& fmt) {
  // The layout walks the shape over the values: a shape holding other than values.size()
  // elements would read past them (or, for a scalar of nothing, read none that exists).
  std::size_t elements = 1;
  for (std::size_t d : shape)
    if (__builtin_mul_overflow(elements, d, &elements)) elements = SIZE_MAX;
  if (elements != values.size())
    throw poplar_error("PrintTensor" + (title.empty() ? std::string() : " '" + title + "'") +
                       ": its shape holds " + std::to_string(elements) + " elements, the tensor " +
                       std::to_string(values.size()));
  const bool summarise = fmt.summariseThreshold != 0 && values.size() > fmt.summariseThreshold;
  Layout layout(shape, fmt, summarise);
  std::vector<double> shown;
  for (std::size_t offset : layout.shownOffsets())
    shown.push_back(values[offset]);
  const ElementFormatter format(type, fmt, shown);
  std::vector<std::string> text;
  text.reserve(shown.size());
  std::size_t width = 0;
  for (double v : shown) {
    text.push_back(format(v));
    width = std::max(width, text.back().size());
  }
  if (format.aligned())
    for (auto& s : text)
      s.insert(0, width - s.size(), ' ');
  return layout.render(title.empty() ? std::string() : title + ": ", text);
}

} // namespace poplar::detail::runtime
