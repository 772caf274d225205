/* SPDX-License-Identifier: GPL-2.0 */
/*
 * get_unaligned_be16/32/64() and put_unaligned_be16/32/64(): 6.12 moved
 * <asm/unaligned.h> to <linux/unaligned.h>.  Part of include/smq/compat.h
 * (which includes it), kept apart so that the pure-logic files, which
 * cannot include compat.h's block layer headers in the unit tests, get
 * just this difference.
 */
#ifndef _SMQ_UNALIGNED_H
#define _SMQ_UNALIGNED_H

#include <linux/version.h>

#if KERNEL_VERSION(6, 12, 0) <= LINUX_VERSION_CODE
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#endif /* _SMQ_UNALIGNED_H */
