/* Which vector layouts the target of a codelet build offers. Codelets test these macros to
 * pick a compact layout where there is one. Tessera's host build offers every layout of
 * poplar/FieldTypes.hpp (all stored alike), so every macro is defined. Plain C as well as
 * C++, as Poplar's header is. */
#ifndef POPLAR_AVAILABLE_VTYPES_H
#define POPLAR_AVAILABLE_VTYPES_H

#define VECTOR_AVAIL_SHORT_SPAN 1
#define VECTOR_AVAIL_SCALED_PTR32 1
#define VECTOR_AVAIL_SCALED_PTR64 1
#define VECTOR_AVAIL_SCALED_PTR128 1
#define VECTORLIST_AVAIL_DELTAN 1

#endif
