// Chrome/Perfetto Trace Event Format export: one JSON object {"traceEvents": [...]}, written as
// it goes so a large trace never needs a second copy in memory.
#include "TraceData.hpp"

#include <cmath>
#include <cstdio>
#include <ostream>

namespace pva {

namespace {

/// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlong forms, no
/// surrogates, nothing above U+10FFFF), or 0 when the bytes there are not one.
std::size_t utf8Sequence(const std::string& s, std::size_t i) {
  const auto byte = [&](std::size_t k) {
    return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u;
  };
  const unsigned c = byte(i);
  const auto cont = [&](std::size_t k) { return (byte(k) & 0xC0u) == 0x80u; };
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    const unsigned c1 = byte(i + 1);
    if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F)) return 0; // overlong, surrogate
    return cont(i + 1) && cont(i + 2) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    const unsigned c1 = byte(i + 1);
    if ((c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 > 0x8F)) return 0; // overlong, > U+10FFFF
    return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

/// A JSON string. A trace's text is whatever the traced program (or a damaged file) holds:
/// bytes that are not UTF-8 become U+FFFD, one for each such byte, as DebugContext::json()
/// does, so the file always parses as JSON (Perfetto and Python's json reject invalid UTF-8).
void writeString(std::ostream& out, const std::string& s) {
  out << '"';
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
    case '"':
      out << "\\\"";
      ++i;
      continue;
    case '\\':
      out << "\\\\";
      ++i;
      continue;
    case '\n':
      out << "\\n";
      ++i;
      continue;
    case '\r':
      out << "\\r";
      ++i;
      continue;
    case '\t':
      out << "\\t";
      ++i;
      continue;
    default:
      break;
    }
    if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out << buf;
      ++i;
      continue;
    }
    const std::size_t n = utf8Sequence(s, i);
    if (n == 0) {
      out << "\xEF\xBF\xBD"; // U+FFFD
      ++i;
    } else {
      out.write(s.data() + i, static_cast<std::streamsize>(n));
      i += n;
    }
  }
  out << '"';
}

/// Microseconds with nanosecond digits, as the format's "ts" and "dur" take them. The sign is
/// written apart from the digits: -500 ns is "-0.500" (whole microseconds of 0 have no sign of
/// their own), and the magnitude is taken unsigned, so INT64_MIN is not negated.
void writeMicros(std::ostream& out, std::int64_t ns) {
  const std::uint64_t magnitude =
      ns < 0 ? std::uint64_t(0) - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%llu.%03llu", ns < 0 ? "-" : "",
                static_cast<unsigned long long>(magnitude / 1000),
                static_cast<unsigned long long>(magnitude % 1000));
  out << buf;
}

class Writer {
public:
  explicit Writer(std::ostream& out) : out_(out) {}
  /// Starts the next event object, with the fields every event has.
  void begin(const char* ph, const std::string& name, std::uint64_t pid, std::uint64_t tid) {
    out_ << (first_ ? "\n" : ",\n") << "{\"ph\":\"" << ph << "\",\"name\":";
    first_ = false;
    writeString(out_, name);
    out_ << ",\"pid\":" << pid << ",\"tid\":" << tid;
  }
  std::ostream& out() { return out_; }

private:
  std::ostream& out_;
  bool first_ = true;
};

void writeArgs(std::ostream& out, const std::string& metadata) {
  if (metadata.empty()) return;
  // Kept as a string: the file may hold anything, and a bad string must not break the JSON.
  out << ",\"args\":{\"metadata\":";
  writeString(out, metadata);
  out << '}';
}

void writeEvents(Writer& w, const Event& e, std::uint64_t pid, std::uint64_t tid) {
  w.begin(e.finished() ? "X" : "B", e.label(), pid, tid);
  std::ostream& out = w.out();
  out << ",\"cat\":";
  writeString(out, e.channel());
  out << ",\"ts\":";
  writeMicros(out, e.beginNs());
  if (e.finished()) {
    out << ",\"dur\":";
    writeMicros(out, e.endNs() - e.beginNs());
  }
  writeArgs(out, e.metadata());
  out << '}';
  for (const Event& c : e.children())
    writeEvents(w, c, pid, tid);
}

} // namespace

void exportChromeTrace(const Trace& trace, std::ostream& out) {
  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";
  Writer w(out);
  for (const Process& p : trace.processes()) {
    w.begin("M", "process_name", p.pid(), 0);
    out << ",\"args\":{\"name\":";
    writeString(out, p.name());
    out << "}}";
    for (const Thread& t : p.threads()) {
      w.begin("M", "thread_name", p.pid(), t.tid());
      out << ",\"args\":{\"name\":";
      writeString(out, t.name());
      out << "}}";
      for (const Event& e : t.events())
        writeEvents(w, e, p.pid(), t.tid());
      for (const InstantEvent& i : t.instantEvents()) {
        const char* suffix = i.kind() == InstantEvent::Kind::UnmatchedEnd    ? " (unmatched end)"
                             : i.kind() == InstantEvent::Kind::MismatchedEnd ? " (mismatched end)"
                                                                             : "";
        w.begin("i", i.label() + suffix, p.pid(), t.tid());
        out << ",\"s\":\"t\",\"cat\":";
        writeString(out, i.channel());
        out << ",\"ts\":";
        writeMicros(out, i.timestampNs());
        writeArgs(out, i.metadata());
        out << '}';
      }
    }
    // One counter track per graph; each sample sets one of its series.
    for (const TraceGraph& g : p.graphs()) {
      const std::string name = g.unit().empty() ? g.name() : g.name() + " (" + g.unit() + ")";
      for (const TraceSeries& s : g.series())
        for (const SeriesSample& v : s.samples()) {
          if (!std::isfinite(v.value)) continue; // JSON has no NaN or infinity
          w.begin("C", name, p.pid(), 0);
          out << ",\"ts\":";
          writeMicros(out, v.timestampNs);
          out << ",\"args\":{";
          writeString(out, s.name());
          char buf[40];
          std::snprintf(buf, sizeof buf, ":%.17g}}", v.value);
          out << buf;
        }
    }
  }
  out << "\n]}\n";
}

} // namespace pva
