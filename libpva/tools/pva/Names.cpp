#include "Names.hpp"

namespace pvacli {

std::string targetTypeName(pva::Target::Type t) {
  switch (t) {
  case pva::Target::Type::Ipu: return "IPU";
  case pva::Target::Type::IpuModel: return "IPU_MODEL";
  case pva::Target::Type::Cpu: return "CPU";
  case pva::Target::Type::Unknown: break;
  }
  return "unknown";
}

std::string architectureName(pva::Target::Architecture a) {
  switch (a) {
  case pva::Target::Architecture::Ipu1: return "ipu1";
  case pva::Target::Architecture::Ipu2: return "ipu2";
  case pva::Target::Architecture::Ipu21: return "ipu21";
  case pva::Target::Architecture::Unknown: break;
  }
  return "unknown";
}

const std::string& cycleKindName(pva::TileCycleTotals::Kind k) {
  static const std::string names[] = {"compute", "internalExchange", "globalExchange", "streamCopy", "sync"};
  return names[static_cast<std::size_t>(k)];
}

} // namespace pvacli
