// Stack-size annotations of assembly codelets. On the IPU these macros record, in a section
// of the object file, how much stack a function uses and whom it calls, so that the compiler
// can size each worker's stack. Tessera compiles codelets for the host, where the host's own
// stack serves: the annotations are accepted and have no effect (docs/compatibility.md).
#pragma once

#define DEF_STACK_USAGE(size, name)
#define DEF_STACK_SIZE_OWN(size, name)
#define DEF_STACK_USAGE_PERMISSIVE(size, name)
#define DEF_FUNC_CALL_PTRS(name, ...)
