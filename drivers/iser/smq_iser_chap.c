// SPDX-License-Identifier: GPL-2.0
/*
 * smq_iser: the kernel half of CHAP.  smq_iser_login.c (pure logic, unit
 * tested in userspace) runs the exchange and asks for digests through a
 * callback; here the callback is the crypto API ("md5", "sha256"), and
 * the state of one login's exchange is allocated and wiped.
 */
#include <crypto/hash.h>
#include <linux/err.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "smq_iser.h"

/* smq_chap_hash_fn: H(id || secret || challenge) with the crypto API. */
static int smq_iser_chap_hash(void *ctx, u8 alg, u8 id, const u8 *secret,
			      size_t secret_len, const u8 *chal,
			      size_t chal_len, u8 *out)
{
	struct crypto_shash *tfm;
	SHASH_DESC_ON_STACK(desc, tfm);
	int ret;

	tfm = crypto_alloc_shash(alg == SMQ_CHAP_MD5 ? "md5" : "sha256", 0, 0);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	desc->tfm = tfm;
	ret = crypto_shash_init(desc);
	if (!ret)
		ret = crypto_shash_update(desc, &id, 1);
	if (!ret)
		ret = crypto_shash_update(desc, secret, secret_len);
	if (!ret)
		ret = crypto_shash_finup(desc, chal, chal_len, out);
	shash_desc_zero(desc);
	crypto_free_shash(tfm);
	return ret;
}

/**
 * smq_iser_chap_alloc - the CHAP state of one login
 * @o: the host's options: @o->username empty means no CHAP
 *
 * The state points at the secrets in @o (which outlive the login) and
 * holds a random CHAP_I and challenge for mutual CHAP.
 *
 * Return: the state (free it with smq_iser_chap_free()) or NULL.
 */
struct smq_iscsi_chap *smq_iser_chap_alloc(const struct smq_iser_opts *o)
{
	struct smq_iscsi_chap *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	c->hash = smq_iser_chap_hash;
	if (o->username[0]) {
		c->name = o->username;
		c->secret = (const u8 *)o->password;
		c->secret_len = strlen(o->password);
	}
	if (o->username_in[0]) {
		c->name_in = o->username_in;
		c->secret_in = (const u8 *)o->password_in;
		c->secret_in_len = strlen(o->password_in);
	}
	get_random_bytes(&c->id, sizeof(c->id));
	get_random_bytes(c->challenge, sizeof(c->challenge));
	return c;
}

/**
 * smq_iser_chap_free - wipe and free a login's CHAP state
 * @c: the state, or NULL
 */
void smq_iser_chap_free(struct smq_iscsi_chap *c)
{
	kfree_sensitive(c);
}
