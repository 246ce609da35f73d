// program::PrintTensor's text: a tensor's values laid out as Poplar prints them (PrintTensorFmt).
#pragma once

#include <cstddef>
#include <poplar/PrintTensor.hpp>
#include <poplar/Type.hpp>
#include <string>
#include <vector>

namespace poplar::detail::runtime {

/// "title: [...]\n" for `values` (row-major, of `shape`); no "title: " when the title is empty.
/// `type` decides between integer and float layout.
std::string formatTensor(const std::string& title, Type type, const std::vector<double>& values,
                         const std::vector<std::size_t>& shape, const PrintTensorFmt& fmt);

} // namespace poplar::detail::runtime
