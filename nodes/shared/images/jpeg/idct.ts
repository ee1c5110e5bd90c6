/**
 * Inverse DCTs with dequantization, in libjpeg's integer arithmetic: the 8x8 one is jidctint.c's
 * "islow"; the scaled ones (4x4, 2x2, 1x1: output at 1/2, 1/4, 1/8 size) are libjpeg 7+'s, which
 * read only the top-left NxN coefficients, so a decoder at scale s can keep just those.
 *
 * Coefficients and quantizers come in a compact NxN layout (row-major, N = 8 / scale). The output
 * goes to a Uint8ClampedArray, whose stores clamp to 0-255 (libjpeg's range limit).
 */

const CONST_BITS = 13;
const PASS1_BITS = 2;
const F0_298631336 = 2446;
const F0_390180644 = 3196;
const F0_541196100 = 4433;
const F0_765366865 = 6270;
const F0_899976223 = 7373;
const F1_175875602 = 9633;
const F1_501321110 = 12299;
const F1_847759065 = 15137;
const F1_961570560 = 16069;
const F2_053119869 = 16819;
const F2_562915447 = 20995;
const F3_072711026 = 25172;

export type Idct = (coef: Int16Array, at: number, quant: Int32Array, out: Uint8ClampedArray, outAt: number, stride: number, work: Int32Array) => void;

export function idct8x8(coef: Int16Array, at: number, q: Int32Array, out: Uint8ClampedArray, outAt: number, stride: number, ws: Int32Array): void {
	const round1 = 1 << (CONST_BITS - PASS1_BITS - 1);
	const shift1 = CONST_BITS - PASS1_BITS;
	for (let c = 0; c < 8; c++) {
		const i = at + c;
		if ((coef[i + 8] | coef[i + 16] | coef[i + 24] | coef[i + 32] | coef[i + 40] | coef[i + 48] | coef[i + 56]) === 0) {
			const dc = (coef[i] * q[c]) << PASS1_BITS;
			for (let r = 0; r < 64; r += 8) ws[c + r] = dc;
			continue;
		}
		// Even part.
		let z2 = coef[i + 16] * q[c + 16];
		let z3 = coef[i + 48] * q[c + 48];
		let z1 = (z2 + z3) * F0_541196100;
		let tmp2 = z1 - z3 * F1_847759065;
		let tmp3 = z1 + z2 * F0_765366865;
		z2 = coef[i] * q[c];
		z3 = coef[i + 32] * q[c + 32];
		let tmp0 = (z2 + z3) << CONST_BITS;
		let tmp1 = (z2 - z3) << CONST_BITS;
		const tmp10 = tmp0 + tmp3;
		const tmp13 = tmp0 - tmp3;
		const tmp11 = tmp1 + tmp2;
		const tmp12 = tmp1 - tmp2;
		// Odd part.
		tmp0 = coef[i + 56] * q[c + 56];
		tmp1 = coef[i + 40] * q[c + 40];
		tmp2 = coef[i + 24] * q[c + 24];
		tmp3 = coef[i + 8] * q[c + 8];
		z1 = tmp0 + tmp3;
		z2 = tmp1 + tmp2;
		z3 = tmp0 + tmp2;
		let z4 = tmp1 + tmp3;
		const z5 = (z3 + z4) * F1_175875602;
		tmp0 *= F0_298631336;
		tmp1 *= F2_053119869;
		tmp2 *= F3_072711026;
		tmp3 *= F1_501321110;
		z1 *= -F0_899976223;
		z2 *= -F2_562915447;
		z3 = z3 * -F1_961570560 + z5;
		z4 = z4 * -F0_390180644 + z5;
		tmp0 += z1 + z3;
		tmp1 += z2 + z4;
		tmp2 += z2 + z3;
		tmp3 += z1 + z4;
		ws[c] = (tmp10 + tmp3 + round1) >> shift1;
		ws[c + 56] = (tmp10 - tmp3 + round1) >> shift1;
		ws[c + 8] = (tmp11 + tmp2 + round1) >> shift1;
		ws[c + 48] = (tmp11 - tmp2 + round1) >> shift1;
		ws[c + 16] = (tmp12 + tmp1 + round1) >> shift1;
		ws[c + 40] = (tmp12 - tmp1 + round1) >> shift1;
		ws[c + 24] = (tmp13 + tmp0 + round1) >> shift1;
		ws[c + 32] = (tmp13 - tmp0 + round1) >> shift1;
	}
	const shift2 = CONST_BITS + PASS1_BITS + 3;
	const round2 = 1 << (shift2 - 1);
	for (let r = 0; r < 8; r++) {
		const w = r * 8;
		const o = outAt + r * stride;
		if ((ws[w + 1] | ws[w + 2] | ws[w + 3] | ws[w + 4] | ws[w + 5] | ws[w + 6] | ws[w + 7]) === 0) {
			const value = ((ws[w] + (1 << (PASS1_BITS + 2))) >> (PASS1_BITS + 3)) + 128;
			out.fill(value, o, o + 8);
			continue;
		}
		let z2 = ws[w + 2];
		let z3 = ws[w + 6];
		let z1 = (z2 + z3) * F0_541196100;
		let tmp2 = z1 - z3 * F1_847759065;
		let tmp3 = z1 + z2 * F0_765366865;
		let tmp0 = (ws[w] + ws[w + 4]) << CONST_BITS;
		let tmp1 = (ws[w] - ws[w + 4]) << CONST_BITS;
		const tmp10 = tmp0 + tmp3;
		const tmp13 = tmp0 - tmp3;
		const tmp11 = tmp1 + tmp2;
		const tmp12 = tmp1 - tmp2;
		tmp0 = ws[w + 7];
		tmp1 = ws[w + 5];
		tmp2 = ws[w + 3];
		tmp3 = ws[w + 1];
		z1 = tmp0 + tmp3;
		z2 = tmp1 + tmp2;
		z3 = tmp0 + tmp2;
		let z4 = tmp1 + tmp3;
		const z5 = (z3 + z4) * F1_175875602;
		tmp0 *= F0_298631336;
		tmp1 *= F2_053119869;
		tmp2 *= F3_072711026;
		tmp3 *= F1_501321110;
		z1 *= -F0_899976223;
		z2 *= -F2_562915447;
		z3 = z3 * -F1_961570560 + z5;
		z4 = z4 * -F0_390180644 + z5;
		tmp0 += z1 + z3;
		tmp1 += z2 + z4;
		tmp2 += z2 + z3;
		tmp3 += z1 + z4;
		out[o] = ((tmp10 + tmp3 + round2) >> shift2) + 128;
		out[o + 7] = ((tmp10 - tmp3 + round2) >> shift2) + 128;
		out[o + 1] = ((tmp11 + tmp2 + round2) >> shift2) + 128;
		out[o + 6] = ((tmp11 - tmp2 + round2) >> shift2) + 128;
		out[o + 2] = ((tmp12 + tmp1 + round2) >> shift2) + 128;
		out[o + 5] = ((tmp12 - tmp1 + round2) >> shift2) + 128;
		out[o + 3] = ((tmp13 + tmp0 + round2) >> shift2) + 128;
		out[o + 4] = ((tmp13 - tmp0 + round2) >> shift2) + 128;
	}
}

/** 1/2 size: a 4-point IDCT of the top-left 4x4 coefficients (libjpeg's jpeg_idct_4x4). */
export function idct4x4(coef: Int16Array, at: number, q: Int32Array, out: Uint8ClampedArray, outAt: number, stride: number, ws: Int32Array): void {
	const round1 = 1 << (CONST_BITS - PASS1_BITS - 1);
	const shift1 = CONST_BITS - PASS1_BITS;
	for (let c = 0; c < 4; c++) {
		const i = at + c;
		const tmp0 = coef[i] * q[c];
		const tmp2 = coef[i + 8] * q[c + 8];
		const tmp10 = (tmp0 + tmp2) << PASS1_BITS;
		const tmp12 = (tmp0 - tmp2) << PASS1_BITS;
		const z2 = coef[i + 4] * q[c + 4];
		const z3 = coef[i + 12] * q[c + 12];
		const z1 = (z2 + z3) * F0_541196100 + round1;
		const odd0 = (z1 + z2 * F0_765366865) >> shift1;
		const odd2 = (z1 - z3 * F1_847759065) >> shift1;
		ws[c] = tmp10 + odd0;
		ws[c + 12] = tmp10 - odd0;
		ws[c + 4] = tmp12 + odd2;
		ws[c + 8] = tmp12 - odd2;
	}
	const shift2 = CONST_BITS + PASS1_BITS + 3;
	for (let r = 0; r < 4; r++) {
		const w = r * 4;
		const o = outAt + r * stride;
		const tmp0 = ws[w] + (1 << (PASS1_BITS + 2));
		const tmp2 = ws[w + 2];
		const tmp10 = (tmp0 + tmp2) << CONST_BITS;
		const tmp12 = (tmp0 - tmp2) << CONST_BITS;
		const z2 = ws[w + 1];
		const z3 = ws[w + 3];
		const z1 = (z2 + z3) * F0_541196100;
		const odd0 = z1 + z2 * F0_765366865;
		const odd2 = z1 - z3 * F1_847759065;
		out[o] = ((tmp10 + odd0) >> shift2) + 128;
		out[o + 3] = ((tmp10 - odd0) >> shift2) + 128;
		out[o + 1] = ((tmp12 + odd2) >> shift2) + 128;
		out[o + 2] = ((tmp12 - odd2) >> shift2) + 128;
	}
}

/** 1/4 size: a 2-point IDCT of the top-left 2x2 coefficients (libjpeg's jpeg_idct_2x2). */
export function idct2x2(coef: Int16Array, at: number, q: Int32Array, out: Uint8ClampedArray, outAt: number, stride: number): void {
	// Range centre and rounding folded into the DC term.
	const dc = coef[at] * q[0] + (128 << 3) + (1 << 2);
	const row1 = coef[at + 2] * q[2];
	const tmp0 = dc + row1;
	const tmp2 = dc - row1;
	const col1 = coef[at + 1] * q[1];
	const both = coef[at + 3] * q[3];
	const tmp1 = col1 + both;
	const tmp3 = col1 - both;
	out[outAt] = (tmp0 + tmp1) >> 3;
	out[outAt + 1] = (tmp0 - tmp1) >> 3;
	out[outAt + stride] = (tmp2 + tmp3) >> 3;
	out[outAt + stride + 1] = (tmp2 - tmp3) >> 3;
}

/** 1/8 size: the block's mean, from its DC coefficient alone. */
export function idct1x1(coef: Int16Array, at: number, q: Int32Array, out: Uint8ClampedArray, outAt: number): void {
	out[outAt] = (coef[at] * q[0] + (128 << 3) + (1 << 2)) >> 3;
}

/** The IDCT that produces blocks of `size` x `size` pixels (8, 4, 2 or 1). */
export function idctFor(size: number): Idct {
	return size === 8 ? idct8x8 : size === 4 ? idct4x4 : size === 2 ? idct2x2 : idct1x1;
}
