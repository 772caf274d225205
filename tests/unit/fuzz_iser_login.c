// SPDX-License-Identifier: GPL-2.0
/* Fuzz target: login key negotiation and SendTargets parsing. */
/* SMQ_UNIT_SOURCES: smq_iser_login.c */
#include "smq_fuzz.h"
#include "smq_iser_pdu.h"

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

	add((const u8 *)lio, sizeof(lio) - 1);
	add((const u8 *)lio + 1, sizeof(lio) - 2);
	add((const u8 *)offers, sizeof(offers) - 1);
	add((const u8 *)st, sizeof(st) - 1);
}
