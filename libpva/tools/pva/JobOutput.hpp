// `pva summary` of a poprun job folder (commands/Job.cpp): its JSON and the text written from it.
#pragma once

#include "output/Output.hpp"

#include <iosfwd>
#include <pva/Job.hpp>

namespace pvacli {

Json jobSummaryJson(const pva::Job& job);
void writeJobText(std::ostream& out, const Json& j);

} // namespace pvacli
