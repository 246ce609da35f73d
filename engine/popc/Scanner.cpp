#include "Scanner.hpp"

#include <clang-c/Index.h>
#include <functional>
#include <set>

namespace popc {
namespace {

std::string str(CXString s) {
  const char* c = clang_getCString(s);
  std::string out = c ? c : "";
  clang_disposeString(s);
  return out;
}

std::string where(CXCursor c) {
  CXFile file;
  unsigned line = 0, col = 0;
  clang_getSpellingLocation(clang_getCursorLocation(c), &file, &line, &col, nullptr);
  return str(clang_getFileName(file)) + ":" + std::to_string(line) + ":" + std::to_string(col);
}

/// Namespace-qualified name; `cpp` keeps anonymous namespaces out (they are not spellable).
std::string qualifiedName(CXCursor c) {
  std::string name = str(clang_getCursorSpelling(c));
  for (CXCursor p = clang_getCursorSemanticParent(c);
       !clang_Cursor_isNull(p) && p.kind != CXCursor_TranslationUnit;
       p = clang_getCursorSemanticParent(p)) {
    if (p.kind == CXCursor_Namespace && clang_Cursor_isAnonymous(p)) continue;
    name = str(clang_getCursorSpelling(p)) + "::" + name;
  }
  return name;
}

void visitChildren(CXCursor c, const std::function<void(CXCursor)>& f) {
  clang_visitChildren(
      c,
      [](CXCursor child, CXCursor, CXClientData data) {
        (*static_cast<const std::function<void(CXCursor)>*>(data))(child);
        return CXChildVisit_Continue;
      },
      const_cast<std::function<void(CXCursor)>*>(&f));
}

enum class VertexBase { None, Vertex, Supervisor, Multi };

/// Which poplar vertex base `decl` derives from, through any chain of base classes.
VertexBase vertexBaseOf(CXCursor decl, int depth = 0) {
  if (depth > 32 || clang_Cursor_isNull(decl)) return VertexBase::None;
  // An instantiation's bases are those written on its template.
  CXCursor tmpl = clang_getSpecializedCursorTemplate(decl);
  if (!clang_Cursor_isNull(tmpl)) decl = tmpl;
  VertexBase found = VertexBase::None;
  visitChildren(decl, [&](CXCursor child) {
    if (found != VertexBase::None || child.kind != CXCursor_CXXBaseSpecifier) return;
    CXCursor base = clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(child)));
    if (clang_Cursor_isNull(base) || base.kind == CXCursor_NoDeclFound)
      base = clang_getCursorReferenced(child);
    const std::string name = qualifiedName(base);
    if (name == "poplar::Vertex")
      found = VertexBase::Vertex;
    else if (name == "poplar::SupervisorVertex")
      found = VertexBase::Supervisor;
    else if (name == "poplar::MultiVertex")
      found = VertexBase::Multi;
    else
      found = vertexBaseOf(base, depth + 1);
  });
  return found;
}

/// The compute() methods of a class (or its template) and its bases: their parameter counts.
void findCompute(CXCursor decl, std::vector<std::pair<int, CX_CXXAccessSpecifier>>& found,
                 int depth = 0) {
  if (depth > 32 || clang_Cursor_isNull(decl)) return;
  CXCursor tmpl = clang_getSpecializedCursorTemplate(decl);
  if (!clang_Cursor_isNull(tmpl)) decl = tmpl;
  visitChildren(decl, [&](CXCursor child) {
    if ((child.kind == CXCursor_CXXMethod || child.kind == CXCursor_FunctionTemplate) &&
        str(clang_getCursorSpelling(child)) == "compute")
      found.emplace_back(clang_Cursor_getNumArguments(child), clang_getCXXAccessSpecifier(child));
    if (child.kind == CXCursor_CXXBaseSpecifier) {
      CXCursor base = clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(child)));
      const std::string name = qualifiedName(base);
      if (name.rfind("poplar::", 0) != 0) findCompute(base, found, depth + 1);
    }
  });
}

/// The record declaration behind a type (through typedefs), or a null cursor.
CXCursor recordOf(CXType t) {
  CXCursor d = clang_getTypeDeclaration(clang_getCanonicalType(t));
  return (d.kind == CXCursor_ClassDecl || d.kind == CXCursor_StructDecl) ? d
                                                                         : clang_getNullCursor();
}

bool isElementType(CXType t) {
  t = clang_getCanonicalType(t);
  switch (t.kind) {
  case CXType_Float:
  case CXType_Int:
  case CXType_UInt:
  case CXType_Short:
  case CXType_UShort:
  case CXType_Char_S:
  case CXType_Char_U:
  case CXType_SChar:
  case CXType_UChar:
  case CXType_Bool:
    return true;
  default:
    break;
  }
  CXCursor d = recordOf(t);
  return !clang_Cursor_isNull(d) && qualifiedName(d) == "poplar::half";
}

/// "" if Tessera can connect a field of this type, else why not.
std::string checkFieldType(CXType t) {
  t = clang_getCanonicalType(t);
  const CXCursor d = recordOf(t);
  if (clang_Cursor_isNull(d)) {
    if (isElementType(t) || t.kind == CXType_Enum)
      return ""; // vertex state, set by setInitialValue
    if (t.kind == CXType_Double || t.kind == CXType_LongDouble)
      return "double is not an IPU element type (use float or half)";
    if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference)
      return "pointers and references cannot be vertex state";
    return "only Input, Output, InOut, Vector<Input<...>> fields and scalar state are supported";
  }
  const std::string name = qualifiedName(d);
  auto arg = [&](CXType x, unsigned i) { return clang_Type_getTemplateArgumentAsType(x, i); };
  auto isEdge = [&](CXType x) {
    const CXCursor r = recordOf(x);
    if (clang_Cursor_isNull(r)) return false;
    const std::string n = qualifiedName(r);
    if (n != "poplar::Input" && n != "poplar::Output" && n != "poplar::InOut") return false;
    const CXType inner = clang_getCanonicalType(arg(x, 0));
    if (isElementType(inner)) return true;
    const CXCursor ir = recordOf(inner);
    if (clang_Cursor_isNull(ir)) return false;
    const std::string in = qualifiedName(ir);
    return (in == "poplar::Vector" || in == "poplar::VectorList") && isElementType(arg(inner, 0));
  };
  if (isEdge(t)) return "";
  if (name == "poplar::Vector") {
    const CXType inner = clang_getCanonicalType(arg(t, 0));
    if (isEdge(inner)) {
      const CXCursor innerArg = recordOf(arg(inner, 0));
      if (!clang_Cursor_isNull(innerArg) && qualifiedName(innerArg) == "poplar::VectorList")
        return "a Vector of VectorList edges is not supported";
      return "";
    }
    return "a Vector field must hold Input, Output or InOut edges (Vector<Input<Vector<float>>>)";
  }
  if (name == "poplar::Input" || name == "poplar::Output" || name == "poplar::InOut")
    return "the element type must be float, half, int, unsigned, short, unsigned short, char or "
           "bool "
           "(alone, in Vector<T> or in VectorList<T>)";
  return "only Input, Output, InOut, Vector<Input<...>> fields and scalar state are supported";
}

/// True if the class (or its template) declares a default constructor the file never defines.
bool declaresUndefinedDefaultConstructor(CXCursor decl) {
  const CXCursor tmpl = clang_getSpecializedCursorTemplate(decl);
  bool found = false;
  visitChildren(clang_Cursor_isNull(tmpl) ? decl : tmpl, [&](CXCursor c) {
    if (c.kind != CXCursor_Constructor || !clang_CXXConstructor_isDefaultConstructor(c) ||
        clang_CXXMethod_isDefaulted(c))
      return;
    if (clang_Cursor_isNull(clang_getCursorDefinition(c))) found = true;
  });
  return found;
}

/// "Name<float,true>": Poplar's spelling of a template vertex (poputil::templateVertex).
/// The IPU's name of a short vector type (ipudef.h): float2, half4, int2, uint2, ushort4...
std::string shortVectorName(CXType vector) {
  const CXType element = clang_getCanonicalType(clang_getElementType(vector));
  const std::string e = str(clang_getTypeSpelling(element));
  const std::string base = e == "__fp16"           ? "half"
                           : e == "unsigned int"   ? "uint"
                           : e == "unsigned short" ? "ushort"
                           : e == "unsigned char"  ? "uchar"
                           : e == "signed char"    ? "char"
                                                   : e;
  return base + std::to_string(clang_getNumElements(vector));
}

std::string templateArgsName(CXCursor spec, CXCursor tmpl, bool forCpp) {
  std::vector<CXCursor> params;
  visitChildren(tmpl, [&](CXCursor c) {
    if (c.kind == CXCursor_TemplateTypeParameter || c.kind == CXCursor_NonTypeTemplateParameter ||
        c.kind == CXCursor_TemplateTemplateParameter)
      params.push_back(c);
  });
  const CXType type = clang_getCursorType(spec);
  // Explicit instantiations answer through their type (the cursor API reports no arguments).
  const int n = clang_Type_getNumTemplateArguments(type);
  std::string out = "<";
  for (int i = 0; i < n; ++i) {
    if (i) out += forCpp ? ", " : ",";
    const CXType a = clang_getCanonicalType(
        clang_Type_getTemplateArgumentAsType(type, static_cast<unsigned>(i)));
    if (a.kind != CXType_Invalid) {
      const CXCursor r = recordOf(a);
      if (!clang_Cursor_isNull(r) && qualifiedName(r) == "poplar::half")
        out += forCpp ? "poplar::half" : "half";
      else if (!forCpp && (a.kind == CXType_ExtVector || a.kind == CXType_Vector))
        out += shortVectorName(a); // "Triad<float,float2>", as the SDK names it
      else
        out += str(clang_getTypeSpelling(a));
      continue;
    }
    // A non-type argument: its value as the instantiation wrote it.
    const bool isBool = static_cast<std::size_t>(i) < params.size() &&
                        clang_getCanonicalType(clang_getCursorType(params[i])).kind == CXType_Bool;
    const long long v = clang_Cursor_getTemplateArgumentValue(spec, static_cast<unsigned>(i));
    if (isBool)
      out += v ? "true" : "false";
    else
      out += std::to_string(v);
  }
  if (out.back() == '>') out += ' ';
  return out + ">";
}

struct Scanner {
  ScanResult& result;
  std::set<std::string> seen;

  void fieldsOf(CXCursor decl, const std::string& cppType, const std::string& className,
                ScannedVertex& v, int depth = 0) {
    if (depth > 32) return;
    const CXType type = clang_getCursorType(decl);
    struct Ctx {
      Scanner* self;
      ScannedVertex* v;
      std::string cppType, className;
    };
    Ctx ctx{this, &v, cppType, className};
    clang_Type_visitFields(
        type,
        [](CXCursor field, CXClientData data) {
          auto& c = *static_cast<Ctx*>(data);
          const std::string name = str(clang_getCursorSpelling(field));
          const CXType ft = clang_getCursorType(field);
          const std::string why = checkFieldType(ft);
          if (!why.empty())
            c.self->result.vertexErrors.push_back(where(field) + ": error: vertex class '" +
                                                  c.className + "' field '" + name +
                                                  "' has type '" + str(clang_getTypeSpelling(ft)) +
                                                  "', which Tessera cannot connect: " + why);
          else
            // Private and protected fields are fields too, as popc has them (issue 35: a
            // data-dependent vertex keeps its counter in a private InOut).
            c.v->fields.push_back(
                {name, c.cppType, clang_getCXXAccessSpecifier(field) == CX_CXXPublic});
          return CXVisit_Continue;
        },
        &ctx);
    // Fields of base classes (not poplar's own bases) belong to the vertex too.
    CXCursor tmpl = clang_getSpecializedCursorTemplate(decl);
    visitChildren(clang_Cursor_isNull(tmpl) ? decl : tmpl, [&](CXCursor child) {
      if (child.kind != CXCursor_CXXBaseSpecifier) return;
      CXCursor base = recordOf(clang_getCursorType(child));
      if (clang_Cursor_isNull(base) || qualifiedName(base).rfind("poplar::", 0) == 0) return;
      fieldsOf(base, str(clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(base)))),
               className, v, depth + 1);
    });
  }

  void consider(CXCursor decl) {
    const bool isSpecialization = !clang_Cursor_isNull(clang_getSpecializedCursorTemplate(decl));
    if (!clang_isCursorDefinition(decl) && !isSpecialization) return; // a forward declaration
    const VertexBase base = vertexBaseOf(decl);
    if (base == VertexBase::None) return;
    const CXCursor tmpl = clang_getSpecializedCursorTemplate(decl);
    const bool isInstance = !clang_Cursor_isNull(tmpl);
    ScannedVertex v;
    v.cppType = "::" + qualifiedName(decl);
    v.vertexName = qualifiedName(decl);
    if (isInstance) {
      v.vertexName += templateArgsName(decl, tmpl, false);
      v.cppType += templateArgsName(decl, tmpl, true);
    }
    if (!seen.insert(v.vertexName).second) return;
    std::vector<std::pair<int, CX_CXXAccessSpecifier>> computes;
    findCompute(decl, computes);
    if (computes.empty()) return; // an abstract helper base, not a vertex
    const int wanted = base == VertexBase::Multi ? 1 : 0;
    bool ok = false;
    for (const auto& [args, access] : computes)
      ok = ok || (args == wanted && access == CX_CXXPublic);
    if (!ok) {
      result.vertexErrors.push_back(
          where(decl) + ": error: vertex class '" + v.vertexName + "' needs a public " +
          (wanted ? "compute(unsigned workerId) (it is a MultiVertex)" : "compute()"));
      return;
    }
    fieldsOf(decl, v.cppType, v.vertexName, v);
    v.constructorUndefined = declaresUndefinedDefaultConstructor(decl);
    result.vertices.push_back(std::move(v));
  }

  void visit(CXCursor parent) {
    visitChildren(parent, [&](CXCursor c) {
      // The start of the declaration, not its name's location: a name that comes from a macro
      // (class VERTEX_NAME : ...) is located in the macro's definition, maybe on the command line.
      if (!clang_Location_isFromMainFile(clang_getRangeStart(clang_getCursorExtent(c)))) return;
      switch (c.kind) {
      case CXCursor_Namespace:
      case CXCursor_LinkageSpec:
        visit(c);
        break;
      case CXCursor_ClassDecl:
      case CXCursor_StructDecl:
        consider(c);
        break;
      default:
        break;
      }
    });
  }
};

} // namespace

ScanResult scanCodelets(const std::string& source, const std::vector<std::string>& args) {
  ScanResult result;
  CXIndex index = clang_createIndex(0, 0);
  std::vector<const char*> argv;
  for (const auto& a : args)
    argv.push_back(a.c_str());
  CXTranslationUnit tu = nullptr;
  // Function bodies are not needed to find classes and fields; skipping them (in the headers
  // too) halves the parse. The compile that follows checks the bodies.
  const CXErrorCode rc =
      clang_parseTranslationUnit2(index, source.c_str(), argv.data(), static_cast<int>(argv.size()),
                                  nullptr, 0, CXTranslationUnit_SkipFunctionBodies, &tu);
  if (rc != CXError_Success || !tu) {
    // ASTReadError: an -include-pch file was unreadable; popc rebuilds it on this message.
    result.errors.push_back(
        source + ": error: libclang could not parse the file (error " +
        std::to_string(static_cast<int>(rc)) +
        (rc == CXError_ASTReadError ? ": an AST file (precompiled header) could not be read" : "") +
        ")");
    clang_disposeIndex(index);
    return result;
  }
  for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; ++i) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error)
      result.errors.push_back(str(clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation |
                                                                CXDiagnostic_DisplayColumn)));
    clang_disposeDiagnostic(d);
  }
  if (result.errors.empty()) {
    Scanner scanner{result, {}};
    scanner.visit(clang_getTranslationUnitCursor(tu));
    clang_getInclusions(
        tu,
        [](CXFile file, CXSourceLocation*, unsigned, CXClientData data) {
          auto& r = *static_cast<ScanResult*>(data);
          const std::string name = str(clang_File_tryGetRealPathName(file));
          const std::string path = name.empty() ? str(clang_getFileName(file)) : name;
          r.contentDeps.push_back(path); // sorted into system / own below
        },
        &result);
    // System headers change only with packages (the compiler's identity covers them): their
    // size and time suffice. The source, Tessera's headers and the user's are hashed.
    std::vector<std::string> own, system;
    for (const auto& path : result.contentDeps) {
      CXFile f = clang_getFile(tu, path.c_str());
      const bool isSystem =
          f && clang_Location_isInSystemHeader(clang_getLocationForOffset(tu, f, 0));
      (isSystem ? system : own).push_back(path);
    }
    result.contentDeps = own;
    result.statDeps = system;
  }
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(index);
  return result;
}

} // namespace popc
