import type { Wait } from '../wait';

/**
 * What a loop sleeps on between passes: `sleep(ms)` ends at the first `wake()` or when `ms` have
 * passed. Whatever should make the loop look again (an answer, a cancel) calls `wake()`. A wake
 * that comes while the loop is busy is kept, so its next sleep returns at once: none is lost.
 * The timer is the injected `wait`, stopped through its abort signal as soon as the sleep ends.
 */
export class WakeUp {
	/** Woken since the current or last sleep ended: the next sleep returns at once. */
	private woken = false;
	/** Ends the sleep under way, if one is. */
	private endSleep: (() => void) | undefined;

	constructor(private readonly wait: Wait) {}

	/** Ends the sleep under way, or else the next one at once. A bound function: usable as a listener. */
	readonly wake = (): void => {
		this.woken = true;
		this.endSleep?.();
	};

	/** Sleeps until woken or `ms` have passed (`Infinity`: until woken); at once if woken since the last sleep. */
	async sleep(ms: number): Promise<void> {
		if (!this.woken) {
			const timer = new AbortController();
			await new Promise<void>((resolve) => {
				this.endSleep = resolve;
				// The timer ends this sleep only; stopped below, it rejects, which ends nothing more.
				if (ms < Infinity) void this.wait(Math.max(ms, 0), timer.signal).then(resolve, resolve);
			});
			this.endSleep = undefined;
			timer.abort();
		}
		// Whatever woke the loop up to here, it looks at now.
		this.woken = false;
	}
}
