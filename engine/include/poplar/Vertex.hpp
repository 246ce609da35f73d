// Writing codelets: vertex classes with Input/Output/InOut fields and a compute() method.
//
//   class Sum : public poplar::Vertex {
//   public:
//     poplar::Input<poplar::Vector<float>> in;
//     poplar::Output<float> out;
//     bool compute() { float s = 0; for (float x : in) s += x; *out = s; return true; }
//     // Optional: the vertex's own cycle estimate (otherwise Graph::setPerfEstimate, or for a
//     // codelet file the default estimate from the field sizes, docs/profiling.md).
//     static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
//                                           const poplar::Target&) {
//       return 10 + v.getFieldInfo("in").size();
//     }
//   };
//
// Two ways to give a graph these classes:
//   - As in Poplar, in a codelet file of their own, with no registration line:
//     graph.addCodelets("sum_codelets.cpp") compiles the file for the host at run time (popc,
//     with __POPC__ defined; cached per user) and registers every class derived from Vertex,
//     SupervisorVertex or MultiVertex, finding its fields with a C++ front end (libclang).
//   - Compiled into the program itself, registered by a line that lists the fields:
//     TESSERA_VERTEX(Sum, in, out); graph.addCodelets("<that file's name>") then enables them.
//     PopLibs' vertices are registered this way.
// Vertex code runs on the host; fields point into the simulated tile memory (or, when the
// connected tensor is not one contiguous region, into a staging buffer that models the exchange
// into the vertex's tile). This header is also what codelet files include: it must stay C++11
// and free of Tessera's build-time configuration.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <poplar/FieldTypes.hpp>
#include <poplar/HalfFloat.hpp>
#include <poplar/Type.hpp>
#include <poplar/VertexIntrospector.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace poplar {

class Target;

/// Base class of every vertex. compute() is found statically by the registration. Not
/// polymorphic, as Poplar's is not: a vertex class with only fields stays an aggregate, so a
/// const member draws no "never initialized" warning that -Werror would make an error. The
/// engine deletes a vertex through its own class (detail::VertexPtr).
class Vertex {};
/// A vertex run by the tile's supervisor context rather than a worker.
class SupervisorVertex : public Vertex {};
/// A vertex whose compute(unsigned workerId) runs once on each worker context of its tile
/// (workerId = 0 .. numWorkers() - 1); the workers split the work between them.
class MultiVertex : public Vertex {
public:
  static constexpr unsigned numWorkers() { return 6; }
};

namespace detail {
/// A bound piece of tile memory: where a field's elements are during compute().
struct Span {
  void* data = nullptr;
  std::size_t size = 0; // elements
};
struct FieldAccess;
} // namespace detail

/// As a template argument of Input/Output/InOut: a one-dimensional array of T.
/// As a field type itself (Vector<Input<Vector<T>>>): a list of edges, sized by setFieldSize.
template <typename T, VectorLayout L = VectorLayout::SPAN, unsigned Align = alignof(T),
          bool Interleaved = false>
class Vector {
public:
  std::size_t size() const { return items_.size(); }
  T& operator[](std::size_t i) { return items_[i]; }
  const T& operator[](std::size_t i) const { return items_[i]; }
  typename std::vector<T>::iterator begin() { return items_.begin(); }
  typename std::vector<T>::iterator end() { return items_.end(); }
  typename std::vector<T>::const_iterator begin() const { return items_.begin(); }
  typename std::vector<T>::const_iterator end() const { return items_.end(); }

private:
  friend struct detail::FieldAccess;
  std::vector<T> items_;
};

/// As a template argument of Input/Output/InOut: a list of one-dimensional arrays (one per
/// connected edge, sized by setFieldSize): field.size() arrays, field[i][j] elements.
template <typename T, VectorListLayout L = VectorListLayout::DELTANELEMENTS,
          unsigned Align = alignof(T), bool Interleaved = false>
class VectorList {};

namespace detail {
template <typename T> struct IsVector : std::false_type {};
template <typename T, VectorLayout L, unsigned A, bool I>
struct IsVector<Vector<T, L, A, I>> : std::true_type {
  using element = T;
};

/// Read-only or read-write access to one scalar.
template <typename T, bool Writable> class ScalarField {
public:
  using Ptr = typename std::conditional<Writable, T*, const T*>::type;
  using Ref = typename std::conditional<Writable, T&, const T&>::type;
  static constexpr bool isVectorField = false;
  Ref operator*() const { return *p_; }
  Ptr operator->() const { return p_; }
  operator const T&() const { return *p_; } // NOLINT: read a scalar input as its value
  /// On the IPU `half` is a built-in type, so a scalar field converts to and from it in one
  /// step (`out[i] = initA` with an Input<float> and a half element; `float x = inHalf`). The
  /// host's half is a class: these give the same single conversion, and only between float and
  /// half, so that arithmetic on a field stays unambiguous.
  template <typename U,
            typename std::enable_if<std::is_same<U, half>::value && std::is_same<T, float>::value,
                                    int>::type = 0>
  operator U() const { // NOLINT: implicit, as the IPU compiler's conversion is
    return half(*p_);
  }
  template <typename U,
            typename std::enable_if<std::is_same<U, float>::value && std::is_same<T, half>::value,
                                    int>::type = 0>
  operator U() const { // NOLINT: implicit, as the IPU compiler's conversion is
    return float(*p_);
  }
  /// A written scalar (Output<unsigned>, InOut<float>) is assigned and updated in place as its
  /// value is, as public codelets write it: `flag = 0;`, `count -= 1;`, `++steps;`, `out = in;`.
  /// Only for writable fields: an Input stays read-only. Assigning one field of the same kind to
  /// another (`Output<float> = Output<float>`) is the vertex's own copy and rebinds instead: the
  /// fields below Output/InOut keep their implicit copy assignment so that vertices stay copyable.
  template <typename U, bool W = Writable,
            typename std::enable_if<W && !std::is_base_of<ScalarField, U>::value, int>::type = 0>
  const ScalarField& operator=(const U& v) const {
    *p_ = v;
    return *this;
  }
#define TESSERA_SCALAR_FIELD_UPDATE(op)                                                            \
  template <typename U, bool W = Writable, typename std::enable_if<W, int>::type = 0>              \
  const ScalarField& operator op(const U& v) const {                                               \
    *p_ op v;                                                                                      \
    return *this;                                                                                  \
  }
  TESSERA_SCALAR_FIELD_UPDATE(+=)
  TESSERA_SCALAR_FIELD_UPDATE(-=)
  TESSERA_SCALAR_FIELD_UPDATE(*=)
  TESSERA_SCALAR_FIELD_UPDATE(/=)
  TESSERA_SCALAR_FIELD_UPDATE(%=)
  TESSERA_SCALAR_FIELD_UPDATE(&=)
  TESSERA_SCALAR_FIELD_UPDATE(|=)
  TESSERA_SCALAR_FIELD_UPDATE(^=)
  TESSERA_SCALAR_FIELD_UPDATE(<<=)
  TESSERA_SCALAR_FIELD_UPDATE(>>=)
#undef TESSERA_SCALAR_FIELD_UPDATE
  template <bool W = Writable, typename std::enable_if<W, int>::type = 0>
  const ScalarField& operator++() const {
    ++*p_;
    return *this;
  }
  template <bool W = Writable, typename std::enable_if<W, int>::type = 0>
  const ScalarField& operator--() const {
    --*p_;
    return *this;
  }
  template <bool W = Writable, typename std::enable_if<W, int>::type = 0> T operator++(int) const {
    return (*p_)++;
  }
  template <bool W = Writable, typename std::enable_if<W, int>::type = 0> T operator--(int) const {
    return (*p_)--;
  }

private:
  friend struct detail::FieldAccess;
  Ptr p_ = nullptr;
};

/// Access to a contiguous array of elements.
template <typename T, bool Writable> class VectorField {
public:
  using Ptr = typename std::conditional<Writable, T*, const T*>::type;
  using Ref = typename std::conditional<Writable, T&, const T&>::type;
  static constexpr bool isVectorField = true;
  std::size_t size() const { return n_; }
  /// An element as a modifiable reference even through an Input, as popc allows: public codelets
  /// take `&in[0]` of an Input and reinterpret_cast it to their own (non-const) struct type.
  T& operator[](std::size_t i) const { return const_cast<T&>(p_[i]); }
  Ptr data() const { return p_; }
  Ptr begin() const { return p_; }
  Ptr end() const { return p_ + n_; }
  /// Pointer-like use, as Poplar's fields allow: in->size(), out->data(), (*in)[i].
  const VectorField* operator->() const { return this; }
  const VectorField& operator*() const { return *this; }

private:
  friend struct detail::FieldAccess;
  Ptr p_ = nullptr;
  std::size_t n_ = 0;
};

/// Access to a list of arrays (Input<VectorList<T>>): one VectorField per edge.
template <typename T, bool Writable> class VectorListField {
public:
  using Edge = VectorField<T, Writable>;
  std::size_t size() const { return items_.size(); }
  const Edge& operator[](std::size_t i) const { return items_[i]; }
  const VectorListField* operator->() const { return this; }
  const VectorListField& operator*() const { return *this; }
  typename std::vector<Edge>::const_iterator begin() const { return items_.begin(); }
  typename std::vector<Edge>::const_iterator end() const { return items_.end(); }

private:
  friend struct detail::FieldAccess;
  std::vector<Edge> items_;
};

template <typename T, bool W> struct FieldSelect { using type = ScalarField<T, W>; };
template <typename T, VectorLayout L, unsigned A, bool I, bool W>
struct FieldSelect<Vector<T, L, A, I>, W> {
  using type = VectorField<T, W>;
};
template <typename T, VectorListLayout L, unsigned A, bool I, bool W>
struct FieldSelect<VectorList<T, L, A, I>, W> {
  using type = VectorListField<T, W>;
};
} // namespace detail

/// A field the vertex reads. Input<float> is one scalar; Input<Vector<float>> an array.
template <typename T> class Input : public detail::FieldSelect<T, false>::type {};
/// A field the vertex writes. A scalar one is assigned as its value is (`out = 0;`).
template <typename T> class Output : public detail::FieldSelect<T, true>::type {
public:
  using detail::FieldSelect<T, true>::type::operator=;
};
/// A field the vertex reads and writes.
template <typename T> class InOut : public detail::FieldSelect<T, true>::type {
public:
  using detail::FieldSelect<T, true>::type::operator=;
};

namespace detail {

enum class FieldDirection : std::uint8_t { In, Out, InOut, State };

/// How one field of a vertex class is connected and bound. Built by the registration macros.
struct FieldDescriptor {
  std::string name;
  FieldDirection direction;
  Type elementType;
  bool isVector;         ///< Input<Vector<T>>: one edge of any length
  bool isEdgeList;       ///< Vector<Input<...>>: setFieldSize edges
  std::size_t stateSize; ///< bytes of a State member
  /// Points the field at its memory: one span, or one per edge for edge lists.
  void (*bind)(Vertex&, const Span* spans, std::size_t count);
};

using CycleEstimator = std::uint64_t (*)(const VertexIntrospector&, const Target&);
/// A vertex object and the function that deletes it as its own class (Vertex has no virtual
/// destructor).
using VertexPtr = std::unique_ptr<Vertex, void (*)(Vertex*)>;

struct VertexTypeDescriptor {
  std::string name;
  std::string codeletSource; ///< file basename or library name given to Graph::addCodelets
  bool isSupervisor = false;
  bool isMultiVertex = false; ///< compute(workerId) runs on every worker context
  /// Loaded from a codelet file (Graph::addCodelets compiled it): without an estimator of its
  /// own it gets the default estimate from its field sizes (docs/profiling.md), as profiles of
  /// codelet programs must never be empty.
  bool fromCodeletFile = false;
  std::vector<FieldDescriptor> fields;
  VertexPtr (*create)() = nullptr;
  bool (*compute)(Vertex&) = nullptr;
  CycleEstimator cycleEstimate = nullptr;
  std::size_t codeBytes = 0; ///< modelled size of the vertex's machine code
};

/// Adds a vertex type to the process-wide registry; throws on a duplicate name within one
/// codelet source (different sources may each define a vertex of the same name).
void registerVertexType(VertexTypeDescriptor d);
/// The vertex types named `name`, one per codelet source that defines one.
std::vector<const VertexTypeDescriptor*> findVertexTypes(const std::string& name);
bool isCodeletSourceRegistered(const std::string& source);
std::string codeletSourceName(const char* fileOrName);

template <typename F> struct FieldTraits; // F is the member's type

// This header is also compiled by codelets and user programs written in C++11, so the
// compile-time choices below use tag dispatch and partial specialisation, not `if constexpr`.

/// std::void_t for C++11 (the indirection makes unused parameters take part in SFINAE).
template <typename...> struct MakeVoid { using type = void; };
template <typename... Ts> using VoidT = typename MakeVoid<Ts...>::type;

struct FieldAccess {
  template <typename Field> static void bindOne(Field& f, const Span& s) {
    f.p_ = static_cast<typename Field::Ptr>(s.data);
    setSize(f, s, std::integral_constant<bool, Field::isVectorField>());
  }
  template <typename T, VectorLayout L, unsigned A, bool I>
  static std::vector<T>& items(Vector<T, L, A, I>& v) {
    return v.items_;
  }
  template <typename T, bool W>
  static std::vector<VectorField<T, W>>& items(VectorListField<T, W>& v) {
    return v.items_;
  }

private:
  template <typename Field> static void setSize(Field& f, const Span& s, std::true_type) {
    f.n_ = s.size;
  }
  template <typename Field> static void setSize(Field&, const Span&, std::false_type) {}
};

/// True for the host types that have a device element type (TypeOf<T> is defined).
template <typename T, typename = void> struct HasDeviceType : std::false_type {};
template <typename T> struct HasDeviceType<T, VoidT<decltype(TypeIdOf<T>::id)>> : std::true_type {};

/// The element type recorded for a state member: its device type, or Type{} for other values.
template <typename T, bool = HasDeviceType<T>::value> struct StateTypeId {
  static constexpr Type::Id value = Type::Id::Invalid;
};
template <typename T> struct StateTypeId<T, true> {
  static constexpr Type::Id value = TypeIdOf<T>::id;
};
template <typename T> constexpr Type stateType() {
  return Type(StateTypeId<T>::value);
}

template <typename T> struct ElementOf {
  using type = T;
  static constexpr bool vec = false;
  static constexpr bool list = false;
};
template <typename T, VectorLayout L, unsigned A, bool I> struct ElementOf<Vector<T, L, A, I>> {
  using type = T;
  static constexpr bool vec = true;
  static constexpr bool list = false;
};
template <typename T, VectorListLayout L, unsigned A, bool I>
struct ElementOf<VectorList<T, L, A, I>> {
  using type = T;
  static constexpr bool vec = true;
  static constexpr bool list = true; ///< one field, many edges (setFieldSize)
};

template <typename T> struct DirectionOf;
template <typename T> struct DirectionOf<Input<T>> {
  static constexpr FieldDirection value = FieldDirection::In;
  using inner = T;
};
template <typename T> struct DirectionOf<Output<T>> {
  static constexpr FieldDirection value = FieldDirection::Out;
  using inner = T;
};
template <typename T> struct DirectionOf<InOut<T>> {
  static constexpr FieldDirection value = FieldDirection::InOut;
  using inner = T;
};
template <typename T, typename = void> struct IsField : std::false_type {};
template <typename T> struct IsField<T, VoidT<decltype(DirectionOf<T>::value)>> : std::true_type {};

template <typename Field> void bindField(Field& f, const Span& s) {
  FieldAccess::bindOne(f, s);
}

/// What a vertex member is: a field (Input/Output/InOut), an edge list (Vector<Input<...>>), or
/// a state value. Selects the overloads of describeMember and bindMember below.
enum class MemberKind { Field, EdgeList, State };
template <typename M>
using MemberKindOf =
    std::integral_constant<MemberKind,
                           IsField<M>::value
                               ? MemberKind::Field
                               : (IsVector<M>::value ? MemberKind::EdgeList : MemberKind::State)>;
using FieldMember = std::integral_constant<MemberKind, MemberKind::Field>;
using EdgeListMember = std::integral_constant<MemberKind, MemberKind::EdgeList>;
using StateMember = std::integral_constant<MemberKind, MemberKind::State>;

template <typename M> void describeMember(FieldDescriptor& d, FieldMember) {
  using Inner = typename DirectionOf<M>::inner;
  using Elem = typename ElementOf<Inner>::type;
  d.direction = DirectionOf<M>::value;
  d.elementType = TypeOf<Elem>::value;
  d.isVector = ElementOf<Inner>::vec;
  d.isEdgeList = ElementOf<Inner>::list;
}
template <typename M> void describeMember(FieldDescriptor& d, EdgeListMember) {
  using Edge = typename IsVector<M>::element;
  static_assert(IsField<Edge>::value, "Vector<...> fields must hold Input/Output/InOut edges");
  using Inner = typename DirectionOf<Edge>::inner;
  using Elem = typename ElementOf<Inner>::type;
  d.direction = DirectionOf<Edge>::value;
  d.elementType = TypeOf<Elem>::value;
  d.isVector = ElementOf<Inner>::vec;
  d.isEdgeList = true;
}
template <typename M> void describeMember(FieldDescriptor& d, StateMember) {
  static_assert(std::is_trivially_copyable<M>::value, "vertex state members must be plain values");
  d.direction = FieldDirection::State;
  d.elementType = stateType<typename std::remove_cv<M>::type>();
  d.isVector = false;
  d.isEdgeList = false;
  d.stateSize = sizeof(M);
}

template <typename Class, typename M> FieldDescriptor field(const char* name, M Class::*) {
  FieldDescriptor d{};
  d.name = name;
  describeMember<M>(d, MemberKindOf<M>());
  return d;
}

template <typename M>
void bindFieldEdges(M& m, const Span* spans, std::size_t, std::false_type /*list*/) {
  bindField(m, spans[0]);
}
template <typename M>
void bindFieldEdges(M& m, const Span* spans, std::size_t count, std::true_type /*list*/) {
  auto& items = FieldAccess::items(m);
  items.resize(count);
  for (std::size_t i = 0; i < count; ++i)
    bindField(items[i], spans[i]);
}
template <typename M> void bindMemberAs(M& m, const Span* spans, std::size_t count, FieldMember) {
  using Inner = typename DirectionOf<M>::inner;
  bindFieldEdges(m, spans, count, std::integral_constant<bool, ElementOf<Inner>::list>());
}
template <typename M>
void bindMemberAs(M& m, const Span* spans, std::size_t count, EdgeListMember) {
  auto& items = FieldAccess::items(m);
  items.resize(count);
  for (std::size_t i = 0; i < count; ++i)
    bindField(items[i], spans[i]);
}
template <typename M> void bindMemberAs(M& m, const Span* spans, std::size_t, StateMember) {
  // A const state member is set here too: the graph gives it its value, as on the IPU, where
  // vertex state is laid out in memory rather than constructed.
  std::memcpy(const_cast<void*>(static_cast<const void*>(&m)), spans[0].data, sizeof(M));
}

/// Binder for member `member` of Class: a function pointer built from a template parameter.
template <typename Class, typename M, M Class::*member>
void bindMember(Vertex& v, const Span* spans, std::size_t count) {
  bindMemberAs(static_cast<Class&>(v).*member, spans, count, MemberKindOf<M>());
}

template <typename C, typename = void> struct HasCycleEstimate : std::false_type {};
template <typename C>
struct HasCycleEstimate<
    C, VoidT<decltype(C::getCycleEstimate(std::declval<const VertexIntrospector&>(),
                                          std::declval<const Target&>()))>> : std::true_type {};

/// compute() may return bool (false: the vertex failed) or void (always succeeds).
template <typename Class> bool runCompute(Vertex& v, std::true_type /*returnsVoid*/) {
  static_cast<Class&>(v).compute();
  return true;
}
template <typename Class> bool runCompute(Vertex& v, std::false_type /*returnsVoid*/) {
  return static_cast<Class&>(v).compute();
}
template <typename Class> bool computeVertex(Vertex& v) {
  return runCompute<Class>(v, std::is_same<decltype(static_cast<Class&>(v).compute()), void>());
}
/// A MultiVertex: compute(workerId) once per worker context, as the IPU's workers run it.
template <typename Class> bool runWorker(Vertex& v, unsigned w, std::true_type /*returnsVoid*/) {
  static_cast<Class&>(v).compute(w);
  return true;
}
template <typename Class> bool runWorker(Vertex& v, unsigned w, std::false_type /*returnsVoid*/) {
  return static_cast<Class&>(v).compute(w);
}
template <typename Class> bool computeMultiVertex(Vertex& v) {
  for (unsigned w = 0; w < MultiVertex::numWorkers(); ++w)
    if (!runWorker<Class>(v, w, std::is_same<decltype(static_cast<Class&>(v).compute(0u)), void>()))
      return false;
  return true;
}
using ComputeFn = bool (*)(Vertex&);
template <typename Class> ComputeFn computeOf(std::false_type /*multi*/) {
  return &computeVertex<Class>;
}
template <typename Class> ComputeFn computeOf(std::true_type /*multi*/) {
  return &computeMultiVertex<Class>;
}

template <typename Class>
std::uint64_t estimateCycles(const VertexIntrospector& vi, const Target& t) {
  return Class::getCycleEstimate(vi, t);
}
template <typename Class> CycleEstimator cycleEstimatorOf(std::true_type) {
  return &estimateCycles<Class>;
}
template <typename Class> CycleEstimator cycleEstimatorOf(std::false_type) {
  return nullptr;
}

template <typename Class> void destroyVertex(Vertex* v) {
  delete static_cast<Class*>(v);
}
template <typename Class> VertexPtr createVertex() {
  return VertexPtr(new Class(), &destroyVertex<Class>);
}
/// A vertex whose class cannot be default-constructed here: a const state member, or a
/// constructor declared and never defined (popc accepts both, because the IPU never runs a
/// vertex's constructor: its state is laid out in memory). The implicit copy constructor builds
/// it from zero bytes (every field type is a pointer and a size, a std::vector or a plain value,
/// for which zero bytes are the empty value; Vertex has no virtual table to copy); binding then
/// sets every field.
template <typename Class> VertexPtr createVertexUnconstructed() {
  static_assert(std::is_copy_constructible<Class>::value,
                "a vertex class without a usable default constructor needs its implicit copy "
                "constructor (Tessera builds the vertex from zero bytes with it)");
  alignas(Class) static const unsigned char zeros[sizeof(Class)] = {};
  return VertexPtr(new Class(*reinterpret_cast<const Class*>(zeros)), &destroyVertex<Class>);
}
using CreateFn = VertexPtr (*)();
/// The default constructor when the class has a usable one, else the copy from zero bytes.
template <typename Class> CreateFn createOf(std::true_type /*constructible*/) {
  return &createVertex<Class>;
}
template <typename Class> CreateFn createOf(std::false_type) {
  return &createVertexUnconstructed<Class>;
}

/// ConstructorUndefined: popc found a default constructor declared and never defined, which the
/// registration must not refer to (the .gp would not load).
template <typename Class, bool ConstructorUndefined = false> struct VertexRegistrar {
  /// fromCodeletFile: the registration code Graph::addCodelets generated for a codelet file.
  VertexRegistrar(const char* name, const char* source, std::vector<FieldDescriptor> fields,
                  bool fromCodeletFile = false) {
    typedef std::is_base_of<MultiVertex, Class> IsMulti;
    VertexTypeDescriptor d;
    d.name = name;
    d.codeletSource = codeletSourceName(source);
    d.isSupervisor = std::is_base_of<SupervisorVertex, Class>::value;
    d.isMultiVertex = IsMulti::value;
    d.fromCodeletFile = fromCodeletFile;
    d.fields = std::move(fields);
    typedef std::integral_constant<bool, !ConstructorUndefined &&
                                             std::is_default_constructible<Class>::value>
        Constructible;
    d.create = createOf<Class>(Constructible());
    d.compute = computeOf<Class>(IsMulti());
    d.cycleEstimate = cycleEstimatorOf<Class>(HasCycleEstimate<Class>());
    d.codeBytes = 64 + 16 * d.fields.size();
    registerVertexType(std::move(d));
  }
};

} // namespace detail
} // namespace poplar

// Inside a codelet compiled by popc, `half` names the device's half type without a namespace,
// as the IPU compiler's built-in type does.
#if defined(__POPC__) || defined(__IPU__)
using half = ::poplar::half;
#endif

// --- registration macros -------------------------------------------------------------------
#define TESSERA_PP_CAT_(a, b) a##b
#define TESSERA_PP_CAT(a, b) TESSERA_PP_CAT_(a, b)
#define TESSERA_PP_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16,   \
                          N, ...)                                                                  \
  N
#define TESSERA_PP_NARGS(...)                                                                      \
  TESSERA_PP_NARGS_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define TESSERA_F1(C, f) ::poplar::detail::withBinder<C, decltype(C::f), &C::f>(#f)
#define TESSERA_F_1(C, a) TESSERA_F1(C, a)
#define TESSERA_F_2(C, a, ...) TESSERA_F1(C, a), TESSERA_F_1(C, __VA_ARGS__)
#define TESSERA_F_3(C, a, ...) TESSERA_F1(C, a), TESSERA_F_2(C, __VA_ARGS__)
#define TESSERA_F_4(C, a, ...) TESSERA_F1(C, a), TESSERA_F_3(C, __VA_ARGS__)
#define TESSERA_F_5(C, a, ...) TESSERA_F1(C, a), TESSERA_F_4(C, __VA_ARGS__)
#define TESSERA_F_6(C, a, ...) TESSERA_F1(C, a), TESSERA_F_5(C, __VA_ARGS__)
#define TESSERA_F_7(C, a, ...) TESSERA_F1(C, a), TESSERA_F_6(C, __VA_ARGS__)
#define TESSERA_F_8(C, a, ...) TESSERA_F1(C, a), TESSERA_F_7(C, __VA_ARGS__)
#define TESSERA_F_9(C, a, ...) TESSERA_F1(C, a), TESSERA_F_8(C, __VA_ARGS__)
#define TESSERA_F_10(C, a, ...) TESSERA_F1(C, a), TESSERA_F_9(C, __VA_ARGS__)
#define TESSERA_F_11(C, a, ...) TESSERA_F1(C, a), TESSERA_F_10(C, __VA_ARGS__)
#define TESSERA_F_12(C, a, ...) TESSERA_F1(C, a), TESSERA_F_11(C, __VA_ARGS__)
#define TESSERA_F_13(C, a, ...) TESSERA_F1(C, a), TESSERA_F_12(C, __VA_ARGS__)
#define TESSERA_F_14(C, a, ...) TESSERA_F1(C, a), TESSERA_F_13(C, __VA_ARGS__)
#define TESSERA_F_15(C, a, ...) TESSERA_F1(C, a), TESSERA_F_14(C, __VA_ARGS__)
#define TESSERA_F_16(C, a, ...) TESSERA_F1(C, a), TESSERA_F_15(C, __VA_ARGS__)
#define TESSERA_FIELDS(C, ...)                                                                     \
  TESSERA_PP_CAT(TESSERA_F_, TESSERA_PP_NARGS(__VA_ARGS__))(C, __VA_ARGS__)

/// Registers vertex class `Class` (no template commas: use an alias) under the name `Name`,
/// in codelet source `Source` (what Graph::addCodelets enables), with its fields listed.
#define TESSERA_VERTEX_IN(Source, Name, Class, ...)                                                \
  static const ::poplar::detail::VertexRegistrar<Class> TESSERA_PP_CAT(                            \
      tesseraVertex_, __COUNTER__)(Name, Source, {TESSERA_FIELDS(Class, __VA_ARGS__)})
/// Registers `Class` under its own name, in this source file's codelet source.
#define TESSERA_VERTEX(Class, ...) TESSERA_VERTEX_IN(__FILE__, #Class, Class, __VA_ARGS__)
/// Registers `Class` under an explicit name such as "popops::Add<float>".
#define TESSERA_VERTEX_AS(Name, Class, ...) TESSERA_VERTEX_IN(__FILE__, Name, Class, __VA_ARGS__)

namespace poplar {
namespace detail {
template <typename Class, typename M, M Class::*member>
FieldDescriptor withBinder(const char* name) {
  FieldDescriptor d = field<Class, M>(name, member);
  d.bind = &bindMember<Class, M, member>;
  return d;
}
} // namespace detail
} // namespace poplar
