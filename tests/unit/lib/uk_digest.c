// SPDX-License-Identifier: GPL-2.0
/*
 * MD5 (RFC 1321) and SHA-256 (FIPS 180-4) for the unit tests of the CHAP
 * code (smq_iser_login.c takes its hash as a callback; the kernel uses the
 * crypto API).  Written for the tests, small rather than fast; checked
 * against the RFC 1321 and FIPS 180-4 test vectors in test_iser_login.c.
 */
#include <stdint.h>
#include <string.h>
#include "uk_digest.h"

static uint32_t rol(uint32_t x, unsigned int n)
{
	return (x << n) | (x >> (32 - n));
}

static uint32_t ror(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

static const uint32_t md5_k[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee,
	0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
	0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
	0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
	0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa,
	0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
	0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
	0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
	0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
	0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05,
	0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039,
	0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
	0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

static const unsigned int md5_s[16] = {
	7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21,
};

static void md5_block(uint32_t h[4], const uint8_t *p)
{
	uint32_t m[16], a = h[0], b = h[1], c = h[2], d = h[3], f, t;
	unsigned int i, g;

	for (i = 0; i < 16; i++)
		m[i] = p[4 * i] | p[4 * i + 1] << 8 | p[4 * i + 2] << 16 |
		       (uint32_t)p[4 * i + 3] << 24;
	for (i = 0; i < 64; i++) {
		if (i < 16) {
			f = (b & c) | (~b & d);
			g = i;
		} else if (i < 32) {
			f = (d & b) | (~d & c);
			g = (5 * i + 1) % 16;
		} else if (i < 48) {
			f = b ^ c ^ d;
			g = (3 * i + 5) % 16;
		} else {
			f = c ^ (b | ~d);
			g = (7 * i) % 16;
		}
		t = d;
		d = c;
		c = b;
		b = b + rol(a + f + md5_k[i] + m[g], md5_s[(i / 16) * 4 + i % 4]);
		a = t;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
}

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static void sha256_block(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64], v[8], t1, t2;
	unsigned int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | p[4 * i + 1] << 16 |
		       p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++)
		w[i] = w[i - 16] + (ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^
				    (w[i - 15] >> 3)) +
		       w[i - 7] + (ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^
				   (w[i - 2] >> 10));
	memcpy(v, h, sizeof(v));
	for (i = 0; i < 64; i++) {
		t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) +
		     ((v[4] & v[5]) ^ (~v[4] & v[6])) + sha256_k[i] + w[i];
		t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) +
		     ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
		memmove(v + 1, v, 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		h[i] += v[i];
}

/* Merkle-Damgard padding over @n bytes of @data; big: SHA-256 lengths. */
static void digest(void (*block)(uint32_t *, const uint8_t *), uint32_t *h,
		   const uint8_t *data, size_t n, int big)
{
	uint8_t last[128];
	uint64_t bits = (uint64_t)n * 8;
	size_t i, rest, total;

	for (i = 0; i + 64 <= n; i += 64)
		block(h, data + i);
	rest = n - i;
	memset(last, 0, sizeof(last));
	memcpy(last, data + i, rest);
	last[rest] = 0x80;
	total = rest + 9 <= 64 ? 64 : 128;
	for (i = 0; i < 8; i++)
		last[big ? total - 1 - i : total - 8 + i] = bits >> (8 * i);
	block(h, last);
	if (total == 128)
		block(h, last + 64);
}

void uk_md5(const void *data, size_t n, uint8_t out[16])
{
	uint32_t h[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
	unsigned int i;

	digest(md5_block, h, data, n, 0);
	for (i = 0; i < 16; i++)
		out[i] = h[i / 4] >> (8 * (i % 4));
}

void uk_sha256(const void *data, size_t n, uint8_t out[32])
{
	uint32_t h[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	unsigned int i;

	digest(sha256_block, h, data, n, 1);
	for (i = 0; i < 32; i++)
		out[i] = h[i / 4] >> (24 - 8 * (i % 4));
}

int uk_chap_hash(void *ctx, u8 alg, u8 id, const u8 *secret,
		 size_t secret_len, const u8 *chal, size_t chal_len, u8 *out)
{
	uint8_t buf[1 + 255 + 1024];

	(void)ctx;
	if (secret_len > 255 || chal_len > 1024)
		return -22;
	buf[0] = id;
	memcpy(buf + 1, secret, secret_len);
	memcpy(buf + 1 + secret_len, chal, chal_len);
	if (alg == 5)
		uk_md5(buf, 1 + secret_len + chal_len, out);
	else if (alg == 7)
		uk_sha256(buf, 1 + secret_len + chal_len, out);
	else
		return -22;
	return 0;
}
