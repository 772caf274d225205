// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of drivers/iser/smq_iser_login.c: the keys an iSER initiator
 * proposes, a transcript of what LIO (iscsi_target_parameters.c with an
 * ib_isert portal) answers negotiated to the right values, target offers
 * and our replies, the special values, every malformed or hostile text
 * rejected with a reason naming the key, and SendTargets answers.  Text
 * is parsed from exact-size heap copies, so ASan sees any over-read.
 */
/* SMQ_UNIT_SOURCES: smq_iser_login.c */
#define SMQ_TEST_MAIN
#include "smq_test.h"
#include "smq_iser_pdu.h"

/* "a=b\0c=d\0" literal: sizeof - 1 drops the compiler's final NUL. */
#define T(s)	s, sizeof(s) - 1

static char why[SMQ_ISCSI_WHY_LEN];

static int nego(struct smq_iscsi_params *p, const char *txt, size_t len)
{
	char *b = malloc(len ? len : 1);
	int ret;

	memcpy(b, txt, len);
	ret = smq_iscsi_login_negotiate(p, b, len, why, sizeof(why));
	free(b);
	return ret;
}

/* Fresh defaults, proposed. */
static void proposed(struct smq_iscsi_params *p)
{
	char buf[1024];
	size_t off = 0;

	smq_iscsi_params_default(p);
	CHECK_EQ(smq_iscsi_login_keys(p, buf, sizeof(buf), &off), 0);
}

static void test_text_add(void)
{
	char b[16];
	size_t off = 0;

	memset(b, 'x', sizeof(b));
	CHECK_EQ(smq_iscsi_text_add(b, sizeof(b), &off, "Ab", "Yes"), 0);
	CHECK_EQ(off, 7);
	CHECK_MEM(b, "Ab=Yes\0", 7);
	CHECK_EQ(smq_iscsi_text_add_u32(b, sizeof(b), &off, "N", 4294967295U),
		 -ENOSPC);		/* needs 13 bytes, 9 left */
	CHECK_EQ(off, 7);
	CHECK(b[7] == 'x');
	CHECK_EQ(smq_iscsi_text_add_u32(b, sizeof(b), &off, "N", 0), 0);
	CHECK_MEM(b + 7, "N=0\0", 4);
	CHECK_EQ(off, 11);
	CHECK_EQ(smq_iscsi_text_add(b, sizeof(b), &off, "K", "123"), -ENOSPC);
	CHECK_EQ(smq_iscsi_text_add(b, sizeof(b), &off, "K", "12"), 0);
	CHECK_EQ(off, 16);		/* exactly full */
	CHECK_EQ(smq_iscsi_text_add(b, sizeof(b), &off, "", ""), -ENOSPC);
	off = 17;
	CHECK_EQ(smq_iscsi_text_add(b, sizeof(b), &off, "a", "b"), -ENOSPC);
}

static void test_login_keys(void)
{
	static const char want[] =
		"HeaderDigest=None\0DataDigest=None\0MaxConnections=1\0"
		"InitialR2T=Yes\0ImmediateData=No\0MaxBurstLength=16776192\0"
		"FirstBurstLength=262144\0DefaultTime2Wait=2\0"
		"DefaultTime2Retain=0\0MaxOutstandingR2T=1\0"
		"DataPDUInOrder=Yes\0DataSequenceInOrder=Yes\0"
		"ErrorRecoveryLevel=0\0RDMAExtensions=Yes\0"
		"InitiatorRecvDataSegmentLength=8192\0"
		"TargetRecvDataSegmentLength=8192\0";
	struct smq_iscsi_params p;
	char buf[1024];
	size_t off = 0, n;

	smq_iscsi_params_default(&p);
	CHECK(p.rdma_ext && !p.header_digest && !p.data_digest);
	CHECK(!p.immediate_data && p.initial_r2t && p.erl == 0);
	CHECK_EQ(smq_iscsi_login_keys(&p, buf, sizeof(buf), &off), 0);
	CHECK_EQ(off, sizeof(want) - 1);
	CHECK_MEM(buf, want, sizeof(want) - 1);
	/* MaxOutstandingUnexpectedPDUs only when not 0 */
	smq_iscsi_params_default(&p);
	p.max_unexpected = 128;
	off = 0;
	CHECK_EQ(smq_iscsi_login_keys(&p, buf, sizeof(buf), &off), 0);
	CHECK_MEM(buf + off - 33, "MaxOutstandingUnexpectedPDUs=128\0", 33);
	/* every too-small buffer fails with -ENOSPC, never overflows */
	for (n = 0; n < sizeof(want) - 1; n++) {
		char *b = malloc(n ? n : 1);

		smq_iscsi_params_default(&p);
		off = 0;
		CHECK_EQ(smq_iscsi_login_keys(&p, b, n, &off), -ENOSPC);
		CHECK(off <= n);
		free(b);
	}
}

/*
 * What LIO 6.12 answers to the keys above on an iSER portal with its
 * defaults: values in its parameter list order, acceptor answers only
 * (InitialR2T=Yes, ImmediateData=No and the two OR keys proposed Yes are
 * reply-optional, so absent), MaxBurstLength / FirstBurstLength its
 * own smaller defaults, DefaultTime2Retain our 0, IRDSL / TRDSL echoed.
 */
static const char lio_op_answer[] =
	"HeaderDigest=None\0DataDigest=None\0MaxConnections=1\0"
	"MaxBurstLength=262144\0FirstBurstLength=65536\0"
	"DefaultTime2Wait=2\0DefaultTime2Retain=0\0MaxOutstandingR2T=1\0"
	"ErrorRecoveryLevel=0\0RDMAExtensions=Yes\0"
	"InitiatorRecvDataSegmentLength=8192\0"
	"TargetRecvDataSegmentLength=8192\0";

static void test_lio_transcript(void)
{
	struct smq_iscsi_params p;
	char buf[64];
	size_t off = 0;

	proposed(&p);
	/* the security stage's response: AuthMethod, TPGT, alias */
	CHECK_EQ(nego(&p, T("AuthMethod=None\0TargetPortalGroupTag=1\0"
			    "TargetAlias=LIO Target\0")), 0);
	CHECK_EQ(nego(&p, T(lio_op_answer)), 0);
	CHECK_EQ(p.max_burst, 262144);
	CHECK_EQ(p.first_burst, 65536);
	CHECK_EQ(p.max_conns, 1);
	CHECK_EQ(p.time2wait, 2);
	CHECK_EQ(p.time2retain, 0);
	CHECK_EQ(p.max_r2t, 1);
	CHECK_EQ(p.erl, 0);
	CHECK(p.rdma_ext && !p.header_digest && !p.data_digest);
	CHECK(p.initial_r2t && !p.immediate_data);
	CHECK(p.data_pdu_in_order && p.data_seq_in_order);
	CHECK_EQ(p.initiator_recv_dsl, 8192);
	CHECK_EQ(p.target_recv_dsl, 8192);
	CHECK_EQ(p.max_recv_dsl, 8192);
	CHECK_EQ(p.offered, 0);
	CHECK_EQ(smq_iscsi_login_check(&p, why, sizeof(why)), 0);
	CHECK_STR(why, "");
	CHECK_EQ(smq_iscsi_login_reply_keys(&p, buf, sizeof(buf), &off), 0);
	CHECK_EQ(off, 0);

	/* the same answer in two responses, split between records */
	proposed(&p);
	CHECK_EQ(nego(&p, lio_op_answer, 96), 0);
	CHECK_MEM(lio_op_answer + 96, "DefaultTime2Wait", 16);
	CHECK_EQ(nego(&p, lio_op_answer + 96, sizeof(lio_op_answer) - 97), 0);
	CHECK_EQ(smq_iscsi_login_check(&p, why, sizeof(why)), 0);
	CHECK_EQ(p.target_recv_dsl, 8192);

	/* a target configured larger declares a larger TRDSL */
	proposed(&p);
	CHECK_EQ(nego(&p, T("TargetRecvDataSegmentLength=262144\0"
			    "MaxBurstLength=0x100000\0")), 0);
	CHECK_EQ(p.target_recv_dsl, 262144);
	CHECK_EQ(p.max_burst, 0x100000);
	/* the rest unanswered: not usable yet */
	CHECK_EQ(smq_iscsi_login_check(&p, why, sizeof(why)), -EPROTO);
	CHECK_STR(why, "HeaderDigest: not answered");
}

static void test_results(void)
{
	struct smq_iscsi_params p;

	/* OR keys proposed Yes stay Yes even if answered No */
	proposed(&p);
	CHECK_EQ(nego(&p, T("InitialR2T=No\0DataPDUInOrder=No\0")), 0);
	CHECK(p.initial_r2t && p.data_pdu_in_order);
	/* AND: ImmediateData proposed Yes, answered No */
	smq_iscsi_params_default(&p);
	p.immediate_data = true;
	p.initial_r2t = false;
	{
		char b[1024];
		size_t off = 0;

		CHECK_EQ(smq_iscsi_login_keys(&p, b, sizeof(b), &off), 0);
	}
	CHECK_EQ(nego(&p, T(lio_op_answer)), 0);
	/* proposed Yes and not answered yet */
	CHECK_EQ(smq_iscsi_login_check(&p, why, sizeof(why)), -EPROTO);
	CHECK_STR(why, "InitialR2T: not answered");
	CHECK_EQ(nego(&p, T("ImmediateData=No\0InitialR2T=Yes\0")), 0);
	CHECK(!p.immediate_data && p.initial_r2t);
	CHECK_EQ(smq_iscsi_login_check(&p, why, sizeof(why)), 0);
	/* DefaultTime2Wait takes the maximum */
	proposed(&p);
	CHECK_EQ(nego(&p, T("DefaultTime2Wait=3600\0")), 0);
	CHECK_EQ(p.time2wait, 3600);
	/* Irrelevant keeps ours; Reject gives the RFC default */
	proposed(&p);
	CHECK_EQ(nego(&p, T("FirstBurstLength=Irrelevant\0"
			    "MaxBurstLength=Reject\0")), 0);
	CHECK_EQ(p.first_burst, 262144);
	CHECK_EQ(p.max_burst, 262144);
	proposed(&p);
	CHECK_EQ(nego(&p, T("HeaderDigest=Irrelevant\0"
			    "ErrorRecoveryLevel=Irrelevant\0")), 0);
	CHECK(!p.header_digest && p.erl == 0);
	/* NotUnderstood of an iSER declarative key: the default */
	smq_iscsi_params_default(&p);
	p.max_unexpected = 64;
	{
		char b[1024];
		size_t off = 0;

		CHECK_EQ(smq_iscsi_login_keys(&p, b, sizeof(b), &off), 0);
	}
	CHECK_EQ(nego(&p, T("MaxOutstandingUnexpectedPDUs=NotUnderstood\0")),
		 0);
	CHECK_EQ(p.max_unexpected, 0);
	/* ignored keys */
	proposed(&p);
	CHECK_EQ(nego(&p, T("X-com.example.foo=bar\0X#vendor=1\0"
			    "TargetAddress=10.0.0.1:3260,1\0IFMarker=No\0"
			    "OFMarkInt=Reject\0")), 0);
	/* NUL padding between and after records */
	CHECK_EQ(nego(&p, T("\0\0MaxConnections=1\0\0\0")), 0);
	CHECK_EQ(nego(&p, "", 0), 0);
	CHECK_EQ(smq_iscsi_login_negotiate(&p, NULL, 5, NULL, 0), 0);
}

static void test_offers(void)
{
	struct smq_iscsi_params p;
	char buf[256];
	size_t off = 0;

	/* nothing proposed: everything the target sends is an offer */
	smq_iscsi_params_default(&p);
	CHECK_EQ(nego(&p, T("MaxBurstLength=65536\0ImmediateData=Yes\0"
			    "HeaderDigest=CRC32C,None\0DefaultTime2Wait=1\0"
			    "RDMAExtensions=Yes\0"
			    "TargetRecvDataSegmentLength=4096\0")), 0);
	CHECK_EQ(p.max_burst, 65536);
	CHECK(!p.immediate_data);		/* ours No AND Yes */
	CHECK(!p.header_digest);
	CHECK_EQ(p.time2wait, 2);		/* max(2, 1) */
	CHECK_EQ(p.target_recv_dsl, 4096);	/* declared: no answer */
	CHECK_EQ(smq_iscsi_login_reply_keys(&p, buf, sizeof(buf), &off), 0);
	CHECK_EQ(off, sizeof("HeaderDigest=None\0ImmediateData=No\0"
			     "MaxBurstLength=65536\0DefaultTime2Wait=2\0"
			     "RDMAExtensions=Yes\0") - 1);
	CHECK_MEM(buf, "HeaderDigest=None\0ImmediateData=No\0"
		  "MaxBurstLength=65536\0DefaultTime2Wait=2\0"
		  "RDMAExtensions=Yes\0", off);
	CHECK_EQ(p.offered, 0);
	/* offers we cannot accept */
	smq_iscsi_params_default(&p);
	CHECK_EQ(nego(&p, T("DataDigest=CRC32C\0")), -EPROTO);
	CHECK_STR(why, "DataDigest: digests are not used with iSER");
	smq_iscsi_params_default(&p);
	CHECK_EQ(nego(&p, T("RDMAExtensions=No\0")), -EPROTO);
	CHECK_STR(why, "RDMAExtensions: target refuses RDMA extensions");
	smq_iscsi_params_default(&p);
	CHECK_EQ(nego(&p, T("MaxBurstLength=Irrelevant\0")), -EPROTO);
	CHECK_STR(why, "MaxBurstLength: offered with a special value");
	/* an offer of ERL 2 is answered 0 */
	smq_iscsi_params_default(&p);
	CHECK_EQ(nego(&p, T("ErrorRecoveryLevel=2\0")), 0);
	CHECK_EQ(p.erl, 0);
	off = 0;
	CHECK_EQ(smq_iscsi_login_reply_keys(&p, buf, 10, &off), -ENOSPC);
	CHECK_EQ(smq_iscsi_login_reply_keys(&p, buf, sizeof(buf), &off), 0);
	CHECK_MEM(buf, "ErrorRecoveryLevel=0\0", off);
}

struct bad {
	const char *txt;
	size_t len;
	const char *why;
};

#define BAD(s, w)	{ s, sizeof(s) - 1, w }

static void test_rejects(void)
{
	static const struct bad bad[] = {
		BAD("MaxBurstLength", "MaxBurstLength: record not NUL-terminated"),
		BAD("MaxBurstLength=512", "MaxBurstLength: record not NUL-terminated"),
		BAD("MaxBurstLength\0", "MaxBurstLength: no '=' in record"),
		BAD("=5\0", "(empty): empty key name"),
		BAD("Max Burst=5\0", "Max Burst: invalid character in key name"),
		BAD("MaxBurstLength=\0", "MaxBurstLength: not a number"),
		BAD("MaxBurstLength=12a\0", "MaxBurstLength: not a number"),
		BAD("MaxBurstLength=-1\0", "MaxBurstLength: not a number"),
		BAD("MaxBurstLength=0x\0", "MaxBurstLength: not a number"),
		BAD("MaxBurstLength=4294967296\0", "MaxBurstLength: not a number"),
		BAD("MaxBurstLength=511\0", "MaxBurstLength: out of range"),
		BAD("MaxBurstLength=16777216\0", "MaxBurstLength: out of range"),
		BAD("MaxConnections=0\0", "MaxConnections: out of range"),
		BAD("MaxConnections=2\0",
		    "MaxConnections: answer above the value proposed"),
		BAD("DefaultTime2Wait=1\0",
		    "DefaultTime2Wait: answer below the value proposed"),
		BAD("DefaultTime2Wait=3601\0", "DefaultTime2Wait: out of range"),
		BAD("ErrorRecoveryLevel=3\0", "ErrorRecoveryLevel: out of range"),
		BAD("ErrorRecoveryLevel=Reject\0", "ErrorRecoveryLevel: Reject"),
		BAD("InitialR2T=yes\0", "InitialR2T: not Yes or No"),
		BAD("InitialR2T=Yes,No\0", "InitialR2T: not Yes or No"),
		BAD("RDMAExtensions=No\0",
		    "RDMAExtensions: target refuses RDMA extensions"),
		BAD("RDMAExtensions=Irrelevant\0", "RDMAExtensions: Irrelevant"),
		BAD("RDMAExtensions=NotUnderstood\0",
		    "RDMAExtensions: NotUnderstood"),
		BAD("HeaderDigest=CRC32C\0",
		    "HeaderDigest: digests are not used with iSER"),
		BAD("HeaderDigest=None,CRC32C\0", "HeaderDigest: invalid digest"),
		BAD("DataDigest=Reject\0", "DataDigest: Reject"),
		BAD("MaxBurstLength=NotUnderstood\0",
		    "MaxBurstLength: standard key answered NotUnderstood"),
		BAD("MaxConnections=1\0MaxConnections=1\0",
		    "MaxConnections: key received twice"),
		BAD("TargetAlias=a\0TargetAlias=b\0",
		    "TargetAlias: key received twice"),
		BAD("AuthMethod=CHAP\0",
		    "AuthMethod: only AuthMethod=None is supported"),
		BAD("TargetPortalGroupTag=65536\0",
		    "TargetPortalGroupTag: not a number of 0-65535"),
		BAD("TargetRecvDataSegmentLength=100\0",
		    "TargetRecvDataSegmentLength: out of range"),
		BAD("MaxOutstandingUnexpectedPDUs=1\0",
		    "MaxOutstandingUnexpectedPDUs: out of range"),
		BAD("SessionType=Normal\0", "SessionType: unknown key"),
		BAD("Foo=bar\0", "Foo: unknown key"),
		BAD("MaxConnections=1\0\x01\x02=3\0",
		    "??: invalid character in key name"),
		BAD("MaxConnections=1\0DataPDUInOrder", "DataPDUInOrder: "
		    "record not NUL-terminated"),
	};
	struct smq_iscsi_params p;
	char long_key[80], long_val[300];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		proposed(&p);
		memset(why, 0, sizeof(why));
		CHECK_EQ(nego(&p, bad[i].txt, bad[i].len), -EPROTO);
		if (strcmp(why, bad[i].why))
			fprintf(stderr, "  case %u: \"%s\"\n", i, why);
		CHECK_STR(why, bad[i].why);
	}
	/* key of 64 bytes; value of 256 bytes (255 is fine) */
	memset(long_key, 'K', 64);
	memcpy(long_key + 64, "=1", 3);
	proposed(&p);
	CHECK_EQ(nego(&p, long_key, 67), -EPROTO);
	CHECK(strstr(why, ": key name longer than 63 bytes"));
	CHECK(strlen(why) < sizeof(why));
	memcpy(long_val, "TargetAlias=", 12);
	memset(long_val + 12, 'v', 256);
	long_val[12 + 256] = '\0';
	CHECK_EQ(nego(&p, long_val, 12 + 257), -EPROTO);
	CHECK_STR(why, "TargetAlias: value longer than 255 bytes");
	long_val[12 + 255] = '\0';
	CHECK_EQ(nego(&p, long_val, 12 + 256), 0);
	/* an answer twice, across two responses */
	proposed(&p);
	CHECK_EQ(nego(&p, T("MaxBurstLength=8192\0")), 0);
	CHECK_EQ(nego(&p, T("MaxBurstLength=8192\0")), -EPROTO);
	CHECK_STR(why, "MaxBurstLength: key received twice");
	/* a tiny or missing why buffer */
	{
		char small[8];

		proposed(&p);
		CHECK_EQ(smq_iscsi_login_negotiate(&p, "Foo=1", 6, small,
						   sizeof(small)), -EPROTO);
		CHECK_STR(small, "Foo: un");
		CHECK_EQ(smq_iscsi_login_negotiate(&p, "Foo=1", 6, NULL, 0),
			 -EPROTO);
	}
	/* login_check: RDMA, digests, ERL, bursts */
	proposed(&p);
	CHECK_EQ(nego(&p, T(lio_op_answer)), 0);
	p.rdma_ext = false;
	CHECK_EQ(smq_iscsi_login_check(&p, why, sizeof(why)), -EPROTO);
	CHECK_STR(why, "RDMAExtensions: not Yes");
	p.rdma_ext = true;
	p.initial_r2t = false;
	p.answered = ~0U;
	p.first_burst = p.max_burst + 1;
	CHECK_EQ(smq_iscsi_login_check(&p, why, sizeof(why)), -EPROTO);
	CHECK_STR(why, "FirstBurstLength: above MaxBurstLength");
}

struct st_ctx {
	char out[512];
	int calls, stop_at;
};

static int st_cb(void *ctx, const char *target, const char *addr)
{
	struct st_ctx *c = ctx;
	size_t n = strlen(c->out);

	snprintf(c->out + n, sizeof(c->out) - n, "%s|%s;", target,
		 addr ? addr : "-");
	return ++c->calls == c->stop_at ? -EINTR : 0;
}

static int st(const char *txt, size_t len, struct st_ctx *c)
{
	char *b = malloc(len ? len : 1);
	int ret;

	memcpy(b, txt, len);
	ret = smq_iscsi_sendtargets_parse(b, len, st_cb, c);
	free(b);
	return ret;
}

static void test_sendtargets(void)
{
	static const char lio[] =
		"TargetName=iqn.2003-01.org.linux-iscsi.h1:sn.1\0"
		"TargetAddress=192.168.1.10:3260,1\0"
		"TargetAddress=[fe80::1]:3260,1\0"
		"TargetName=iqn.2003-01.org.linux-iscsi.h1:sn.2\0"
		"TargetName=iqn.2003-01.org.linux-iscsi.h1:sn.3\0"
		"X-foo=bar\0TargetAddress=10.0.0.3:3261,2\0";
	struct st_ctx c = { .out = "" };

	CHECK_EQ(st(T(lio), &c), 3);
	CHECK_STR(c.out,
		  "iqn.2003-01.org.linux-iscsi.h1:sn.1|192.168.1.10:3260,1;"
		  "iqn.2003-01.org.linux-iscsi.h1:sn.1|[fe80::1]:3260,1;"
		  "iqn.2003-01.org.linux-iscsi.h1:sn.2|-;"
		  "iqn.2003-01.org.linux-iscsi.h1:sn.3|10.0.0.3:3261,2;");
	/* a last target without an address */
	memset(&c, 0, sizeof(c));
	CHECK_EQ(st(T("TargetName=a\0"), &c), 1);
	CHECK_STR(c.out, "a|-;");
	/* the callback stops it */
	memset(&c, 0, sizeof(c));
	c.stop_at = 2;
	CHECK_EQ(st(T(lio), &c), -EINTR);
	CHECK_EQ(c.calls, 2);
	/* nothing */
	memset(&c, 0, sizeof(c));
	CHECK_EQ(st("", 0, &c), 0);
	CHECK_EQ(smq_iscsi_sendtargets_parse(NULL, 9, st_cb, &c), 0);
	CHECK_EQ(c.calls, 0);
	/* malformed */
	CHECK_EQ(st(T("TargetAddress=1.2.3.4:3260,1\0"), &c), -EPROTO);
	CHECK_EQ(st(T("TargetName=\0"), &c), -EPROTO);
	CHECK_EQ(st(T("TargetName=a\0TargetAddress=\0"), &c), -EPROTO);
	CHECK_EQ(st(T("TargetName=a\0TargetAddress=1.2.3.4"), &c), -EPROTO);
	CHECK_EQ(st(T("TargetName\0"), &c), -EPROTO);
}

static void test_discovery_keys(void)
{
	struct smq_iscsi_params p;
	char buf[1024];
	size_t off = 0;

	smq_iscsi_params_default(&p);
	p.discovery = true;
	CHECK_EQ(smq_iscsi_login_keys(&p, buf, sizeof(buf), &off), 0);
	/* digests and the iSER keys only: nothing session-wide */
	CHECK_MEM(buf, "HeaderDigest=None\0DataDigest=None\0RDMAExtensions=Yes\0"
		  "InitiatorRecvDataSegmentLength=8192\0"
		  "TargetRecvDataSegmentLength=8192\0", off);
	/* the five keys above are all: nothing session-wide follows */
	CHECK_EQ(off, sizeof("HeaderDigest=None\0DataDigest=None\0RDMAExtensions=Yes\0"
			     "InitiatorRecvDataSegmentLength=8192\0"
			     "TargetRecvDataSegmentLength=8192\0") - 1);
	/* a target calling the iSER keys irrelevant there is fine */
	CHECK_EQ(nego(&p, T("HeaderDigest=None\0DataDigest=None\0"
			    "RDMAExtensions=Irrelevant\0"
			    "TargetRecvDataSegmentLength=8192\0")), 0);
	CHECK_EQ(smq_iscsi_login_check(&p, why, sizeof(why)), 0);
	/* LIO runs a discovery session without RDMA extensions */
	smq_iscsi_params_default(&p);
	p.discovery = true;
	off = 0;
	CHECK_EQ(smq_iscsi_login_keys(&p, buf, sizeof(buf), &off), 0);
	CHECK_EQ(nego(&p, T("HeaderDigest=None\0DataDigest=None\0"
			    "RDMAExtensions=No\0")), 0);
	CHECK_EQ(smq_iscsi_login_check(&p, why, sizeof(why)), 0);
	CHECK(!p.rdma_ext);
	/* a digest stays refused */
	smq_iscsi_params_default(&p);
	p.discovery = true;
	off = 0;
	CHECK_EQ(smq_iscsi_login_keys(&p, buf, sizeof(buf), &off), 0);
	CHECK_EQ(nego(&p, T("HeaderDigest=CRC32C\0")), -EPROTO);
	/* a normal session still needs them */
	proposed(&p);
	CHECK_EQ(nego(&p, T("RDMAExtensions=Irrelevant\0")), -EPROTO);
	proposed(&p);
	CHECK_EQ(nego(&p, T("RDMAExtensions=No\0")), -EPROTO);
}

static const struct smq_test tests[] = {
	SMQ_TEST(test_text_add),
	SMQ_TEST(test_login_keys),
	SMQ_TEST(test_lio_transcript),
	SMQ_TEST(test_results),
	SMQ_TEST(test_offers),
	SMQ_TEST(test_rejects),
	SMQ_TEST(test_sendtargets),
	SMQ_TEST(test_discovery_keys),
};

int main(void)
{
	return smq_test_main("test_iser_login", tests, ARRAY_SIZE(tests));
}
