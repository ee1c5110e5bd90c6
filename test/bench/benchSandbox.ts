import { startSandbox, type Sandbox } from '../../sandbox/src';

/** Spec 2.8 / 8: requests per minute per key on the free plan and on paid plans. */
export const FREE_PLAN_REQUESTS_PER_MINUTE = 60;
export const PAID_PLAN_REQUESTS_PER_MINUTE = 120;

/**
 * The service as the benchmark sees it: timing close to the spec's typical 3-20 s (or 20 times
 * quicker with --fast) and the given requests per minute, on an account with pages enough for
 * any run (a paid quota with the rate limit set to the plan's).
 */
export async function startBenchSandbox(fast: boolean, requestsPerMinute: number): Promise<Sandbox> {
	return await startSandbox({
		timing: fast ? 'fast' : 'realistic',
		demoAccount: { plan: 'paid', monthlyPages: 1_000_000, rateLimitPerMinute: requestsPerMinute },
	});
}
