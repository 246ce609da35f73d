// The stencil's weights, shared by the codelet and (as a check) the host.
#pragma once

#define STENCIL_CENTRE 0.5f
#define STENCIL_SIDE 0.25f
