// What a cycle estimator may ask about one vertex instance: field sizes and state values. Its
// own header, as in Poplar; poplar/Vertex.hpp includes it.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace poplar {

/// Field sizes of one vertex instance, for cycle estimators.
class VertexIntrospector {
public:
  class FieldInfo {
  public:
    /// Elements of a vector field, edges of an edge list, 1 for a scalar.
    std::size_t size() const { return sizes_.size() == 1 && !isList_ ? sizes_[0] : sizes_.size(); }
    /// Elements of edge i of an edge list.
    std::size_t getSizeAtIndex(std::size_t i) const { return sizes_.at(i); }
    /// Total elements over all edges.
    std::size_t totalElements() const {
      std::size_t s = 0;
      for (auto n : sizes_)
        s += n;
      return s;
    }
    FieldInfo(std::vector<std::size_t> sizes, bool isList)
        : sizes_(std::move(sizes)), isList_(isList) {}

  private:
    std::vector<std::size_t> sizes_;
    bool isList_;
  };
  virtual ~VertexIntrospector() = default;
  virtual FieldInfo getFieldInfo(const std::string& name) const = 0;
  /// The value of a scalar state member set by Graph::setInitialValue, as raw bytes.
  virtual const std::vector<unsigned char>& getStateBytes(const std::string& name) const = 0;
  template <typename T> T getInitialValue(const std::string& name) const {
    T v{};
    const auto& b = getStateBytes(name);
    std::memcpy(&v, b.data(), b.size() < sizeof(T) ? b.size() : sizeof(T));
    return v;
  }
  virtual const std::string& getVertexType() const = 0;
};

} // namespace poplar
