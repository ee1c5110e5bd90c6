import { randomBytes } from 'node:crypto';

/**
 * A fresh API key per test: the rate budget is shared per key within the process (as in n8n), so
 * tests that share a key would share a budget.
 */
export function freshKey(prefix = 'dex'): string {
	return `${prefix}_${randomBytes(12).toString('hex')}`;
}
