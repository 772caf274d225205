// SPDX-License-Identifier: GPL-2.0
/* The out-of-line userspace half of include/smq/uk.h. */
#define SMQ_UK_IMPL
#include <smq/uk.h>
