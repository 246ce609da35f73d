/* Device-side printing for codelets. On the IPU Model a vertex's printf writes to the host's
 * standard output; Tessera runs vertex code on the host, so this header gives the C library's
 * printf and a vertex's output appears on stdout, in the order the vertices run. */
#ifndef TESSERA_DEVICE_PRINT_H
#define TESSERA_DEVICE_PRINT_H

#include <stdio.h>

#endif
