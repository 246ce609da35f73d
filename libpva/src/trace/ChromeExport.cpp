// Chrome/Perfetto Trace Event Format export: one JSON object {"traceEvents": [...]}, written as
// it goes so a large trace never needs a second copy in memory.
#include "TraceData.hpp"

#include <cmath>
#include <cstdio>
#include <ostream>

namespace pva {

namespace {

void writeString(std::ostream& out, const std::string& s) {
  out << '"';
  for (unsigned char c : s) {
    switch (c) {
    case '"': out << "\\\""; break;
    case '\\': out << "\\\\"; break;
    case '\n': out << "\\n"; break;
    case '\r': out << "\\r"; break;
    case '\t': out << "\\t"; break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out << buf;
      } else {
        out << c; // UTF-8 passes through
      }
    }
  }
  out << '"';
}

/// Microseconds with nanosecond digits, as the format's "ts" and "dur" take them. The sign is
/// written apart from the digits: -500 ns is "-0.500" (whole microseconds of 0 have no sign of
/// their own), and the magnitude is taken unsigned, so INT64_MIN is not negated.
void writeMicros(std::ostream& out, std::int64_t ns) {
  const std::uint64_t magnitude = ns < 0 ? std::uint64_t(0) - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%llu.%03llu", ns < 0 ? "-" : "", static_cast<unsigned long long>(magnitude / 1000),
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
  for (const Event& c : e.children()) writeEvents(w, c, pid, tid);
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
      for (const Event& e : t.events()) writeEvents(w, e, p.pid(), t.tid());
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
