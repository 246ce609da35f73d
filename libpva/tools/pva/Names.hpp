// Names of libpva's enums as the outputs spell them (the same as Poplar's and the viewer's).
#pragma once

#include <pva/pva.hpp>

#include <string>

namespace pvacli {

std::string targetTypeName(pva::Target::Type t);
std::string architectureName(pva::Target::Architecture a);
/// "compute", "internalExchange", "globalExchange", "streamCopy", "sync" (as pva::compare's kinds).
const std::string& cycleKindName(pva::TileCycleTotals::Kind k);

} // namespace pvacli
