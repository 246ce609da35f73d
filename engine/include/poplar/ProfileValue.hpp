// ProfileValue: the tree of maps, vectors, strings, numbers and booleans in which older Poplar
// SDKs returned profiles (Engine::getGraphProfile, getExecutionProfile) and debug values.
// Tessera builds these trees from the same profile.pop every other reader uses
// (docs/compatibility.md, "Older SDK habits"); new code should use libpva.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace poplar {

class ProfileValue {
public:
  enum class Type { STRING, NUMBER, BOOL_, VECTOR, MAP };
  using String = std::string;
  using Number = double;
  using Boolean = bool;
  using Vector = std::vector<ProfileValue>;
  using Map = std::map<std::string, ProfileValue>;

  ProfileValue() : ProfileValue(Map{}) {} ///< an empty map
  ProfileValue(String s);
  ProfileValue(const char* s) : ProfileValue(String(s ? s : "")) {}
  ProfileValue(Vector v);
  ProfileValue(Map m);
  ProfileValue(Boolean b);
  ProfileValue(Number n);
  /// Any other arithmetic value is a number (as Poplar's integral constructors make one).
  ProfileValue(int n) : ProfileValue(Number(n)) {}
  ProfileValue(unsigned n) : ProfileValue(Number(n)) {}
  ProfileValue(long n) : ProfileValue(Number(n)) {}
  ProfileValue(unsigned long n) : ProfileValue(Number(n)) {}
  ProfileValue(long long n) : ProfileValue(Number(n)) {}
  ProfileValue(unsigned long long n) : ProfileValue(Number(n)) {}
  ProfileValue(float n) : ProfileValue(Number(n)) {}
  ProfileValue(const ProfileValue& o);
  ProfileValue(ProfileValue&& o) noexcept;
  ProfileValue& operator=(const ProfileValue& o);
  ProfileValue& operator=(ProfileValue&& o) noexcept;
  ~ProfileValue();

  Type type() const { return type_; }
  /// Each accessor throws poplar::poplar_error naming the type the value has when it is another.
  const String& asString() const;
  double asDouble() const;
  std::int64_t asInt() const;
  std::uint64_t asUint() const;
  bool asBool() const;
  const Vector& asVector() const;
  const Map& asMap() const;

  /// A map's entry (throws when there is none), or a vector's element (throws when out of
  /// range). Only these two, as in the SDK: `v["key"]` converts to std::string, and any
  /// integer (`v[0]`, `v[i]` with int, unsigned or size_t) to std::size_t. A third overload
  /// taking `const char*` would make `v[0]` ambiguous (0 is also a null pointer constant).
  const ProfileValue& operator[](const std::string& key) const;
  const ProfileValue& operator[](std::size_t i) const;
  /// A map's entry, or nullptr.
  const ProfileValue* getOrNull(const std::string& key) const;
  /// Entries of a map or a vector; characters of a string.
  std::size_t size() const;

  /// Sums of a vector of numbers, and of a vector of vectors of numbers.
  std::uint64_t sumUint() const;
  std::int64_t sumInt() const;
  double sumDouble() const;
  std::uint64_t sum2DUint() const;
  std::int64_t sum2DInt() const;
  /// A vector of numbers as unsigned integers.
  std::vector<std::uint64_t> toUintVector() const;

  bool operator==(const ProfileValue& o) const;
  bool operator!=(const ProfileValue& o) const { return !(*this == o); }

private:
  struct Storage;
  Type type_;
  std::unique_ptr<Storage> s_;
};

/// Writes the value as JSON (maps as objects, vectors as arrays); indented when prettyPrint.
void serializeToJSON(std::ostream& out, const ProfileValue& value, bool prettyPrint = false);

} // namespace poplar
