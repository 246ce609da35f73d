// Poplar's header for DataStream, DataStreamType and RemoteBuffer; Tessera declares them with
// the other graph elements.
#pragma once

#include <poplar/GraphElements.hpp>
