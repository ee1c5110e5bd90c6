/**
 * libjpeg-turbo's command-line tools (Debian: libjpeg-turbo-progs), an independent JPEG encoder
 * and decoder for the tests and benches of nodes/shared/images: cjpeg makes test images, djpeg's
 * decoding is the reference, jpegtran rewrites files as progressive. Missing on a contributor's
 * machine, the suites that need them say so and skip; CI installs them (.ci/run) and sets
 * REQUIRE_LIBJPEG, where a missing tool is a broken setup.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { RgbImage } from '../../nodes/shared/images/raster';

export const LIBJPEG = ['cjpeg', 'djpeg', 'jpegtran'].every((tool) => spawnSync(tool, ['-version']).status === 0);
if (!LIBJPEG && process.env.REQUIRE_LIBJPEG === '1') throw new Error('REQUIRE_LIBJPEG is set but cjpeg, djpeg or jpegtran is missing (Debian: libjpeg-turbo-progs)');
export const LIBJPEG_MISSING =
	'cjpeg, djpeg and jpegtran are not installed (apt-get install libjpeg-turbo-progs): the checks against libjpeg-turbo are skipped';

export function runTool(tool: string, args: string[], input: Uint8Array): Buffer {
	const result = spawnSync(tool, args, { input, maxBuffer: 1 << 30 });
	if (result.status !== 0) throw new Error(`${tool} ${args.join(' ')}: ${result.stderr?.toString() ?? String(result.error)}`);
	return result.stdout;
}

/** The header of a PPM (P6) of `width` x `height`, what cjpeg reads. */
export const ppmHeader = (width: number, height: number): Buffer => Buffer.from(`P6\n${width} ${height}\n255\n`);

/** A PPM (P6) of `image`. */
export function ppm(image: RgbImage): Buffer {
	return Buffer.concat([ppmHeader(image.width, image.height), Buffer.from(image.data)]);
}

/** djpeg's PNM output (P5 grey or P6 colour) as RGB. */
export function parsePnm(bytes: Buffer): RgbImage {
	const header = /^(P[56])\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 40).toString('latin1'));
	if (!header) throw new Error('not a PNM');
	const [whole, kind, width, height] = header;
	const samples = bytes.subarray(whole.length);
	const pixels = Number(width) * Number(height);
	const data = new Uint8Array(pixels * 3);
	for (let p = 0; p < pixels; p++) for (let c = 0; c < 3; c++) data[p * 3 + c] = kind === 'P5' ? samples[p] : samples[p * 3 + c];
	return { width: Number(width), height: Number(height), data };
}

/** `image` (or a whole PPM file already built) encoded by cjpeg with `args` (`-quality 90`, `-progressive`...). */
export const cjpeg = (image: RgbImage | Buffer, args: string[]): Uint8Array => new Uint8Array(runTool('cjpeg', args, Buffer.isBuffer(image) ? image : ppm(image)));

/** `jpeg` decoded by djpeg (`-nosmooth`, `-scale 1/4`...). */
export const djpeg = (jpeg: Uint8Array, args: string[] = []): RgbImage => parsePnm(runTool('djpeg', ['-pnm', ...args], jpeg));

/** jpegtran, for options that name a file (a scan script). */
export function jpegtran(jpeg: Uint8Array, args: string[], scanScript?: string): Uint8Array {
	const folder = mkdtempSync(join(tmpdir(), 'jpegtran-'));
	try {
		const extra: string[] = [];
		if (scanScript !== undefined) {
			writeFileSync(join(folder, 'scans.txt'), scanScript);
			extra.push('-scans', join(folder, 'scans.txt'));
		}
		return new Uint8Array(runTool('jpegtran', [...args, ...extra], jpeg));
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
