/*
 * aes_ct_core.h -- the bitsliced AES core, instantiated per vector width.
 *
 * Private to aes_ct.c, which includes it once per width after defining:
 *   CT_W          vector width in bytes: 16 (8 blocks) or 32 (16 blocks)
 *   CT_SUFFIX     suffix for the names defined here (_w16, _w32)
 *   CT_SHUF_SR, CT_SHUF_ROT1, CT_SHUF_ROT2
 *                 the per-lane byte indices for the full vector width
 *   CT_TARGET     attributes for the outer functions (target, clones)
 * A width is one native vector register of the target it is built for,
 * so every operation below, shuffles included, maps to one instruction;
 * a vector wider than the machine's makes compilers split the shuffles
 * into byte moves.  See aes_ct.c for how the bitslicing works.
 */
#define CT_PASTE2(a, b) a##b
#define CT_PASTE(a, b) CT_PASTE2(a, b)
#define F(name) CT_PASTE(name, CT_SUFFIX)
#define V F(vq)
#define VB F(vb)
#define CT_LANES (CT_W / 16)
#define CT_BLOCKS (8 * CT_LANES)

typedef uint64_t V __attribute__((vector_size(CT_W)));
typedef uint8_t VB __attribute__((vector_size(CT_W)));

/* A constant byte shuffle.  Clang and GCC 12+ take the indices as
 * arguments; older GCC takes a mask vector. */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define CT_SHUF(x, idx) ((V)__builtin_shufflevector((VB)(x), (VB)(x), idx))
#else
#define CT_SHUF(x, idx) ((V)__builtin_shuffle((VB)(x), (VB){ idx }))
#endif

/* A 16-byte round-key plane, repeated in every lane. */
CT_INLINE V
F(plane)(const uint64_t p[2])
{
#if CT_W == 16
	V v = { p[0], p[1] };
#else
	V v = { p[0], p[1], p[0], p[1] };
#endif
	return v;
}

CT_INLINE V
F(bcast)(uint64_t x)
{
	const uint64_t p[2] = { x, x };

	return F(plane)(p);
}

/* SubBytes on all planes: Boyar-Peralta.  x0 is the most significant
 * bit of the byte, so x0 = q[7] ... x7 = q[0]. */
CT_INLINE void
F(sub_bytes)(V q[8])
{
	V x0 = q[7], x1 = q[6], x2 = q[5], x3 = q[4];
	V x4 = q[3], x5 = q[2], x6 = q[1], x7 = q[0];
	V y1, y2, y3, y4, y5, y6, y7, y8, y9, y10, y11, y12, y13, y14, y15;
	V y16, y17, y18, y19, y20, y21;
	V t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14;
	V t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26, t27;
	V t28, t29, t30, t31, t32, t33, t34, t35, t36, t37, t38, t39, t40;
	V t41, t42, t43, t44, t45, t46, t47, t48, t49, t50, t51, t52, t53;
	V t54, t55, t56, t57, t58, t59, t60, t61, t62, t63, t64, t65, t66;
	V t67;
	V z0, z1, z2, z3, z4, z5, z6, z7, z8, z9, z10, z11, z12, z13, z14;
	V z15, z16, z17;

	/* Top linear layer. */
	y14 = x3 ^ x5;   y13 = x0 ^ x6;   y9 = x0 ^ x3;    y8 = x0 ^ x5;
	t0 = x1 ^ x2;    y1 = t0 ^ x7;    y4 = y1 ^ x3;    y12 = y13 ^ y14;
	y2 = y1 ^ x0;    y5 = y1 ^ x6;    y3 = y5 ^ y8;    t1 = x4 ^ y12;
	y15 = t1 ^ x5;   y20 = t1 ^ x1;   y6 = y15 ^ x7;   y10 = y15 ^ t0;
	y11 = y20 ^ y9;  y7 = x7 ^ y11;   y17 = y10 ^ y11; y19 = y10 ^ y8;
	y16 = t0 ^ y11;  y21 = y13 ^ y16; y18 = x0 ^ y16;

	/* Shared non-linear middle: inversion in GF(2^4)^2. */
	t2 = y12 & y15;  t3 = y3 & y6;    t4 = t3 ^ t2;    t5 = y4 & x7;
	t6 = t5 ^ t2;    t7 = y13 & y16;  t8 = y5 & y1;    t9 = t8 ^ t7;
	t10 = y2 & y7;   t11 = t10 ^ t7;  t12 = y9 & y11;  t13 = y14 & y17;
	t14 = t13 ^ t12; t15 = y8 & y10;  t16 = t15 ^ t12; t17 = t4 ^ t14;
	t18 = t6 ^ t16;  t19 = t9 ^ t14;  t20 = t11 ^ t16; t21 = t17 ^ y20;
	t22 = t18 ^ y19; t23 = t19 ^ y21; t24 = t20 ^ y18; t25 = t21 ^ t22;
	t26 = t21 & t23; t27 = t24 ^ t26; t28 = t25 & t27; t29 = t28 ^ t22;
	t30 = t23 ^ t24; t31 = t22 ^ t26; t32 = t31 & t30; t33 = t32 ^ t24;
	t34 = t23 ^ t33; t35 = t27 ^ t33; t36 = t24 & t35; t37 = t36 ^ t34;
	t38 = t27 ^ t36; t39 = t29 & t38; t40 = t25 ^ t39; t41 = t40 ^ t37;
	t42 = t29 ^ t33; t43 = t29 ^ t40; t44 = t33 ^ t37; t45 = t42 ^ t41;
	z0 = t44 & y15;  z1 = t37 & y6;   z2 = t33 & x7;   z3 = t43 & y16;
	z4 = t40 & y1;   z5 = t29 & y7;   z6 = t42 & y11;  z7 = t45 & y17;
	z8 = t41 & y10;  z9 = t44 & y12;  z10 = t37 & y3;  z11 = t33 & y4;
	z12 = t43 & y13; z13 = t40 & y5;  z14 = t29 & y2;  z15 = t42 & y9;
	z16 = t45 & y14; z17 = t41 & y8;

	/* Bottom linear layer, with the affine constant 0x63 folded in as
	 * the four complements. */
	t46 = z15 ^ z16; t47 = z10 ^ z11; t48 = z5 ^ z13;  t49 = z9 ^ z10;
	t50 = z2 ^ z12;  t51 = z2 ^ z5;   t52 = z7 ^ z8;   t53 = z0 ^ z3;
	t54 = z6 ^ z7;   t55 = z16 ^ z17; t56 = z12 ^ t48; t57 = t50 ^ t53;
	t58 = z4 ^ t46;  t59 = z3 ^ t54;  t60 = t46 ^ t57; t61 = z14 ^ t57;
	t62 = t52 ^ t58; t63 = t49 ^ t58; t64 = z4 ^ t59;  t65 = t61 ^ t62;
	t66 = z1 ^ t63;  t67 = t64 ^ t65;
	q[7] = t59 ^ t63;
	q[1] = t56 ^ ~t62;
	q[0] = t48 ^ ~t60;
	q[4] = t53 ^ t66;
	q[3] = t51 ^ t66;
	q[2] = t47 ^ t65;
	q[6] = t64 ^ ~q[4];
	q[5] = t55 ^ ~t67;
}

CT_INLINE void
F(shift_rows)(V q[8])
{
	int i;

	for (i = 0; i < 8; i++)
		q[i] = CT_SHUF(q[i], CT_SHUF_SR);
}

/*
 * out[r] = 2a[r] + 3a[r+1] + a[r+2] + a[r+3]
 *        = 2(a[r] + a[r+1]) + a[r+1] + (a[r+2] + a[r+3]).
 * With b = a + a[r+1], that is xtime(b) + a[r+1] + b[r+2].
 */
CT_INLINE void
F(mix_columns)(V q[8])
{
	V a1[8], b[8];
	int i;

	for (i = 0; i < 8; i++) {
		a1[i] = CT_SHUF(q[i], CT_SHUF_ROT1);
		b[i] = q[i] ^ a1[i];
	}
	/* xtime modulo x^8 + x^4 + x^3 + x + 1, plane by plane. */
	q[0] = b[7] ^ a1[0] ^ CT_SHUF(b[0], CT_SHUF_ROT2);
	q[1] = b[0] ^ b[7] ^ a1[1] ^ CT_SHUF(b[1], CT_SHUF_ROT2);
	q[2] = b[1] ^ a1[2] ^ CT_SHUF(b[2], CT_SHUF_ROT2);
	q[3] = b[2] ^ b[7] ^ a1[3] ^ CT_SHUF(b[3], CT_SHUF_ROT2);
	q[4] = b[3] ^ b[7] ^ a1[4] ^ CT_SHUF(b[4], CT_SHUF_ROT2);
	q[5] = b[4] ^ a1[5] ^ CT_SHUF(b[5], CT_SHUF_ROT2);
	q[6] = b[5] ^ a1[6] ^ CT_SHUF(b[6], CT_SHUF_ROT2);
	q[7] = b[6] ^ a1[7] ^ CT_SHUF(b[7], CT_SHUF_ROT2);
}

/* Exchange bits where (word index bit k) != (bit-in-byte index bit k). */
CT_INLINE void
F(swapmove)(V *a, V *b, uint64_t mask, int s)
{
	V t = ((*a >> s) ^ *b) & F(bcast)(mask);

	*b ^= t;
	*a ^= t << s;
}

CT_INLINE void
F(ortho)(V q[8])
{
	F(swapmove)(&q[0], &q[1], 0x5555555555555555, 1);
	F(swapmove)(&q[2], &q[3], 0x5555555555555555, 1);
	F(swapmove)(&q[4], &q[5], 0x5555555555555555, 1);
	F(swapmove)(&q[6], &q[7], 0x5555555555555555, 1);
	F(swapmove)(&q[0], &q[2], 0x3333333333333333, 2);
	F(swapmove)(&q[1], &q[3], 0x3333333333333333, 2);
	F(swapmove)(&q[4], &q[6], 0x3333333333333333, 2);
	F(swapmove)(&q[5], &q[7], 0x3333333333333333, 2);
	F(swapmove)(&q[0], &q[4], 0x0F0F0F0F0F0F0F0F, 4);
	F(swapmove)(&q[1], &q[5], 0x0F0F0F0F0F0F0F0F, 4);
	F(swapmove)(&q[2], &q[6], 0x0F0F0F0F0F0F0F0F, 4);
	F(swapmove)(&q[3], &q[7], 0x0F0F0F0F0F0F0F0F, 4);
}

/* Load CT_BLOCKS blocks into bit planes: block j + 8l goes to lane l of
 * vector j. */
CT_INLINE void
F(load)(V q[8], const uint8_t *in)
{
	int j, l;

	for (j = 0; j < 8; j++)
		for (l = 0; l < CT_LANES; l++)
			memcpy((uint8_t *)&q[j] + 16 * l, in + 16 * (j + 8 * l), 16);
	F(ortho)(q);
}

CT_INLINE void
F(store)(V q[8], uint8_t *out)
{
	int j, l;

	F(ortho)(q);
	for (j = 0; j < 8; j++)
		for (l = 0; l < CT_LANES; l++)
			memcpy(out + 16 * (j + 8 * l), (uint8_t *)&q[j] + 16 * l, 16);
}

CT_INLINE void
F(add_round_key)(V q[8], const uint64_t sk[8][2])
{
	int i;

	for (i = 0; i < 8; i++)
		q[i] ^= F(plane)(sk[i]);
}

/* Encrypt CT_BLOCKS blocks in place. */
CT_INLINE void
F(encrypt)(const struct ae_aes_ct_key *k, uint8_t *buf)
{
	V q[8];
	int r;

	F(load)(q, buf);
	F(add_round_key)(q, k->sk[0]);
	for (r = 1; r < AE_AES_CT_ROUNDS; r++) {
		F(sub_bytes)(q);
		F(shift_rows)(q);
		F(mix_columns)(q);
		F(add_round_key)(q, k->sk[r]);
	}
	F(sub_bytes)(q);
	F(shift_rows)(q);
	F(add_round_key)(q, k->sk[AE_AES_CT_ROUNDS]);
	F(store)(q, buf);
	ae_wipe(q, sizeof q);
}

/*
 * The inverse S-box from the forward circuit.  S(x) = A(x^-1) + 0x63,
 * so with D(v) = A^-1(v + 0x63) (InvSubBytes' affine step),
 * D(S(D(y))) = D(S(A^-1(y + 0x63))) = (A^-1(y + 0x63))^-1 = S^-1(y).
 * D is linear plus a constant: bit i of D(v) is v[i+2] + v[i+5] +
 * v[i+7] (indices mod 8) + bit i of 0x05, so it moves whole planes and
 * stays free of tables and branches.
 */
CT_INLINE void
F(inv_affine)(V q[8])
{
	V r[8];
	int i;

	for (i = 0; i < 8; i++)
		r[i] = q[(i + 2) & 7] ^ q[(i + 5) & 7] ^ q[(i + 7) & 7];
	r[0] = ~r[0];
	r[2] = ~r[2];
	for (i = 0; i < 8; i++)
		q[i] = r[i];
}

CT_INLINE void
F(inv_sub_bytes)(V q[8])
{
	F(inv_affine)(q);
	F(sub_bytes)(q);
	F(inv_affine)(q);
}

CT_INLINE void
F(inv_shift_rows)(V q[8])
{
	int i;

	for (i = 0; i < 8; i++)
		q[i] = CT_SHUF(q[i], CT_SHUF_ISR);
}

/*
 * InvMixColumns = MixColumns after the map a[r] += 4(a[r] + a[r+2]),
 * since the matrix {0e,0b,0d,09} is {02,03,01,01} times {05,00,04,00}.
 * 4v is xtime twice, plane moves only.
 */
CT_INLINE void
F(inv_mix_columns)(V q[8])
{
	V t[8], u[8];
	int i;

	for (i = 0; i < 8; i++)
		t[i] = q[i] ^ CT_SHUF(q[i], CT_SHUF_ROT2);
	/* u = xtime(t) */
	u[0] = t[7]; u[1] = t[0] ^ t[7]; u[2] = t[1]; u[3] = t[2] ^ t[7];
	u[4] = t[3] ^ t[7]; u[5] = t[4]; u[6] = t[5]; u[7] = t[6];
	/* t = xtime(u) */
	t[0] = u[7]; t[1] = u[0] ^ u[7]; t[2] = u[1]; t[3] = u[2] ^ u[7];
	t[4] = u[3] ^ u[7]; t[5] = u[4]; t[6] = u[5]; t[7] = u[6];
	for (i = 0; i < 8; i++)
		q[i] ^= t[i];
	F(mix_columns)(q);
}

/* Decrypt CT_BLOCKS blocks in place: the inverse cipher of FIPS 197
 * section 5.3, with the encryption round keys in reverse order. */
CT_INLINE void
F(decrypt)(const struct ae_aes_ct_key *k, uint8_t *buf)
{
	V q[8];
	int r;

	F(load)(q, buf);
	F(add_round_key)(q, k->sk[AE_AES_CT_ROUNDS]);
	for (r = AE_AES_CT_ROUNDS - 1; r > 0; r--) {
		F(inv_shift_rows)(q);
		F(inv_sub_bytes)(q);
		F(add_round_key)(q, k->sk[r]);
		F(inv_mix_columns)(q);
	}
	F(inv_shift_rows)(q);
	F(inv_sub_bytes)(q);
	F(add_round_key)(q, k->sk[0]);
	F(store)(q, buf);
	ae_wipe(q, sizeof q);
}

/* CBC decryption over nblocks, CT_BLOCKS at a time: every block's
 * inverse cipher is independent, only the XOR chains. */
static CT_TARGET void
F(cbc_decrypt)(const struct ae_aes_ct_key *k, uint8_t iv[16],
    const uint8_t *in, uint8_t *out, size_t nblocks)
{
	uint8_t buf[16 * CT_BLOCKS], prev[16];
	size_t i;

	memcpy(prev, iv, 16);
	while (nblocks > 0) {
		size_t n = nblocks < CT_BLOCKS ? nblocks : CT_BLOCKS;

		memset(buf, 0, sizeof buf);
		memcpy(buf, in, 16 * n);
		F(decrypt)(k, buf);
		for (i = 0; i < 16; i++)
			buf[i] ^= prev[i];
		for (i = 16; i < 16 * n; i++)
			buf[i] ^= in[i - 16];
		memcpy(prev, in + 16 * (n - 1), 16);
		memcpy(out, buf, 16 * n);   /* after in is read: in == out */
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
	memcpy(iv, prev, 16);
	ae_wipe(buf, sizeof buf);
}

/* CTR with inc32 over nblocks, CT_BLOCKS at a time. */
static CT_TARGET void
F(ctr32)(const struct ae_aes_ct_key *k, uint8_t ctr[16], const uint8_t *in,
    uint8_t *out, size_t nblocks)
{
	uint8_t ks[16 * CT_BLOCKS];
	uint32_t c = load_be32(ctr + 12);

	while (nblocks > 0) {
		size_t n = nblocks < CT_BLOCKS ? nblocks : CT_BLOCKS;
		size_t i;

		for (i = 0; i < CT_BLOCKS; i++) {
			memcpy(ks + 16 * i, ctr, 12);
			store_be32(ks + 16 * i + 12, c + (uint32_t)i); /* mod 2^32 */
		}
		F(encrypt)(k, ks);
		for (i = 0; i < 16 * n; i++)
			out[i] = in[i] ^ ks[i];
		c += (uint32_t)n;
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
	store_be32(ctr + 12, c);
	ae_wipe(ks, sizeof ks);
}

#undef CT_SHUF
#undef CT_BLOCKS
#undef CT_LANES
#undef VB
#undef V
#undef F
