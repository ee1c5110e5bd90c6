/**
 * `npm run bench:sharedKey`: several n8n processes (queue-mode workers) on one API key, each with
 * its own rate budget (nodes/shared/http/rateBudget.ts), seeing the others only through the
 * X-RateLimit-* headers, in simulated time. Each worker runs lanes that always have work (a
 * rate-limited queue), a request's round trip and the pause between a lane's requests drawn at
 * random. The server counts as the sandbox does (a key's window opens with its first request and
 * runs a minute). Prints, per shared-key margin, the share of the limit used and the 429s.
 *
 *   npm run bench:sharedKey -- [--seeds N] [--minutes M]
 */
import { parseArgs } from 'node:util';

import { RateBudget } from '../../nodes/shared/http/rateBudget';
import { FakeClock, headersAsN8nGivesThem } from '../harness/fakeTime';
import { seededRandom } from '../../sandbox/src/random';
import { RateLimiter } from '../../sandbox/src/rateLimit';

interface Setup {
	title: string;
	workers: number;
	lanes: number;
	/** Pause of a lane between its requests: uniform in [0, thinkMs]. */
	thinkMs: number;
	/** Round trip: uniform in [minMs, maxMs]. */
	latency: [number, number];
}

const SETUPS: Setup[] = [
	{ title: '2 workers x 4 lanes, 20-150 ms, pause 0-3 s', workers: 2, lanes: 4, thinkMs: 3000, latency: [20, 150] },
	{ title: '2 workers x 8 lanes, 20-400 ms, pause 0-6 s', workers: 2, lanes: 8, thinkMs: 6000, latency: [20, 400] },
	{ title: '3 workers x 4 lanes, 20-150 ms, pause 0-3 s', workers: 3, lanes: 4, thinkMs: 3000, latency: [20, 150] },
];

const LIMIT = 60;

async function simulate(setup: Setup, margin: number | undefined, seed: number, minutes: number): Promise<{ accepted: number; http429: number }> {
	const clock = new FakeClock();
	const random = seededRandom(seed);
	const limiter = new RateLimiter(clock.now);
	const start = clock.now();
	const end = start + minutes * 60_000;
	let accepted = 0;
	let http429 = 0;
	const lane = async (budget: RateBudget) => {
		await clock.wait(random() * setup.thinkMs);
		while (clock.now() < end) {
			await budget.acquire(undefined, clock.wait);
			const [min, max] = setup.latency;
			const roundTrip = min + random() * (max - min);
			await clock.wait(roundTrip / 2);
			const decision = limiter.consume('key', LIMIT);
			if (!decision.allowed) http429 += 1;
			else if (clock.now() < end) accepted += 1;
			await clock.wait(roundTrip / 2);
			const headers = headersAsN8nGivesThem(RateLimiter.headers(decision));
			budget.observe(headers);
			if (!decision.allowed) budget.blockFor(decision.resetSeconds * 1000);
			await clock.wait(random() * setup.thinkMs);
		}
	};
	const budgets = Array.from({ length: setup.workers }, () => new RateBudget(clock, margin));
	await clock.run(Promise.all(budgets.flatMap((budget) => Array.from({ length: setup.lanes }, () => lane(budget)))));
	return { accepted, http429 };
}

async function main(): Promise<void> {
	const { values } = parseArgs({ options: { seeds: { type: 'string', default: '20' }, minutes: { type: 'string', default: '10' }, margins: { type: 'string', default: 'adaptive,3,4' } } });
	const seeds = Number(values.seeds);
	const minutes = Number(values.minutes);
	const margins = values.margins.split(',').map((margin) => (margin === 'adaptive' ? undefined : Number(margin)));
	for (const setup of SETUPS) {
		console.log(`\n${setup.title} (${seeds} seeds x ${minutes} min, limit ${LIMIT}/min)`);
		console.log('  margin | share of the limit used | 429s per run (mean, max) | runs with a 429');
		for (const margin of margins) {
			let used = 0;
			let total429 = 0;
			let max429 = 0;
			let runsWith429 = 0;
			for (let seed = 1; seed <= seeds; seed++) {
				const run = await simulate(setup, margin, seed, minutes);
				used += run.accepted / (minutes * LIMIT);
				total429 += run.http429;
				max429 = Math.max(max429, run.http429);
				if (run.http429 > 0) runsWith429 += 1;
			}
			console.log(`${String(margin ?? 'adaptive').padStart(8)} | ${((used / seeds) * 100).toFixed(1).padStart(22)} % | ${(total429 / seeds).toFixed(2)}, ${max429} | ${runsWith429} of ${seeds}`);
		}
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
