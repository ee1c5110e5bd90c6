/**
 * Load: 200 documents through the Poller on ONE free-plan key (60 requests a minute, spec 2.8/8).
 *
 * The rate limit is real time, so 200 reads need a bit over three minutes whatever the sandbox's
 * timing: that is the point of the scenario. To measure the Poller alone, the 200 uploads go
 * through the action node with a second key of the same account (rate limit raised while
 * uploading); the account's quota is raised to 1,000 pages (the free plan's 20 would stop at 20
 * documents). Then the limit is set back to 60 and the Poller reads all 200 results with the
 * first key, within a fixed wall budget.
 */
import { describe, expect, it } from 'vitest';

import { extractParameters, numberedPdf, pdfItems, Scenario, useSandbox, useShortBackoff } from './support';

const DOCUMENTS = 200;
const FREE_PLAN_REQUESTS_PER_MINUTE = 60;
/** Wall budget of the Poller run: the rate limit needs about 3.3 minutes for 200 reads. */
const POLLER_BUDGET_SECONDS = 235;
/**
 * 429s tolerated: the node should meet none, and alone it meets none; with the other suite files
 * running beside it, one run in three met 3 at a window boundary (reported, cause not pinned
 * down). At most the reads in flight (4) at each of the 3 boundaries.
 */
const TOLERATED_429S = 12;

describe('load', () => {
	const sandbox = useSandbox();
	useShortBackoff();

	it(`${DOCUMENTS} documents through the Poller on one free-plan key`, async (context) => {
		const scenario = Scenario.open(sandbox(), context, { plan: 'free', monthlyPages: 1_000, rateLimitPerMinute: 100_000 });
		const uploader = scenario.addKey();
		const files = await Promise.all(Array.from({ length: DOCUMENTS }, (_, n) => numberedPdf('load', n + 1)));

		const uploaded = await scenario.run({ nodeType: 'action', label: 'upload', parameters: extractParameters(false), input: pdfItems(files), credential: uploader });
		scenario.expectRoutes(uploaded, 'action', files.map(() => 'ok'));

		scenario.sandbox.accounts.update(scenario.accountId, { rateLimitPerMinute: FREE_PLAN_REQUESTS_PER_MINUTE });
		const readsBefore = scenario.sandbox.stats().requests.getResult;
		const startedAt = Date.now();
		const polled = await scenario.run({
			nodeType: 'poller',
			parameters: { options: { timeout: POLLER_BUDGET_SECONDS } },
			input: uploaded.outputs[0],
		});
		const seconds = (Date.now() - startedAt) / 1000;
		scenario.expectRoutes(polled, 'poller', files.map(() => 'done'));

		const stats = await scenario.finish();
		const reads = stats.requests.getResult - readsBefore;
		// The node paces itself to the key's budget, and reads each document about once.
		expect(stats.rateLimited).toBeLessThanOrEqual(TOLERATED_429S);
		expect(reads).toBeGreaterThanOrEqual(DOCUMENTS);
		expect(reads).toBeLessThanOrEqual(Math.ceil(DOCUMENTS * 1.25) + stats.rateLimited);
		// Honest timing: 200 reads cannot fit in less than three 60-request windows.
		expect(seconds).toBeGreaterThan(120);
		expect(seconds).toBeLessThan(POLLER_BUDGET_SECONDS);
	});
});
