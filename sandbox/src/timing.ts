import { unitFromString } from './random';

/**
 * How long a result spends in each state. Spec 4.4: "Typical completion is 3-20 seconds. A long
 * bank statement can take about 2 minutes." The realistic model grows with the page count and
 * is capped so that a 50-page statement lands near two minutes.
 */
export interface TimingConfig {
	/** Time in `queued` before work starts (and before a refusal becomes `rejected`). */
	queuedMs: number;
	/** Processing time of any document... */
	baseMs: number;
	/** ...plus this much per page... */
	perPageMs: number;
	/** ...but never more than this. */
	maxProcessingMs: number;
	/** Spread around the computed time, as a fraction (0.15 = ±15%), stable per result. */
	jitter: number;
}

export type TimingOption = 'realistic' | 'fast' | number | Partial<TimingConfig>;

export const REALISTIC_TIMING: TimingConfig = {
	queuedMs: 1000,
	baseMs: 3000,
	perPageMs: 2500,
	maxProcessingMs: 120_000,
	jitter: 0.15,
};

/** `fast` is the realistic model 20 times quicker: states still move, tests stay short. */
export const FAST_SCALE = 0.05;

export function resolveTiming(option: TimingOption = 'realistic'): TimingConfig {
	if (option === 'realistic') return { ...REALISTIC_TIMING };
	if (option === 'fast') return scaleTiming(FAST_SCALE);
	if (typeof option === 'number') {
		if (!Number.isFinite(option) || option < 0) throw new RangeError('timing scale must be a non-negative number');
		return scaleTiming(option);
	}
	return { ...REALISTIC_TIMING, ...option };
}

function scaleTiming(scale: number): TimingConfig {
	return {
		queuedMs: REALISTIC_TIMING.queuedMs * scale,
		baseMs: REALISTIC_TIMING.baseMs * scale,
		perPageMs: REALISTIC_TIMING.perPageMs * scale,
		maxProcessingMs: REALISTIC_TIMING.maxProcessingMs * scale,
		jitter: REALISTIC_TIMING.jitter,
	};
}

export interface ResultSchedule {
	/** When the result leaves `queued`. */
	startsAt: number;
	/** When processing ends (`done` or `error`). */
	finishesAt: number;
}

export function scheduleResult(timing: TimingConfig, resultId: string, createdAt: number, pages: number): ResultSchedule {
	const spread = 1 + timing.jitter * (2 * unitFromString(resultId) - 1);
	const queued = Math.round(timing.queuedMs * spread);
	const processing = Math.round(processingMs(timing, pages) * spread);
	return { startsAt: createdAt + queued, finishesAt: createdAt + queued + processing };
}

/** The window within which a document of `pages` finishes, in ms after it was queued, whatever its jitter. */
export function completionWindow(timing: TimingConfig, pages: number): { fromMs: number; toMs: number } {
	const nominal = timing.queuedMs + processingMs(timing, pages);
	return { fromMs: nominal * (1 - timing.jitter), toMs: nominal * (1 + timing.jitter) };
}

function processingMs(timing: TimingConfig, pages: number): number {
	return Math.min(timing.baseMs + timing.perPageMs * pages, timing.maxProcessingMs);
}
