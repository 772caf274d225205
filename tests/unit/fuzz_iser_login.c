// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: login key negotiation, SendTargets parsing, and the CHAP
 * security stage (each state, one-way and mutual) and binary values.
 */
/* SMQ_UNIT_SOURCES: smq_iser_login.c uk_digest.c */
#include "smq_fuzz.h"
#include "smq_iser_pdu.h"
#include "uk_digest.h"

/* Drive the security stage to the state @st, then feed it @data. */
static void fuzz_chap(const u8 *data, size_t size)
{
	static struct smq_iscsi_chap c;
	char why[SMQ_ISCSI_WHY_LEN], out[4096];
	unsigned int st = size ? data[size - 1] % 4 : 0;
	bool mutual = size > 1 && (data[size - 2] & 1), tr;
	size_t off = 0;
	int ret;

	memset(&c, 0, sizeof(c));
	c.name = "user";
	c.secret = (const u8 *)"secretsecret12";
	c.secret_len = 14;
	c.hash = uk_chap_hash;
	if (mutual) {
		c.name_in = "tgt";
		c.secret_in = (const u8 *)"targetsecret99";
		c.secret_in_len = 14;
	}
	FUZZ_ASSERT(!smq_iscsi_security_offer(&c, out, sizeof(out), &off, &tr));
	if (st >= 1) {
		off = 0;
		FUZZ_ASSERT(!smq_iscsi_security_step(&c, "AuthMethod=CHAP", 16,
						     false, out, sizeof(out),
						     &off, &tr, why, sizeof(why)));
	}
	if (st >= 2) {
		static const char alg[] = "CHAP_A=7\0CHAP_I=3\0CHAP_C=0xab\0";

		off = 0;
		FUZZ_ASSERT(!smq_iscsi_security_step(&c, alg, sizeof(alg) - 1,
						     false, out, sizeof(out),
						     &off, &tr, why, sizeof(why)));
	}
	if (st >= 3)
		c.state = SMQ_CHAP_ST_DONE;
	off = 0;
	memset(why, 0x5a, sizeof(why));
	ret = smq_iscsi_security_step(&c, (const char *)data, size,
				      size && (data[0] & 2), out, sizeof(out),
				      &off, &tr, why, sizeof(why));
	FUZZ_ASSERT(ret == 0 || ret == -EPROTO || ret == -EACCES);
	FUZZ_ASSERT(memchr(why, '\0', sizeof(why)));
	FUZZ_ASSERT(ret == 0 || why[0]);
	FUZZ_ASSERT(off <= sizeof(out));
	/* a mutual exchange never ends without the target's proof */
	if (!ret && mutual && st == 2)
		FUZZ_ASSERT(0);
	ret = smq_chap_hex_decode((const char *)data, size, (u8 *)out, 64);
	FUZZ_ASSERT(ret == -EINVAL || (ret > 0 && ret <= 64));
}

static int fuzz_st_cb(void *ctx, const char *target, const char *addr)
{
	unsigned int *n = ctx;

	FUZZ_ASSERT(target && *target);
	fuzz_touch((const u8 *)target, strlen(target) + 1);
	if (addr)
		fuzz_touch((const u8 *)addr, strlen(addr) + 1);
	return ++*n > 1000 ? -E2BIG : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smq_iscsi_params p;
	char why[SMQ_ISCSI_WHY_LEN], out[1024];
	unsigned int n = 0;
	size_t off = 0;
	int ret;

	if (size > 4096)
		return 0;
	smq_iscsi_params_default(&p);
	if (size && (data[0] & 1))	/* half the runs: answers, else offers */
		FUZZ_ASSERT(!smq_iscsi_login_keys(&p, out, sizeof(out), &off));
	memset(why, 0x5a, sizeof(why));
	ret = smq_iscsi_login_negotiate(&p, (const char *)data, size, why,
					sizeof(why));
	FUZZ_ASSERT(ret == 0 || ret == -EPROTO);
	FUZZ_ASSERT(memchr(why, '\0', sizeof(why)));
	FUZZ_ASSERT(ret == 0 || why[0]);
	if (!ret) {
		/* whatever was accepted keeps the iSER invariants */
		FUZZ_ASSERT(p.rdma_ext && !p.header_digest && !p.data_digest &&
			    !p.erl);
		off = 0;
		FUZZ_ASSERT(!smq_iscsi_login_reply_keys(&p, out, sizeof(out),
							&off));
		FUZZ_ASSERT(off <= sizeof(out) && !p.offered);
		smq_iscsi_login_check(&p, why, sizeof(why));
		FUZZ_ASSERT(memchr(why, '\0', sizeof(why)));
	}
	ret = smq_iscsi_sendtargets_parse((const char *)data, size, fuzz_st_cb,
					  &n);
	FUZZ_ASSERT(ret >= 0 || ret == -EPROTO || ret == -E2BIG);
	fuzz_chap(data, size);
	return 0;
}

void smq_fuzz_seeds(smq_fuzz_add_fn add)
{
	static const char lio[] =
		"\x01HeaderDigest=None\0DataDigest=None\0MaxConnections=1\0"
		"MaxBurstLength=262144\0FirstBurstLength=65536\0"
		"DefaultTime2Wait=2\0DefaultTime2Retain=0\0"
		"MaxOutstandingR2T=1\0ErrorRecoveryLevel=0\0"
		"RDMAExtensions=Yes\0InitiatorRecvDataSegmentLength=8192\0"
		"TargetRecvDataSegmentLength=8192\0";
	static const char offers[] =
		"TargetPortalGroupTag=1\0TargetAlias=LIO Target\0"
		"ImmediateData=Yes\0HeaderDigest=CRC32C,None\0"
		"X-foo=bar\0InitialR2T=No\0";
	static const char st[] =
		"TargetName=iqn.2003-01.org.linux-iscsi.h:sn.1\0"
		"TargetAddress=192.168.1.10:3260,1\0"
		"TargetName=iqn.2003-01.org.linux-iscsi.h:sn.2\0";
	static const char chap[] =
		"AuthMethod=CHAP\0CHAP_A=5\0CHAP_I=17\0CHAP_C=0b3q2+7w==\0\x01";
	static const char mutual[] =
		"CHAP_N=tgt\0CHAP_R=0x00112233445566778899aabbccddeeff\0\x01\x02";

	add((const u8 *)lio, sizeof(lio) - 1);
	add((const u8 *)lio + 1, sizeof(lio) - 2);
	add((const u8 *)offers, sizeof(offers) - 1);
	add((const u8 *)st, sizeof(st) - 1);
	add((const u8 *)chap, sizeof(chap) - 1);
	add((const u8 *)mutual, sizeof(mutual) - 1);
}
