/* SPDX-License-Identifier: GPL-2.0 */
/* MD5 and SHA-256 for the unit tests (lib/uk_digest.c). */
#ifndef _UK_DIGEST_H
#define _UK_DIGEST_H

#include <linux/types.h>

void uk_md5(const void *data, size_t n, uint8_t out[16]);
void uk_sha256(const void *data, size_t n, uint8_t out[32]);
/* smq_chap_hash_fn over uk_md5 / uk_sha256 */
int uk_chap_hash(void *ctx, u8 alg, u8 id, const u8 *secret,
		 size_t secret_len, const u8 *chal, size_t chal_len, u8 *out);

#endif
