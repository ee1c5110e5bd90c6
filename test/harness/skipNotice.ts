/**
 * A suite that needs something from outside the repository (qpdf, the real-world corpus) and does
 * not find it registers one skipped test whose name says why; `skipReport` lists those names at
 * the end of `npm test`, so a skip is never silent.
 */
import { it } from 'vitest';

export const SKIP_NOTICE_PREFIX = 'skipped: ';

export function skipNotice(reason: string): void {
	it.skip(`${SKIP_NOTICE_PREFIX}${reason}`, () => undefined);
}
