// Which programs move data between tiles, IPUs or the host: the ones whose dataBytes() the
// operation figures and the insights count as exchanged.
#pragma once

#include <pva/Program.hpp>

namespace pva::detail {

inline bool movesData(Program::Type t) {
  switch (t) {
  case Program::Type::DoExchange:
  case Program::Type::GlobalExchange:
  case Program::Type::StreamCopyBegin:
  case Program::Type::StreamCopyMid:
  case Program::Type::StreamCopyEnd:
    return true;
  default:
    return false;
  }
}

} // namespace pva::detail
