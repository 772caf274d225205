// SPDX-License-Identifier: GPL-2.0
/*
 * smq_iser: login text keys (RFC 7143 6 and 13, RFC 7145 6): building
 * key=value records, the operational keys an iSER initiator proposes, the
 * negotiation of the target's answers and offers, the security stage
 * with CHAP (RFC 7143 12.1.3, RFC 1994), and SendTargets discovery
 * answers.  See smq_iser_pdu.h.
 *
 * Text is untrusted: every record must end with a NUL inside the given
 * length, and nothing is read beyond it.
 */
#include <linux/errno.h>
#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include "smq_iser_pdu.h"

enum smq_key_type {
	SMQ_KEY_DIGEST,		/* list: only None is acceptable */
	SMQ_KEY_AND,		/* boolean, result AND */
	SMQ_KEY_OR,		/* boolean, result OR */
	SMQ_KEY_MIN,		/* number, result minimum */
	SMQ_KEY_MAX,		/* number, result maximum */
	SMQ_KEY_DECL,		/* number, declared by the target */
	SMQ_KEY_OURS,		/* number, declared by us: answer checked only */
	SMQ_KEY_IGNORE,		/* tolerated, value ignored */
};

/* Key flags */
#define SMQ_KF_ISER	0x01	/* RFC 7145 key: NotUnderstood means default */
#define SMQ_KF_MUST	0x02	/* must end as proposed (Yes / None / 0) */
#define SMQ_KF_ZERO_OK	0x04	/* 0 is valid beside [min, max] */

/**
 * struct smq_key - one login key: name, result function, range, field
 * @name: key name.
 * @type: result function, enum smq_key_type.
 * @flags: SMQ_KF_*.
 * @min: smallest valid number.
 * @max: largest valid number.
 * @def: RFC default, the result after "Reject".
 * @off: offset of the u32 or bool field in struct smq_iscsi_params.
 */
struct smq_key {
	const char *name;
	u8 type, flags;
	u32 min, max, def;
	size_t off;
};

#define P(f)	offsetof(struct smq_iscsi_params, f)
#define SMQ_DSL_MAX	16777215U

/* Keys the negotiation tracks; the order is that of the login keys. */
enum {
	K_HDR_DIGEST, K_DATA_DIGEST, K_MAX_CONNS, K_INITIAL_R2T, K_IMM_DATA,
	K_MAX_BURST, K_FIRST_BURST, K_T2W, K_T2R, K_MAX_R2T, K_PDU_ORDER,
	K_SEQ_ORDER, K_ERL, K_RDMA, K_IRDSL, K_TRDSL, K_MAX_UNEXP, K_MRDSL,
	K_NR_NEGOTIATED,
};

static const struct smq_key smq_keys[] = {
	[K_HDR_DIGEST] = { "HeaderDigest", SMQ_KEY_DIGEST, SMQ_KF_MUST, 0, 0, 0,
			   P(header_digest) },
	[K_DATA_DIGEST] = { "DataDigest", SMQ_KEY_DIGEST, SMQ_KF_MUST, 0, 0, 0,
			    P(data_digest) },
	[K_MAX_CONNS] = { "MaxConnections", SMQ_KEY_MIN, 0, 1, 65535, 1,
			  P(max_conns) },
	[K_INITIAL_R2T] = { "InitialR2T", SMQ_KEY_OR, 0, 0, 1, 1,
			    P(initial_r2t) },
	[K_IMM_DATA] = { "ImmediateData", SMQ_KEY_AND, 0, 0, 1, 1,
			 P(immediate_data) },
	[K_MAX_BURST] = { "MaxBurstLength", SMQ_KEY_MIN, 0, 512, SMQ_DSL_MAX,
			  262144, P(max_burst) },
	[K_FIRST_BURST] = { "FirstBurstLength", SMQ_KEY_MIN, 0, 512,
			    SMQ_DSL_MAX, 65536, P(first_burst) },
	[K_T2W] = { "DefaultTime2Wait", SMQ_KEY_MAX, 0, 0, 3600, 2,
		    P(time2wait) },
	[K_T2R] = { "DefaultTime2Retain", SMQ_KEY_MIN, 0, 0, 3600, 20,
		    P(time2retain) },
	[K_MAX_R2T] = { "MaxOutstandingR2T", SMQ_KEY_MIN, 0, 1, 65535, 1,
			P(max_r2t) },
	[K_PDU_ORDER] = { "DataPDUInOrder", SMQ_KEY_OR, 0, 0, 1, 1,
			  P(data_pdu_in_order) },
	[K_SEQ_ORDER] = { "DataSequenceInOrder", SMQ_KEY_OR, 0, 0, 1, 1,
			  P(data_seq_in_order) },
	[K_ERL] = { "ErrorRecoveryLevel", SMQ_KEY_MIN, SMQ_KF_MUST, 0, 2, 0,
		    P(erl) },
	[K_RDMA] = { "RDMAExtensions", SMQ_KEY_AND, SMQ_KF_MUST, 0, 1, 0,
		     P(rdma_ext) },
	[K_IRDSL] = { "InitiatorRecvDataSegmentLength", SMQ_KEY_OURS,
		      SMQ_KF_ISER, 512, SMQ_DSL_MAX, 8192,
		      P(initiator_recv_dsl) },
	[K_TRDSL] = { "TargetRecvDataSegmentLength", SMQ_KEY_DECL,
		      SMQ_KF_ISER, 512, SMQ_DSL_MAX, 8192,
		      P(target_recv_dsl) },
	[K_MAX_UNEXP] = { "MaxOutstandingUnexpectedPDUs", SMQ_KEY_DECL,
			  SMQ_KF_ISER | SMQ_KF_ZERO_OK, 2, U32_MAX, 0,
			  P(max_unexpected) },
	[K_MRDSL] = { "MaxRecvDataSegmentLength", SMQ_KEY_DECL, 0, 512,
		      SMQ_DSL_MAX, 8192, P(max_recv_dsl) },
	/* tolerated and ignored (values of TargetPortalGroupTag checked) */
	{ "TargetAlias", SMQ_KEY_IGNORE, 0, 0, 0, 0, 0 },
	{ "TargetPortalGroupTag", SMQ_KEY_IGNORE, 0, 0, 65535, 0, 0 },
	{ "TargetAddress", SMQ_KEY_IGNORE, 0, 0, 0, 0, 0 },
	{ "AuthMethod", SMQ_KEY_IGNORE, 0, 0, 0, 0, 0 },
	{ "IFMarker", SMQ_KEY_IGNORE, 0, 0, 0, 0, 0 },
	{ "OFMarker", SMQ_KEY_IGNORE, 0, 0, 0, 0, 0 },
	{ "IFMarkInt", SMQ_KEY_IGNORE, 0, 0, 0, 0, 0 },
	{ "OFMarkInt", SMQ_KEY_IGNORE, 0, 0, 0, 0, 0 },
};

static u32 *smq_key_u32(struct smq_iscsi_params *p, const struct smq_key *k)
{
	return (u32 *)((char *)p + k->off);
}

static bool *smq_key_bool(struct smq_iscsi_params *p, const struct smq_key *k)
{
	return (bool *)((char *)p + k->off);
}

static bool smq_key_is_bool(const struct smq_key *k)
{
	return k->type == SMQ_KEY_AND || k->type == SMQ_KEY_OR ||
	       k->type == SMQ_KEY_DIGEST;
}

/* RFC 7143 6.1: key names are letters, digits and . - + @ _ (and X#) */
static bool smq_key_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' ||
	       c == '@' || c == '_';
}

/* Append @s (at most @n bytes, unprintable bytes as '?') to @why. */
static void smq_why_cat(char *why, size_t whylen, size_t *at, const char *s,
			size_t n)
{
	size_t i;

	for (i = 0; i < n && s[i] && *at + 1 < whylen; i++)
		why[(*at)++] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	why[*at] = '\0';
}

/* Write "KEY: MSG" into @why (if given). */
static int smq_why(char *why, size_t whylen, const char *key, size_t klen,
		   const char *msg)
{
	size_t at = 0;

	if (!why || !whylen)
		return -EPROTO;
	why[0] = '\0';
	smq_why_cat(why, whylen, &at, key,
		    min_t(size_t, klen, SMQ_ISCSI_KEY_MAX));
	smq_why_cat(why, whylen, &at, ": ", 2);
	smq_why_cat(why, whylen, &at, msg, SIZE_MAX);
	return -EPROTO;
}

/**
 * struct smq_rec - one key=value record of login or text data
 * @key: the key (not NUL-terminated).
 * @klen: its length.
 * @val: the value (NUL-terminated inside the data).
 * @vlen: its length.
 */
struct smq_rec {
	const char *key;
	size_t klen;
	const char *val;
	size_t vlen;
};

/*
 * The next record of @data from *@pos on: 1 and *@r filled, 0 at the
 * end, or -EPROTO with @why written.  Empty records (NUL padding) are
 * skipped.
 */
static int smq_text_next(const char *data, size_t len, size_t *pos,
			 struct smq_rec *r, char *why, size_t whylen)
{
	const char *rec, *end, *eq;
	size_t i;

	while (*pos < len && !data[*pos])
		(*pos)++;
	if (*pos >= len)
		return 0;
	rec = data + *pos;
	end = memchr(rec, '\0', len - *pos);
	eq = memchr(rec, '=', end ? (size_t)(end - rec) : len - *pos);
	r->key = rec;
	r->klen = eq ? (size_t)(eq - rec) : (end ? (size_t)(end - rec) :
					     len - *pos);
	if (!end)
		return smq_why(why, whylen, rec, r->klen,
			       "record not NUL-terminated");
	if (!eq)
		return smq_why(why, whylen, rec, r->klen, "no '=' in record");
	if (!r->klen)
		return smq_why(why, whylen, "(empty)", 7, "empty key name");
	if (r->klen > SMQ_ISCSI_KEY_MAX)
		return smq_why(why, whylen, rec, r->klen,
			       "key name longer than 63 bytes");
	for (i = 0; i < r->klen; i++)
		if (!smq_key_char_ok(rec[i]) &&
		    !(i == 1 && rec[0] == 'X' && rec[1] == '#'))
			return smq_why(why, whylen, rec, r->klen,
				       "invalid character in key name");
	r->val = eq + 1;
	r->vlen = end - r->val;
	/* CHAP_C and CHAP_R are large binary values (RFC 7143 12.1.3) */
	if (r->vlen > (r->klen > 5 && !memcmp(rec, "CHAP_", 5) ?
		       SMQ_CHAP_VALUE_MAX : SMQ_ISCSI_VALUE_MAX))
		return smq_why(why, whylen, rec, r->klen,
			       "value longer than 255 bytes");
	*pos = end - data + 1;
	return 1;
}

static bool smq_key_eq(const struct smq_rec *r, const char *name)
{
	return r->klen == strlen(name) && !memcmp(r->key, name, r->klen);
}

/* Decimal or 0x-hex constant (RFC 7143 6.1) that fits in a u32. */
static bool smq_parse_u32(const char *s, size_t n, u32 *out)
{
	unsigned int base = 10, d;
	u64 v = 0;
	size_t i = 0;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i >= n)
		return false;
	for (; i < n; i++) {
		char c = s[i];

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return false;
		v = v * base + d;
		if (v > U32_MAX)
			return false;
	}
	*out = v;
	return true;
}

static char *smq_u32_str(u32 v, char *buf)
{
	char *s = buf + 10;

	*s = '\0';
	do {
		*--s = '0' + v % 10;
		v /= 10;
	} while (v);
	return s;
}

/**
 * smq_iscsi_text_add() - append one key=value record to login/text data
 * @buf: the data buffer.
 * @size: its size.
 * @off: in: bytes used in @buf; out: advanced past the record's NUL.
 * @key: key name.
 * @val: value.
 *
 * Return: 0, or -ENOSPC if the record and its NUL do not fit (@buf and
 * *@off unchanged).
 */
int smq_iscsi_text_add(char *buf, size_t size, size_t *off, const char *key,
		       const char *val)
{
	size_t kl = strlen(key), vl = strlen(val);

	if (*off > size || size - *off < kl + vl + 2)
		return -ENOSPC;
	memcpy(buf + *off, key, kl);
	buf[*off + kl] = '=';
	memcpy(buf + *off + kl + 1, val, vl);
	buf[*off + kl + 1 + vl] = '\0';
	*off += kl + vl + 2;
	return 0;
}

/**
 * smq_iscsi_text_add_u32() - append key=<decimal number>
 * @buf: the data buffer.
 * @size: its size.
 * @off: in: bytes used in @buf; out: advanced past the record's NUL.
 * @key: key name.
 * @val: the number.
 *
 * Return: 0, or -ENOSPC (see smq_iscsi_text_add()).
 */
int smq_iscsi_text_add_u32(char *buf, size_t size, size_t *off,
			   const char *key, u32 val)
{
	char num[11];

	return smq_iscsi_text_add(buf, size, off, key, smq_u32_str(val, num));
}

/**
 * smq_iscsi_params_default() - what an iSER initiator proposes
 * @p: output.
 *
 * RDMAExtensions=Yes; no digests; ERL 0; no unsolicited data (write data
 * goes by RDMA Read: ImmediateData=No, InitialR2T=Yes); 8 KiB control
 * PDU data both ways (LIO's isert default); MaxBurstLength as large as
 * the RFC allows (LIO answers its configured value, 256 KiB by default),
 * FirstBurstLength 256 KiB (irrelevant without unsolicited data),
 * DefaultTime2Wait 2 and DefaultTime2Retain 0 (no session reinstatement,
 * as open-iscsi proposes), one connection, one outstanding R2T, data in
 * order, MaxOutstandingUnexpectedPDUs 0 (no limit: not sent).
 * MaxRecvDataSegmentLength stays at the RFC default 8192: it is not
 * negotiated with RDMAExtensions=Yes.
 */
void smq_iscsi_params_default(struct smq_iscsi_params *p)
{
	memset(p, 0, sizeof(*p));
	p->initiator_recv_dsl = 8192;
	p->target_recv_dsl = 8192;
	p->max_recv_dsl = 8192;
	p->max_burst = 16776192;
	p->first_burst = 262144;
	p->max_r2t = 1;
	p->max_unexpected = 0;
	p->max_conns = 1;
	p->time2wait = 2;
	p->time2retain = 0;
	p->erl = 0;
	p->immediate_data = false;
	p->initial_r2t = true;
	p->data_pdu_in_order = true;
	p->data_seq_in_order = true;
	p->rdma_ext = true;
	p->header_digest = false;
	p->data_digest = false;
}

/*
 * The keys a discovery session proposes: the session-wide ones are
 * irrelevant there (RFC 7143 13, LIO's iscsi_set_keys_irrelevant_for_
 * discovery()); digests and the iSER connection keys stay.
 */
#define SMQ_DISCOVERY_KEYS	(BIT(K_HDR_DIGEST) | BIT(K_DATA_DIGEST) | \
				 BIT(K_RDMA) | BIT(K_IRDSL) | BIT(K_TRDSL))

/* Append key @i with the current value of @p. */
static int smq_key_add(struct smq_iscsi_params *p, unsigned int i, char *buf,
		       size_t size, size_t *off)
{
	const struct smq_key *k = &smq_keys[i];

	if (k->type == SMQ_KEY_DIGEST)
		return smq_iscsi_text_add(buf, size, off, k->name,
					  *smq_key_bool(p, k) ? "CRC32C" : "None");
	if (smq_key_is_bool(k))
		return smq_iscsi_text_add(buf, size, off, k->name,
					  *smq_key_bool(p, k) ? "Yes" : "No");
	return smq_iscsi_text_add_u32(buf, size, off, k->name,
				      *smq_key_u32(p, k));
}

/**
 * smq_iscsi_login_keys() - the keys of the LoginOperationalNegotiation stage
 * @p: the values to propose (smq_iscsi_params_default()); records which
 *	keys were proposed, for smq_iscsi_login_negotiate().
 * @buf: the login data buffer.
 * @size: its size.
 * @off: in: bytes used in @buf; out: advanced.
 *
 * Proposes the session and connection keys LIO negotiates with an iSER
 * initiator (iscsi_set_keys_to_negotiate() with iser), so that the target
 * has nothing left to offer; MaxOutstandingUnexpectedPDUs only if not 0,
 * never MaxRecvDataSegmentLength (irrelevant over iSER).  A discovery
 * session (@p->discovery) proposes only the digests and the iSER keys.
 *
 * Return: 0, or -ENOSPC (*@off then tells how far it got).
 */
int smq_iscsi_login_keys(struct smq_iscsi_params *p, char *buf, size_t size,
			 size_t *off)
{
	unsigned int i;
	int ret;

	for (i = 0; i < K_MRDSL; i++) {
		if (i == K_MAX_UNEXP && !p->max_unexpected)
			continue;
		if (p->discovery && !(BIT(i) & SMQ_DISCOVERY_KEYS))
			continue;
		ret = smq_key_add(p, i, buf, size, off);
		if (ret)
			return ret;
		p->proposed |= BIT(i);
	}
	return 0;
}

/**
 * smq_iscsi_login_reply_keys() - our answers to keys the target offered
 * @p: the state smq_iscsi_login_negotiate() left; the offers answered
 *	are cleared from it.
 * @buf: the next login request's data buffer.
 * @size: its size.
 * @off: in: bytes used in @buf; out: advanced.
 *
 * Return: 0, or -ENOSPC.
 */
int smq_iscsi_login_reply_keys(struct smq_iscsi_params *p, char *buf,
			       size_t size, size_t *off)
{
	unsigned int i;
	int ret;

	for (i = 0; i < K_NR_NEGOTIATED; i++) {
		if (!(p->offered & BIT(i)))
			continue;
		ret = smq_key_add(p, i, buf, size, off);
		if (ret)
			return ret;
		p->offered &= ~BIT(i);
	}
	return 0;
}

/* A boolean or digest value: 1 true, 0 false, -1 invalid. */
static int smq_key_bool_value(const struct smq_key *k, const struct smq_rec *r,
			      bool offer)
{
	if (k->type == SMQ_KEY_DIGEST) {
		const char *v = r->val;
		size_t n;

		/* an answer is one value, an offer a list: None must be in it */
		if (!offer)
			return !strcmp(v, "None") ? 0 :
			       !strcmp(v, "CRC32C") ? 1 : -1;
		while (*v) {
			n = strcspn(v, ",");
			if (n == 4 && !memcmp(v, "None", 4))
				return 0;
			v += n + (v[n] == ',');
		}
		return 1;
	}
	if (!strcmp(r->val, "Yes"))
		return 1;
	if (!strcmp(r->val, "No"))
		return 0;
	return -1;
}

/* Apply one answer (or offer, if not proposed) of a negotiated key. */
static int smq_key_apply(struct smq_iscsi_params *p, unsigned int i,
			 const struct smq_rec *r, char *why, size_t whylen)
{
	const struct smq_key *k = &smq_keys[i];
	bool offer = !(p->proposed & BIT(i));
	bool special = !strcmp(r->val, "NotUnderstood") ||
		       !strcmp(r->val, "Irrelevant") || !strcmp(r->val, "Reject");
	u32 v, *u;
	int b;

	if (special) {
		/* A discovery session runs on defaults where irrelevant. */
		if (p->discovery && r->val[0] == 'I' && !offer)
			return 0;
		if (offer)
			return smq_why(why, whylen, r->key, r->klen,
				       "offered with a special value");
		if (k->flags & SMQ_KF_MUST && r->val[0] != 'I')
			return smq_why(why, whylen, r->key, r->klen, r->val);
		if (k->type == SMQ_KEY_AND && k->flags & SMQ_KF_MUST)
			return smq_why(why, whylen, r->key, r->klen, r->val);
		if (r->val[0] == 'N' && !(k->flags & SMQ_KF_ISER))
			return smq_why(why, whylen, r->key, r->klen,
				       "standard key answered NotUnderstood");
		if (r->val[0] == 'I')	/* Irrelevant: keep ours */
			return 0;
		/* Reject, NotUnderstood of an iSER key: the default */
		if (smq_key_is_bool(k))
			*smq_key_bool(p, k) = k->def;
		else
			*smq_key_u32(p, k) = k->def;
		return 0;
	}

	if (smq_key_is_bool(k)) {
		bool *f = smq_key_bool(p, k);

		b = smq_key_bool_value(k, r, offer);
		if (b < 0)
			return smq_why(why, whylen, r->key, r->klen,
				       k->type == SMQ_KEY_DIGEST ?
				       "invalid digest" : "not Yes or No");
		if (k->type == SMQ_KEY_DIGEST) {
			if (b)
				return smq_why(why, whylen, r->key, r->klen,
					       "digests are not used with iSER");
			*f = false;
		} else if (k->type == SMQ_KEY_AND) {
			*f = *f && b;
			/*
			 * A discovery session runs without them (LIO says
			 * No): its text PDUs are iSER control messages.
			 */
			if (k->flags & SMQ_KF_MUST && !*f && !p->discovery)
				return smq_why(why, whylen, r->key, r->klen,
					       "target refuses RDMA extensions");
		} else {
			*f = *f || b;
		}
		goto done;
	}

	if (!smq_parse_u32(r->val, r->vlen, &v))
		return smq_why(why, whylen, r->key, r->klen, "not a number");
	if ((v < k->min || v > k->max) && !(v == 0 && k->flags & SMQ_KF_ZERO_OK))
		return smq_why(why, whylen, r->key, r->klen, "out of range");
	u = smq_key_u32(p, k);
	switch (k->type) {
	case SMQ_KEY_MIN:
		if (!offer && v > *u)
			return smq_why(why, whylen, r->key, r->klen,
				       "answer above the value proposed");
		*u = min(*u, v);
		if (k->flags & SMQ_KF_MUST && *u)
			return smq_why(why, whylen, r->key, r->klen,
				       "only level 0 is supported");
		break;
	case SMQ_KEY_MAX:
		if (!offer && v < *u)
			return smq_why(why, whylen, r->key, r->klen,
				       "answer below the value proposed");
		*u = max(*u, v);
		break;
	case SMQ_KEY_DECL:
		*u = v;
		return 0;	/* declarative: no answer */
	default:		/* SMQ_KEY_OURS: our own declaration stands */
		return 0;
	}
done:
	if (offer)
		p->offered |= BIT(i);
	return 0;
}

/**
 * smq_iscsi_login_negotiate() - apply the target's login text
 * @p: the state of this login (smq_iscsi_params_default(), then
 *	smq_iscsi_login_keys()); updated with the results.
 * @data: the Login Response's data segment: whole records (text
 *	continued with the C bit must be joined first: a record may be
 *	split anywhere); several calls may carry parts of one stage.
 * @len: its length.
 * @why: output, a one-line reason naming the key on error (may be NULL).
 * @whylen: size of @why (SMQ_ISCSI_WHY_LEN is enough).
 *
 * Result functions of RFC 7143 13 and RFC 7145 6: numbers take the
 * minimum (MaxBurstLength, FirstBurstLength, MaxConnections,
 * MaxOutstandingR2T, DefaultTime2Retain, ErrorRecoveryLevel) or maximum
 * (DefaultTime2Wait) and an answer may not go the wrong way; InitialR2T,
 * DataPDUInOrder, DataSequenceInOrder are OR, ImmediateData and
 * RDMAExtensions AND; TargetRecvDataSegmentLength,
 * MaxOutstandingUnexpectedPDUs and MaxRecvDataSegmentLength are taken as
 * declared, InitiatorRecvDataSegmentLength (ours) only checked.  A key we
 * did not propose is an offer: its result is recorded for
 * smq_iscsi_login_reply_keys().  "Irrelevant" keeps our value; "Reject"
 * and, for the iSER keys, "NotUnderstood" give the RFC default.
 * TargetAlias, TargetPortalGroupTag, TargetAddress, AuthMethod, the
 * marker keys and X- / X# keys are ignored; other keys are errors.
 *
 * Return: 0, or -EPROTO with @why set: malformed text (no '=', key over
 * 63 or value over 255 bytes, a record not NUL-terminated within @len),
 * a bad or out-of-range value, a key received twice, RDMAExtensions not
 * Yes, a digest other than None, ERL above 0, an AuthMethod other than
 * None, "NotUnderstood" for a standard key, or an unknown key.
 */
int smq_iscsi_login_negotiate(struct smq_iscsi_params *p, const char *data,
			      size_t len, char *why, size_t whylen)
{
	u32 seen_ignored = 0;
	struct smq_rec r;
	size_t pos = 0;
	unsigned int i;
	int ret;

	if (why && whylen)
		why[0] = '\0';
	if (!data)
		len = 0;
	while ((ret = smq_text_next(data, len, &pos, &r, why, whylen)) > 0) {
		if ((r.klen > 2 && r.key[0] == 'X' &&
		     (r.key[1] == '-' || r.key[1] == '#')))
			continue;
		for (i = 0; i < ARRAY_SIZE(smq_keys); i++)
			if (smq_key_eq(&r, smq_keys[i].name))
				break;
		if (i == ARRAY_SIZE(smq_keys))
			return smq_why(why, whylen, r.key, r.klen,
				       "unknown key");
		if (i >= K_NR_NEGOTIATED) {
			u32 bit = BIT(i - K_NR_NEGOTIATED);
			u32 v;

			if (seen_ignored & bit)
				return smq_why(why, whylen, r.key, r.klen,
					       "key received twice");
			seen_ignored |= bit;
			if (smq_key_eq(&r, "AuthMethod") &&
			    strcmp(r.val, "None"))
				return smq_why(why, whylen, r.key, r.klen,
					       "only AuthMethod=None is supported");
			if (smq_key_eq(&r, "TargetPortalGroupTag") &&
			    (!smq_parse_u32(r.val, r.vlen, &v) || v > 65535))
				return smq_why(why, whylen, r.key, r.klen,
					       "not a number of 0-65535");
			continue;
		}
		if (p->answered & BIT(i))
			return smq_why(why, whylen, r.key, r.klen,
				       "key received twice");
		p->answered |= BIT(i);
		ret = smq_key_apply(p, i, &r, why, whylen);
		if (ret)
			return ret;
	}
	return ret;
}

/**
 * smq_iscsi_login_check() - is the negotiated result usable?
 * @p: the state after the last operational Login Response.
 * @why: output, a one-line reason on error (may be NULL).
 * @whylen: size of @why.
 *
 * Every proposed key whose result our proposal does not settle alone
 * must have been answered (numbers, digests, RDMAExtensions=Yes,
 * ImmediateData=Yes, an OR key proposed No), RDMAExtensions must be Yes
 * (but for a discovery session), no digest, ERL 0, and FirstBurstLength
 * <= MaxBurstLength where unsolicited data is allowed.
 *
 * Return: 0, or -EPROTO with @why set.
 */
int smq_iscsi_login_check(const struct smq_iscsi_params *p, char *why,
			  size_t whylen)
{
	unsigned int i;

	if (why && whylen)
		why[0] = '\0';
	for (i = 0; i < K_NR_NEGOTIATED; i++) {
		const struct smq_key *k = &smq_keys[i];
		bool optional = k->type == SMQ_KEY_DECL || k->type == SMQ_KEY_OURS;
		bool v;

		if (smq_key_is_bool(k) && k->type != SMQ_KEY_DIGEST) {
			v = *(const bool *)((const char *)p + k->off);
			optional = k->type == SMQ_KEY_AND ? !v : v;
		}
		if ((p->proposed & BIT(i)) && !optional &&
		    !(p->answered & BIT(i)))
			return smq_why(why, whylen, k->name, strlen(k->name),
				       "not answered");
	}
	if (!p->rdma_ext && !p->discovery)
		return smq_why(why, whylen, "RDMAExtensions", 14, "not Yes");
	if (p->header_digest || p->data_digest)
		return smq_why(why, whylen, "HeaderDigest", 12,
			       "digests are not used with iSER");
	if (p->erl)
		return smq_why(why, whylen, "ErrorRecoveryLevel", 18,
			       "only level 0 is supported");
	if ((!p->initial_r2t || p->immediate_data) &&
	    p->first_burst > p->max_burst)
		return smq_why(why, whylen, "FirstBurstLength", 16,
			       "above MaxBurstLength");
	return 0;
}

/**
 * smq_iscsi_sendtargets_parse() - walk a SendTargets=All answer
 * @data: the Text Response data (possibly several responses joined).
 * @len: its length.
 * @fn: called for each TargetAddress of each TargetName, in order, with
 *	the name and the address ("host:port,tpgt"); with a NULL address
 *	for a target that lists none.  Both strings point into @data.
 * @ctx: passed to @fn.
 *
 * Other keys (TargetAlias, X- keys) are ignored.
 *
 * Return: the number of targets, a non-zero value @fn returned, or
 * -EPROTO for malformed text or a TargetAddress before any TargetName.
 */
int smq_iscsi_sendtargets_parse(const char *data, size_t len,
				int (*fn)(void *ctx, const char *target,
					  const char *addr),
				void *ctx)
{
	const char *target = NULL;
	bool target_has_addr = false;
	int ret, nr = 0;
	struct smq_rec r;
	size_t pos = 0;

	if (!data)
		len = 0;
	while ((ret = smq_text_next(data, len, &pos, &r, NULL, 0)) > 0) {
		if (smq_key_eq(&r, "TargetName")) {
			if (!r.vlen)
				return -EPROTO;
			if (target && !target_has_addr) {
				ret = fn(ctx, target, NULL);
				if (ret)
					return ret;
			}
			target = r.val;
			target_has_addr = false;
			nr++;
		} else if (smq_key_eq(&r, "TargetAddress")) {
			if (!target || !r.vlen)
				return -EPROTO;
			target_has_addr = true;
			ret = fn(ctx, target, r.val);
			if (ret)
				return ret;
		}
	}
	if (ret)
		return ret;
	if (target && !target_has_addr) {
		ret = fn(ctx, target, NULL);
		if (ret)
			return ret;
	}
	return nr;
}

/* ---- security stage: AuthMethod and CHAP -------------------------------- */

static int smq_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int smq_b64_digit(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/**
 * smq_chap_hex_decode() - decode a binary value (RFC 7143 6.1)
 * @s: the value: 0x (or 0X) and hex digits, or 0b (or 0B) and base64.
 * @n: its length.
 * @out: output.
 * @max: size of @out.
 *
 * An odd number of hex digits has an implied leading zero, as the RFC
 * says; base64 may end with '=' padding.
 *
 * Return: the number of bytes, or -EINVAL (no 0x / 0b prefix, a bad
 * digit, nothing after the prefix, more than @max bytes).
 */
int smq_chap_hex_decode(const char *s, size_t n, u8 *out, size_t max)
{
	size_t i, len = 0;
	unsigned int acc = 0, bits = 0;
	int d;

	if (n < 3 || s[0] != '0')
		return -EINVAL;
	if (s[1] == 'x' || s[1] == 'X') {
		size_t digits = n - 2;

		if ((digits + 1) / 2 > max)
			return -EINVAL;
		i = 2;
		if (digits & 1) {
			d = smq_hex_digit(s[i++]);
			if (d < 0)
				return -EINVAL;
			out[len++] = d;
		}
		for (; i < n; i += 2) {
			int hi = smq_hex_digit(s[i]), lo = smq_hex_digit(s[i + 1]);

			if (hi < 0 || lo < 0)
				return -EINVAL;
			out[len++] = hi << 4 | lo;
		}
		return len;
	}
	if (s[1] != 'b' && s[1] != 'B')
		return -EINVAL;
	while (n > 2 && s[n - 1] == '=')
		n--;
	for (i = 2; i < n; i++) {
		d = smq_b64_digit(s[i]);
		if (d < 0)
			return -EINVAL;
		acc = (acc << 6 | d) & 0xffffff;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (len >= max)
				return -EINVAL;
			out[len++] = acc >> bits;
		}
	}
	return len ? (int)len : -EINVAL;
}

/* Append KEY=0x<hex of @n bytes>, @n <= SMQ_CHAP_DIGEST_MAX. */
static int smq_chap_add_hex(char *buf, size_t size, size_t *off,
			    const char *key, const u8 *b, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	char v[3 + 2 * SMQ_CHAP_DIGEST_MAX];
	size_t i;

	v[0] = '0';
	v[1] = 'x';
	for (i = 0; i < n; i++) {
		v[2 + 2 * i] = hex[b[i] >> 4];
		v[3 + 2 * i] = hex[b[i] & 15];
	}
	v[2 + 2 * n] = '\0';
	return smq_iscsi_text_add(buf, size, off, key, v);
}

/* Compare without leaking where the first difference is. */
static bool smq_chap_equal(const u8 *a, const u8 *b, size_t n)
{
	u8 d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= a[i] ^ b[i];
	return !d;
}

/**
 * smq_iscsi_security_offer() - the AuthMethod key of the first request
 * @c: the CHAP state (@name, @name_in and the secrets set, or @name NULL).
 * @buf: the login data buffer (InitiatorName... already in it).
 * @size: its size.
 * @off: in: bytes used; out: advanced.
 * @transit: out: the T bit of the request: set with AuthMethod=None only
 *	(nothing to negotiate), clear while CHAP may follow.
 *
 * AuthMethod=None without a CHAP name; CHAP,None with one (the target
 * decides whether it authenticates us); CHAP alone for mutual CHAP (we
 * must authenticate the target).
 *
 * Return: 0 or -ENOSPC.
 */
int smq_iscsi_security_offer(struct smq_iscsi_chap *c, char *buf,
			     size_t size, size_t *off, bool *transit)
{
	c->state = SMQ_CHAP_ST_OFFERED;
	*transit = !c->name;
	return smq_iscsi_text_add(buf, size, off, "AuthMethod",
				  !c->name ? "None" :
				  c->name_in ? "CHAP" : "CHAP,None");
}

/* The security keys of one Login Response, each at most once. */
struct smq_sec_keys {
	struct smq_rec am, a, i, c, n, r;
};

static int smq_sec_parse(const char *data, size_t len, struct smq_sec_keys *k,
			 char *why, size_t whylen)
{
	struct {
		const char *name;
		struct smq_rec *rec;
	} tab[] = {
		{ "AuthMethod", &k->am }, { "CHAP_A", &k->a }, { "CHAP_I", &k->i },
		{ "CHAP_C", &k->c }, { "CHAP_N", &k->n }, { "CHAP_R", &k->r },
	};
	struct smq_rec r;
	size_t pos = 0;
	unsigned int i;
	int ret;

	memset(k, 0, sizeof(*k));
	if (!data)
		len = 0;
	while ((ret = smq_text_next(data, len, &pos, &r, why, whylen)) > 0) {
		for (i = 0; i < ARRAY_SIZE(tab); i++)
			if (smq_key_eq(&r, tab[i].name))
				break;
		if (i == ARRAY_SIZE(tab)) {
			/* TargetPortalGroupTag, TargetAlias, X- keys... */
			if (r.klen > 5 && !memcmp(r.key, "CHAP_", 5))
				return smq_why(why, whylen, r.key, r.klen,
					       "unknown CHAP key");
			continue;
		}
		if (tab[i].rec->key)
			return smq_why(why, whylen, r.key, r.klen,
				       "key received twice");
		*tab[i].rec = r;
	}
	return ret;
}

static int smq_chap_fail(char *why, size_t whylen, const char *key,
			 const char *msg)
{
	smq_why(why, whylen, key, strlen(key), msg);
	return -EACCES;
}

/* CHAP_A, CHAP_I, CHAP_C arrived: answer CHAP_N, CHAP_R (+ ours). */
static int smq_chap_answer(struct smq_iscsi_chap *c, const struct smq_sec_keys *k,
			   char *buf, size_t size, size_t *off, char *why,
			   size_t whylen)
{
	u32 alg, id;
	int n, ret;

	if (!k->a.key || !k->i.key || !k->c.key)
		return smq_why(why, whylen, "CHAP_A", 6,
			       "CHAP_A, CHAP_I or CHAP_C missing");
	if (!smq_parse_u32(k->a.val, k->a.vlen, &alg) ||
	    (alg != SMQ_CHAP_MD5 && alg != SMQ_CHAP_SHA256))
		return smq_why(why, whylen, "CHAP_A", 6,
			       "not one of the algorithms offered (7, 5)");
	if (!smq_parse_u32(k->i.val, k->i.vlen, &id) || id > 255)
		return smq_why(why, whylen, "CHAP_I", 6, "not a number of 0-255");
	n = smq_chap_hex_decode(k->c.val, k->c.vlen, c->peer_chal,
				sizeof(c->peer_chal));
	if (n <= 0)
		return smq_why(why, whylen, "CHAP_C", 6,
			       "not a binary value of 1-1024 bytes");
	c->alg = alg;
	c->dlen = alg == SMQ_CHAP_MD5 ? 16 : 32;
	c->peer_chal_len = n;
	if (c->name_in && (size_t)n == c->dlen &&
	    smq_chap_equal(c->peer_chal, c->challenge, n))
		return smq_chap_fail(why, whylen, "CHAP_C",
				     "the target's challenge is ours (reflection)");
	ret = c->hash(c->hash_ctx, c->alg, id, c->secret, c->secret_len,
		      c->peer_chal, n, c->resp);
	if (ret)
		return ret;
	ret = smq_iscsi_text_add(buf, size, off, "CHAP_N", c->name);
	if (!ret)
		ret = smq_chap_add_hex(buf, size, off, "CHAP_R", c->resp,
				       c->dlen);
	if (!ret && c->name_in) {
		ret = smq_iscsi_text_add_u32(buf, size, off, "CHAP_I", c->id);
		if (!ret)
			ret = smq_chap_add_hex(buf, size, off, "CHAP_C",
					       c->challenge, c->dlen);
	}
	return ret;
}

/* Mutual CHAP: check the target's CHAP_N and CHAP_R. */
static int smq_chap_verify(struct smq_iscsi_chap *c, const struct smq_sec_keys *k,
			   char *why, size_t whylen)
{
	u8 got[SMQ_CHAP_DIGEST_MAX];
	int n, ret;

	if (!k->n.key || !k->r.key)
		return smq_chap_fail(why, whylen, "CHAP_R",
				     "the target did not answer our challenge");
	if (k->n.vlen != strlen(c->name_in) ||
	    memcmp(k->n.val, c->name_in, k->n.vlen))
		return smq_chap_fail(why, whylen, "CHAP_N",
				     "the target's name is not username_in");
	n = smq_chap_hex_decode(k->r.val, k->r.vlen, got, sizeof(got));
	if (n != c->dlen)
		return smq_chap_fail(why, whylen, "CHAP_R",
				     "not a digest of the chosen algorithm");
	if (smq_chap_equal(got, c->resp, n))
		return smq_chap_fail(why, whylen, "CHAP_R",
				     "the target's response is ours (reflection)");
	ret = c->hash(c->hash_ctx, c->alg, c->id, c->secret_in,
		      c->secret_in_len, c->challenge, c->dlen, c->scratch);
	if (ret)
		return ret;
	if (!smq_chap_equal(got, c->scratch, n))
		return smq_chap_fail(why, whylen, "CHAP_R",
				     "the target's response is wrong (password_in)");
	return 0;
}

/**
 * smq_iscsi_security_step() - apply one security-stage Login Response
 * @c: the state smq_iscsi_security_offer() started.
 * @data: the response's text (continued text joined).
 * @len: its length.
 * @target_transit: the response has T set with NSG operational.
 * @buf: the next request's data buffer.
 * @size: its size.
 * @off: in: bytes used in @buf; out: advanced past the keys to send.
 * @transit: out: the T bit of the next request.
 * @why: output, a one-line reason naming the key on error (no secret,
 *	no digest, may be NULL).
 * @whylen: size of @why.
 *
 * RFC 7143 12.1.3 with RFC 1994: the target picks AuthMethod; with CHAP
 * we offer CHAP_A=7,5 (SHA-256, MD5), take CHAP_A, CHAP_I and CHAP_C and
 * answer CHAP_N and CHAP_R = H(CHAP_I || secret || CHAP_C) in hex; for
 * mutual CHAP we also send our CHAP_I and CHAP_C (as many random bytes
 * as the digest) and check the target's CHAP_N and CHAP_R.  A target
 * challenge equal to ours and a target response equal to ours
 * (reflection) are refused.  Keys other than AuthMethod and CHAP_* are
 * ignored here.  Once done (@c->state SMQ_CHAP_ST_DONE) the next request
 * asks to transit; the caller stops when @target_transit.
 *
 * Return: 0; -EACCES when the target cannot be authenticated (mutual
 * CHAP failed, AuthMethod=None refused for mutual CHAP, reflection);
 * -EPROTO for malformed or unexpected keys; -ENOSPC; or @c->hash's error.
 */
int smq_iscsi_security_step(struct smq_iscsi_chap *c, const char *data,
			    size_t len, bool target_transit, char *buf,
			    size_t size, size_t *off, bool *transit, char *why,
			    size_t whylen)
{
	struct smq_sec_keys k;
	bool chap_keys;
	int ret;

	if (why && whylen)
		why[0] = '\0';
	ret = smq_sec_parse(data, len, &k, why, whylen);
	if (ret)
		return ret;
	chap_keys = k.a.key || k.i.key || k.c.key || k.n.key || k.r.key;
	*transit = true;
	switch (c->state) {
	case SMQ_CHAP_ST_OFFERED:
		if (chap_keys)
			return smq_why(why, whylen, "CHAP_A", 6,
				       "CHAP keys before AuthMethod");
		if (!k.am.key)
			return smq_why(why, whylen, "AuthMethod", 10,
				       "not answered");
		if (!strcmp(k.am.val, "None")) {
			if (c->name_in)
				return smq_chap_fail(why, whylen, "AuthMethod",
						     "the target will not do CHAP (mutual CHAP asked)");
			c->state = SMQ_CHAP_ST_DONE;
			return 0;
		}
		if (!strcmp(k.am.val, "CHAP") && c->name) {
			if (target_transit)
				return smq_why(why, whylen, "AuthMethod", 10,
					       "CHAP chosen but the target left the security stage");
			c->state = SMQ_CHAP_ST_ALG;
			*transit = false;
			return smq_iscsi_text_add(buf, size, off, "CHAP_A",
						  "7,5");
		}
		if (!strcmp(k.am.val, "Reject"))
			return smq_chap_fail(why, whylen, "AuthMethod",
					     "the target refuses the methods offered");
		return smq_why(why, whylen, "AuthMethod", 10,
			       "not one of the methods offered");
	case SMQ_CHAP_ST_ALG:
		if (target_transit)
			return smq_why(why, whylen, "CHAP_A", 6,
				       "the target left the security stage during CHAP");
		if (k.am.key || k.n.key || k.r.key)
			return smq_why(why, whylen, "CHAP_N", 6,
				       "unexpected key after CHAP_A");
		ret = smq_chap_answer(c, &k, buf, size, off, why, whylen);
		if (ret)
			return ret;
		c->state = SMQ_CHAP_ST_RESPONSE;
		return 0;
	case SMQ_CHAP_ST_RESPONSE:
		if (k.am.key || k.a.key || k.i.key || k.c.key)
			return smq_why(why, whylen, "CHAP_C", 6,
				       "unexpected key after our response");
		if (c->name_in) {
			ret = smq_chap_verify(c, &k, why, whylen);
			if (ret)
				return ret;
		} else if (chap_keys) {
			return smq_why(why, whylen, "CHAP_R", 6,
				       "a response we did not ask for");
		}
		c->state = SMQ_CHAP_ST_DONE;
		return 0;
	case SMQ_CHAP_ST_DONE:
		if (k.am.key || chap_keys)
			return smq_why(why, whylen, "AuthMethod", 10,
				       "security keys after authentication");
		return 0;
	}
	return smq_why(why, whylen, "AuthMethod", 10, "security stage not started");
}
