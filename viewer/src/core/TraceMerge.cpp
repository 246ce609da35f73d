// Joining several traces' indices on one time axis.
#include "core/TraceMerge.hpp"

#include <QHash>
#include <algorithm>
#include <limits>

namespace tessera::viewer {

namespace {

/// Re-interns one part's strings into the joined index's: ids[i] is the joined id of part id i.
std::vector<std::uint32_t> reintern(const std::vector<QString>& from, std::vector<QString>& to,
                                    QHash<QString, std::uint32_t>& ids) {
  std::vector<std::uint32_t> map;
  map.reserve(from.size());
  for (const QString& s : from) {
    auto it = ids.constFind(s);
    if (it == ids.cend()) {
      it = ids.insert(s, std::uint32_t(to.size()));
      to.push_back(s);
    }
    map.push_back(*it);
  }
  return map;
}

} // namespace

TraceIndex mergeTraceIndices(std::vector<TraceIndex> parts, const std::vector<QString>& groups,
                             const pva::TraceAlignment& alignment) {
  TraceIndex out;
  if (parts.empty()) return out;
  out.path = parts.front().path;
  out.fileName = parts.front().fileName;
  out.formatVersion = parts.front().formatVersion;
  out.startTimestampUs = alignment.originUnixUs;
  out.alignment = QString::fromStdString(alignment.description);
  QHash<QString, std::uint32_t> labelIds, channelIds;
  std::int64_t begin = std::numeric_limits<std::int64_t>::max();
  std::int64_t end = std::numeric_limits<std::int64_t>::min();
  for (std::size_t f = 0; f < parts.size(); ++f) {
    TraceIndex& part = parts[f];
    const std::int64_t shift = alignment.offsetNs.at(f);
    const auto labels = reintern(part.labels, out.labels, labelIds);
    const auto channels = reintern(part.channels, out.channels, channelIds);
    const int processBase = int(out.processes.size()), threadBase = int(out.threads.size());
    TraceFileInfo file = part.files.at(0);
    file.group = f < groups.size() ? groups[f] : file.fileName;
    file.offsetNs = shift;
    out.files.push_back(file);
    for (TraceProcessIndex& proc : part.processes) {
      proc.file = int(f);
      proc.offsetNs = shift;
      for (int& t : proc.threads)
        t += threadBase;
      out.processes.push_back(std::move(proc));
    }
    // Thread-local links (next, parent, rowPos) stay as they are; times, labels and channels
    // move to the joined axis and tables.
    for (TraceThreadIndex& thread : part.threads) {
      thread.process += processBase;
      for (TraceEventRecord& e : thread.events) {
        e.begin += shift;
        e.end += shift;
        e.label = labels[e.label];
        e.channel = channels[e.channel];
      }
      for (TraceDepthRow& row : thread.depths) {
        for (std::int64_t& t : row.begin)
          t += shift;
        for (std::int64_t& t : row.end)
          t += shift;
      }
      for (TraceInstant& i : thread.instants) {
        i.time += shift;
        i.label = labels[i.label];
        i.channel = channels[i.channel];
      }
      out.threads.push_back(std::move(thread));
    }
    begin = std::min(begin, part.beginNs + shift);
    end = std::max(end, part.endNs + shift);
    out.eventCount += part.eventCount;
    out.instantCount += part.instantCount;
    for (pva::Trace& t : part.traces)
      out.traces.push_back(std::move(t));
  }
  out.beginNs = begin;
  out.endNs = end;
  return out;
}

TraceIndex loadTraceIndices(const std::vector<HostTrace>& traces, Progress& progress) {
  if (traces.size() == 1) return loadTraceIndex(traces.front().path, progress);
  const double n = double(std::max<std::size_t>(traces.size(), 1));
  std::vector<pva::Trace> opened;
  for (std::size_t i = 0; i < traces.size(); ++i) {
    progress.setStage(0.5 * double(i) / n, 0.5 * double(i + 1) / n);
    try {
      opened.push_back(pva::openTrace(traces[i].path.toStdString(), [&progress](double fraction) {
        progress.report(fraction);
        return !progress.cancelled();
      }));
    } catch (const pva::CancelledError&) {
      throw Cancelled{};
    }
  }
  const pva::TraceAlignment alignment = pva::alignTraces(opened);
  std::vector<TraceIndex> parts;
  std::vector<QString> groups;
  for (std::size_t i = 0; i < opened.size(); ++i) {
    progress.setStage(0.5 + 0.5 * double(i) / n, 0.5 + 0.5 * double(i + 1) / n);
    parts.push_back(buildTraceIndex(std::move(opened[i]), progress));
    groups.push_back(traces[i].group);
  }
  return mergeTraceIndices(std::move(parts), groups, alignment);
}

} // namespace tessera::viewer
