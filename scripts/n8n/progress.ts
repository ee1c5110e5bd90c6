export type Log = (message: string) => void;

const HEARTBEAT_MS = 15_000;

/** Runs a long step, saying what it is and, every 15 s, that it is still going. */
export async function withHeartbeat<T>(log: Log, what: string, step: () => Promise<T>): Promise<T> {
	const started = Date.now();
	log(`${what}...`);
	const timer = setInterval(() => log(`  ...still working (${seconds(started)} s)`), HEARTBEAT_MS);
	try {
		const value = await step();
		log(`  done in ${seconds(started)} s`);
		return value;
	} finally {
		clearInterval(timer);
	}
}

function seconds(since: number): number {
	return Math.round((Date.now() - since) / 1000);
}
