// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the security stage in drivers/iser/smq_iser_login.c:
 * the MD5 and SHA-256 of lib/uk_digest.c against the RFC 1321 and
 * FIPS 180-4 vectors, binary values (hex and base64), AuthMethod offers,
 * one-way CHAP with MD5 and SHA-256 (responses checked against digests
 * computed independently, with Python's hashlib), mutual CHAP, and every
 * refusal: a wrong or missing target response, the target's name, both
 * reflections, None when mutual CHAP is asked, malformed and unexpected
 * keys.  Text is parsed from exact-size heap copies (ASan sees over-reads).
 */
/* SMQ_UNIT_SOURCES: smq_iser_login.c uk_digest.c */
#define SMQ_TEST_MAIN
#include "smq_test.h"
#include "smq_iser_pdu.h"
#include "uk_digest.h"

#define T(s)	s, sizeof(s) - 1

static char why[SMQ_ISCSI_WHY_LEN];
static char out[4096];
static size_t off;
static bool tr;

static void hex(const u8 *b, size_t n, char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(s + 2 * i, "%02x", b[i]);
}

static void test_digests(void)
{
	static const char m80[] = "1234567890123456789012345678901234567890"
				  "1234567890123456789012345678901234567890";
	static const char s56[] =
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	u8 d[32];
	char s[65];

	uk_md5("", 0, d);
	hex(d, 16, s);
	CHECK_STR(s, "d41d8cd98f00b204e9800998ecf8427e");
	uk_md5("abc", 3, d);
	hex(d, 16, s);
	CHECK_STR(s, "900150983cd24fb0d6963f7d28e17f72");
	uk_md5(m80, 80, d);
	hex(d, 16, s);
	CHECK_STR(s, "57edf4a22be3c955ac49da2e2107b67a");
	uk_sha256("abc", 3, d);
	hex(d, 32, s);
	CHECK_STR(s, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	uk_sha256(s56, 56, d);
	hex(d, 32, s);
	CHECK_STR(s, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_binary_values(void)
{
	u8 b[8];

	CHECK_EQ(smq_chap_hex_decode(T("0x0aFf"), b, sizeof(b)), 2);
	CHECK(b[0] == 0x0a && b[1] == 0xff);
	CHECK_EQ(smq_chap_hex_decode(T("0X123"), b, sizeof(b)), 2);
	CHECK(b[0] == 0x01 && b[1] == 0x23);	/* implied leading zero */
	CHECK_EQ(smq_chap_hex_decode(T("0bAAEC"), b, sizeof(b)), 3);
	CHECK(b[0] == 0 && b[1] == 1 && b[2] == 2);
	CHECK_EQ(smq_chap_hex_decode(T("0bAAE="), b, sizeof(b)), 2);
	CHECK_EQ(smq_chap_hex_decode(T("0x"), b, sizeof(b)), -EINVAL);
	CHECK_EQ(smq_chap_hex_decode(T("0b"), b, sizeof(b)), -EINVAL);
	CHECK_EQ(smq_chap_hex_decode(T("1234"), b, sizeof(b)), -EINVAL);
	CHECK_EQ(smq_chap_hex_decode(T("0x12g4"), b, sizeof(b)), -EINVAL);
	CHECK_EQ(smq_chap_hex_decode(T("0bA*AA"), b, sizeof(b)), -EINVAL);
	CHECK_EQ(smq_chap_hex_decode(T("0x112233445566778899"), b, sizeof(b)),
		 -EINVAL);			/* 9 bytes > 8 */
	CHECK_EQ(smq_chap_hex_decode(T("0x1122334455667788"), b, sizeof(b)), 8);
}

static void chap_init(struct smq_iscsi_chap *c, bool mutual)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	c->name = "user";
	c->secret = (const u8 *)"secretsecret12";
	c->secret_len = 14;
	c->hash = uk_chap_hash;
	c->id = 0x42;
	for (i = 0; i < sizeof(c->challenge); i++)
		c->challenge[i] = i;
	if (mutual) {
		c->name_in = "tgt";
		c->secret_in = (const u8 *)"targetsecret99";
		c->secret_in_len = 14;
	}
}

static int step(struct smq_iscsi_chap *c, const char *txt, size_t len,
		bool ttransit)
{
	char *b = malloc(len ? len : 1);
	int ret;

	memcpy(b, txt, len);
	off = 0;
	memset(out, 0, sizeof(out));
	ret = smq_iscsi_security_step(c, b, len, ttransit, out, sizeof(out),
				      &off, &tr, why, sizeof(why));
	free(b);
	return ret;
}

static void offer(struct smq_iscsi_chap *c, const char *want, bool transit)
{
	off = 0;
	memset(out, 0, sizeof(out));
	CHECK_EQ(smq_iscsi_security_offer(c, out, sizeof(out), &off, &tr), 0);
	CHECK_STR(out, want);
	CHECK_EQ(off, strlen(want) + 1);
	CHECK_EQ(tr, transit);
}

static void test_offer(void)
{
	struct smq_iscsi_chap c;

	chap_init(&c, false);
	c.name = NULL;
	offer(&c, "AuthMethod=None", true);
	/* LIO answers None and transits at once */
	CHECK_EQ(step(&c, T("TargetPortalGroupTag=1\0AuthMethod=None\0"), true), 0);
	CHECK_EQ(off, 0);
	CHECK_EQ(c.state, SMQ_CHAP_ST_DONE);
	/* a CHAP target refuses None with Reject */
	offer(&c, "AuthMethod=None", true);
	CHECK_EQ(step(&c, T("AuthMethod=Reject\0"), false), -EACCES);
	CHECK_STR(why, "AuthMethod: the target refuses the methods offered");
	/* a method we did not offer */
	offer(&c, "AuthMethod=None", true);
	CHECK_EQ(step(&c, T("AuthMethod=CHAP\0"), false), -EPROTO);
	CHECK_STR(why, "AuthMethod: not one of the methods offered");
	offer(&c, "AuthMethod=None", true);
	CHECK_EQ(step(&c, T("AuthMethod=KRB5\0"), false), -EPROTO);
	/* no answer */
	offer(&c, "AuthMethod=None", true);
	CHECK_EQ(step(&c, T("TargetPortalGroupTag=1\0"), true), -EPROTO);
	CHECK_STR(why, "AuthMethod: not answered");

	chap_init(&c, false);
	offer(&c, "AuthMethod=CHAP,None", false);
	/* the target may not authenticate us: fine one-way */
	CHECK_EQ(step(&c, T("AuthMethod=None\0"), false), 0);
	CHECK_EQ(off, 0);
	CHECK(tr);
	CHECK_EQ(c.state, SMQ_CHAP_ST_DONE);
	CHECK_EQ(step(&c, "", 0, true), 0);	/* the empty T=1 round */

	chap_init(&c, true);
	offer(&c, "AuthMethod=CHAP", false);
	CHECK_EQ(step(&c, T("AuthMethod=None\0"), false), -EACCES);
	CHECK_STR(why, "AuthMethod: the target will not do CHAP (mutual CHAP asked)");
}

/* One-way MD5: the digest is hashlib.md5(bytes([17]) + secret + C). */
static void test_one_way_md5(void)
{
	static const char want[] =
		"CHAP_N=user\0CHAP_R=0xa62bcecef1d552f33d7d42aeb4f47644\0";
	struct smq_iscsi_chap c;

	chap_init(&c, false);
	offer(&c, "AuthMethod=CHAP,None", false);
	CHECK_EQ(step(&c, T("TargetPortalGroupTag=1\0AuthMethod=CHAP\0"), false), 0);
	CHECK_MEM(out, "CHAP_A=7,5\0", 11);
	CHECK_EQ(off, 11);
	CHECK(!tr);
	CHECK_EQ(step(&c, T("CHAP_A=5\0CHAP_I=17\0"
			    "CHAP_C=0x8e0f2f8c6a4ab6f8a3dfa4d3e2b1c0aa\0"), false), 0);
	CHECK_EQ(off, sizeof(want) - 1);
	CHECK_MEM(out, want, sizeof(want) - 1);
	CHECK(tr);
	/* LIO's last answer: nothing, T=1 */
	CHECK_EQ(step(&c, "", 0, true), 0);
	CHECK_EQ(off, 0);
	CHECK_EQ(c.state, SMQ_CHAP_ST_DONE);
}

/* One-way SHA-256, the challenge in base64, CHAP_I in hex. */
static void test_one_way_sha256(void)
{
	static const char want[] =
		"CHAP_N=user\0CHAP_R=0x"
		"ac55484e396a3f26a6c32a72a319cdf450c33d7f54761c5a4bbd09c84f6a6571\0";
	struct smq_iscsi_chap c;

	chap_init(&c, false);
	offer(&c, "AuthMethod=CHAP,None", false);
	CHECK_EQ(step(&c, T("AuthMethod=CHAP\0"), false), 0);
	CHECK_EQ(step(&c, T("CHAP_A=7\0CHAP_I=0xc8\0"
			    "CHAP_C=0bEBESExQVFhcYGRobHB0eHyAhIiMkJSYnKCkqKywtLi8=\0"),
		      false), 0);
	CHECK_EQ(off, sizeof(want) - 1);
	CHECK_MEM(out, want, sizeof(want) - 1);
	/* a target that answers keys we did not ask for */
	CHECK_EQ(step(&c, T("CHAP_N=x\0CHAP_R=0x00\0"), true), -EPROTO);
	CHECK_STR(why, "CHAP_R: a response we did not ask for");
}

/* Mutual SHA-256: our CHAP_I 66 and CHAP_C 00 01 .. 1f. */
static const char mutual_ok[] =
	"CHAP_N=tgt\0CHAP_R=0x"
	"1c4db9ff0b5f0b5e6250c91af778ba6b7d8062d2cac947b4f9378a9bea6e3a49\0";

static void mutual_to_response(struct smq_iscsi_chap *c)
{
	static const char want[] =
		"CHAP_N=user\0CHAP_R=0x"
		"ac55484e396a3f26a6c32a72a319cdf450c33d7f54761c5a4bbd09c84f6a6571\0"
		"CHAP_I=66\0CHAP_C=0x"
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\0";

	chap_init(c, true);
	offer(c, "AuthMethod=CHAP", false);
	CHECK_EQ(step(c, T("AuthMethod=CHAP\0"), false), 0);
	CHECK_EQ(step(c, T("CHAP_A=7\0CHAP_I=200\0CHAP_C=0x"
			   "101112131415161718191a1b1c1d1e1f"
			   "202122232425262728292a2b2c2d2e2f\0"), false), 0);
	CHECK_EQ(off, sizeof(want) - 1);
	CHECK_MEM(out, want, sizeof(want) - 1);
	CHECK(tr);
}

static void test_mutual(void)
{
	struct smq_iscsi_chap c;
	char bad[sizeof(mutual_ok)];

	mutual_to_response(&c);
	CHECK_EQ(step(&c, mutual_ok, sizeof(mutual_ok) - 1, true), 0);
	CHECK_EQ(c.state, SMQ_CHAP_ST_DONE);
	CHECK_EQ(off, 0);

	/* one digit wrong: password_in differs */
	mutual_to_response(&c);
	memcpy(bad, mutual_ok, sizeof(bad));
	bad[sizeof(bad) - 3] = '0';
	CHECK_EQ(step(&c, bad, sizeof(bad) - 1, true), -EACCES);
	CHECK_STR(why, "CHAP_R: the target's response is wrong (password_in)");
	/* the wrong name */
	mutual_to_response(&c);
	CHECK_EQ(step(&c, T("CHAP_N=tgx\0CHAP_R=0x00\0"), true), -EACCES);
	CHECK_STR(why, "CHAP_N: the target's name is not username_in");
	/* no answer at all */
	mutual_to_response(&c);
	CHECK_EQ(step(&c, "", 0, true), -EACCES);
	CHECK_STR(why, "CHAP_R: the target did not answer our challenge");
	/* a digest of the wrong size */
	mutual_to_response(&c);
	CHECK_EQ(step(&c, T("CHAP_N=tgt\0CHAP_R=0x0011\0"), true), -EACCES);
	/* reflection: our own response sent back */
	mutual_to_response(&c);
	CHECK_EQ(step(&c, T("CHAP_N=tgt\0CHAP_R=0x"
			    "ac55484e396a3f26a6c32a72a319cdf450c33d7f54761c5a4bbd09c84f6a6571\0"),
		      true), -EACCES);
	CHECK_STR(why, "CHAP_R: the target's response is ours (reflection)");
	/* reflection: the target challenges us with our challenge */
	chap_init(&c, true);
	offer(&c, "AuthMethod=CHAP", false);
	CHECK_EQ(step(&c, T("AuthMethod=CHAP\0"), false), 0);
	CHECK_EQ(step(&c, T("CHAP_A=7\0CHAP_I=1\0CHAP_C=0x"
			    "000102030405060708090a0b0c0d0e0f"
			    "101112131415161718191a1b1c1d1e1f\0"), false), -EACCES);
	CHECK_STR(why, "CHAP_C: the target's challenge is ours (reflection)");
	/* MD5 mutual: 16 bytes of our challenge */
	chap_init(&c, true);
	offer(&c, "AuthMethod=CHAP", false);
	CHECK_EQ(step(&c, T("AuthMethod=CHAP\0"), false), 0);
	CHECK_EQ(step(&c, T("CHAP_A=5\0CHAP_I=1\0CHAP_C=0x01\0"), false), 0);
	CHECK(strstr(out + strlen(out) + 1 + strlen(out + strlen(out) + 1) + 1,
		     "CHAP_I=66") != NULL);
	CHECK_EQ(step(&c, T("CHAP_N=tgt\0CHAP_R=0x3960b66cc49b8a0d332a33d62835dcd2\0"),
		      true), 0);
}

static void test_malformed(void)
{
	struct smq_iscsi_chap c;
	static char big[32 + SMQ_CHAP_VALUE_MAX];
	size_t n;

	chap_init(&c, false);
	offer(&c, "AuthMethod=CHAP,None", false);
	CHECK_EQ(step(&c, T("CHAP_A=5\0"), false), -EPROTO);
	CHECK_STR(why, "CHAP_A: CHAP keys before AuthMethod");
	offer(&c, "AuthMethod=CHAP,None", false);
	CHECK_EQ(step(&c, T("AuthMethod=CHAP\0AuthMethod=CHAP\0"), false), -EPROTO);
	CHECK_STR(why, "AuthMethod: key received twice");
	offer(&c, "AuthMethod=CHAP,None", false);
	CHECK_EQ(step(&c, T("AuthMethod=CHAP\0"), true), -EPROTO);

#define ALG_STEP(txt, ret, w) do {					\
	chap_init(&c, false);						\
	offer(&c, "AuthMethod=CHAP,None", false);			\
	CHECK_EQ(step(&c, T("AuthMethod=CHAP\0"), false), 0);		\
	CHECK_EQ(step(&c, T(txt), false), ret);				\
	if (*(w))							\
		CHECK_STR(why, w);					\
} while (0)
	ALG_STEP("CHAP_A=6\0CHAP_I=1\0CHAP_C=0x01\0", -EPROTO,
		 "CHAP_A: not one of the algorithms offered (7, 5)");
	ALG_STEP("CHAP_A=Reject\0", -EPROTO, "CHAP_A: CHAP_A, CHAP_I or CHAP_C missing");
	ALG_STEP("CHAP_A=5\0CHAP_I=256\0CHAP_C=0x01\0", -EPROTO,
		 "CHAP_I: not a number of 0-255");
	ALG_STEP("CHAP_A=5\0CHAP_I=1\0CHAP_C=0xzz\0", -EPROTO,
		 "CHAP_C: not a binary value of 1-1024 bytes");
	ALG_STEP("CHAP_A=5\0CHAP_I=1\0CHAP_C=abc\0", -EPROTO, "");
	ALG_STEP("CHAP_A=5\0CHAP_I=1\0", -EPROTO, "");
	ALG_STEP("CHAP_A=5\0CHAP_I=1\0CHAP_C=0x01\0CHAP_X=1\0", -EPROTO,
		 "CHAP_X: unknown CHAP key");
	ALG_STEP("CHAP_A=5\0CHAP_I=1\0CHAP_C=0x01\0CHAP_N=t\0", -EPROTO,
		 "CHAP_N: unexpected key after CHAP_A");
	ALG_STEP("CHAP_A=5\0CHAP_I=1\0CHAP_C=0x01", -EPROTO, "");

	/* the largest challenge (1024 bytes) is taken, one more is not */
	n = 0;
	memcpy(big, "CHAP_A=5", 9);
	n = 9;
	memcpy(big + n, "CHAP_I=9", 9);
	n += 9;
	memcpy(big + n, "CHAP_C=0x", 9);
	n += 9;
	memset(big + n, 'a', 2048);
	n += 2048;
	big[n++] = '\0';
	chap_init(&c, false);
	offer(&c, "AuthMethod=CHAP,None", false);
	CHECK_EQ(step(&c, T("AuthMethod=CHAP\0"), false), 0);
	CHECK_EQ(step(&c, big, n, false), 0);
	CHECK_EQ(c.peer_chal_len, 1024);
	big[n - 1] = 'a';
	big[n] = 'a';
	big[n + 1] = '\0';
	chap_init(&c, false);
	offer(&c, "AuthMethod=CHAP,None", false);
	CHECK_EQ(step(&c, T("AuthMethod=CHAP\0"), false), 0);
	CHECK_EQ(step(&c, big, n + 2, false), -EPROTO);
}

static const struct smq_test tests[] = {
	SMQ_TEST(test_digests),
	SMQ_TEST(test_binary_values),
	SMQ_TEST(test_offer),
	SMQ_TEST(test_one_way_md5),
	SMQ_TEST(test_one_way_sha256),
	SMQ_TEST(test_mutual),
	SMQ_TEST(test_malformed),
};

int main(void)
{
	return smq_test_main("test_iser_chap", tests, ARRAY_SIZE(tests));
}
