/**
 * How long after queuing a document is done, learnt from what the scheduler has seen.
 *
 * Model: log(duration) = log(base + perPage * pages) + spread * noise, noise logistic. The logistic
 * has heavier tails than a normal one, and every observation's weight in the fit is capped (see
 * OBSERVATION_FLOOR), so one two-minute bank statement cannot drag the estimate for invoices.
 * The service's timing is not known to be linear; the linear median with a learnt spread only has
 * to place reads near the right quantile.
 *
 * Observations are intervals: a read that finds a document done says it finished before that read
 * answered; a read that finds it pending says it finished after that read was sent. The fit
 * maximises the interval-censored likelihood, so documents found done at the first read (an upper
 * bound only), documents found pending (a lower bound) and documents still pending all count.
 */

export interface CompletionPrior {
	baseMs: number;
	perPageMs: number;
	/** Spread of log(duration), logistic scale. */
	spread: number;
}

/** Spec 4.4: "typical completion is 3-20 seconds"; roughly 4 s plus 2.5 s per page. */
const DEFAULT_COMPLETION_PRIOR: CompletionPrior = { baseMs: 4000, perPageMs: 2500, spread: 0.25 };

/** One document's completion time, as milliseconds after it was queued: within (afterMs, byMs]. */
export interface CompletionObservation {
	pages: number;
	/** Last moment it was seen pending (0 when never seen pending). */
	afterMs: number;
	/** First moment it was seen finished; Infinity while it is still pending. */
	byMs: number;
}

/** Kept observations: enough to fit three numbers, few enough to follow a service that changes pace. */
const MAX_OBSERVATIONS = 200;
/** Caps how much one observation can cost the fit, so outliers are tolerated rather than fitted. */
const OBSERVATION_FLOOR = 1e-6;
/**
 * Prior widths in log units: wide enough that a handful of documents outweighs the prior, narrow
 * enough that one document found done at its first read (an upper bound only) cannot halve the
 * median.
 */
const PRIOR_SD_LOG_TIME = 0.5;
const PRIOR_SD_LOG_SPREAD = 0.7;
/** A learnt spread below 3 % would put every read on the median, i.e. half of them too early. */
const MIN_SPREAD = 0.03;
const MAX_SPREAD = 1.5;

interface Params {
	logBase: number;
	logPerPage: number;
	logSpread: number;
}

export class CompletionEstimator {
	private readonly prior: Params;
	private params: Params;
	private completed: CompletionObservation[] = [];

	constructor(prior: CompletionPrior = DEFAULT_COMPLETION_PRIOR) {
		this.prior = { logBase: Math.log(prior.baseMs), logPerPage: Math.log(prior.perPageMs), logSpread: Math.log(prior.spread) };
		this.params = { ...this.prior };
	}

	/** A finished document: it completed within (afterMs, byMs] after it was queued. */
	record(pages: number, afterMs: number, byMs: number): void {
		if (!(pages > 0) || !(byMs > 0) || !(byMs > afterMs)) return;
		this.completed.push({ pages, afterMs: Math.max(0, afterMs), byMs });
		if (this.completed.length > MAX_OBSERVATIONS) this.completed.shift();
	}

	/** Refits the model to the finished documents plus the ones still pending (seen pending until `afterMs`). */
	fit(stillPending: Array<{ pages: number; afterMs: number }> = []): void {
		const observations = [
			...this.completed,
			...stillPending.filter((p) => p.pages > 0 && p.afterMs > 0).map((p) => ({ ...p, byMs: Infinity })),
		];
		if (observations.length === 0) return;
		this.params = maximise((params) => this.logPosterior(params, observations), this.params);
	}

	/**
	 * Milliseconds after queuing by which the document is done with `probability`, given that it was
	 * still pending `afterMs` after queuing.
	 */
	quantileMs(pages: number, probability: number, afterMs = 0): number {
		const { median, spread } = this.distribution(pages);
		const seen = afterMs > 0 ? logisticCdf((Math.log(afterMs) - Math.log(median)) / spread) : 0;
		const target = Math.min(seen + probability * (1 - seen), 1 - 1e-9);
		return median * Math.exp(spread * Math.log(target / (1 - target)));
	}

	/** The current model's median duration and spread for a document of `pages` pages. */
	distribution(pages: number): { median: number; spread: number } {
		return { median: medianMs(this.params, pages), spread: spreadOf(this.params) };
	}

	private logPosterior(params: Params, observations: CompletionObservation[]): number {
		let total =
			gaussianLog(params.logBase, this.prior.logBase, PRIOR_SD_LOG_TIME) +
			gaussianLog(params.logPerPage, this.prior.logPerPage, PRIOR_SD_LOG_TIME) +
			gaussianLog(params.logSpread, this.prior.logSpread, PRIOR_SD_LOG_SPREAD);
		const spread = spreadOf(params);
		for (const { pages, afterMs, byMs } of observations) {
			const logMedian = Math.log(medianMs(params, pages));
			const low = afterMs > 0 ? logisticCdf((Math.log(afterMs) - logMedian) / spread) : 0;
			const high = byMs === Infinity ? 1 : logisticCdf((Math.log(byMs) - logMedian) / spread);
			total += Math.log(Math.max(high - low, OBSERVATION_FLOOR));
		}
		return total;
	}
}

function medianMs(params: Params, pages: number): number {
	return Math.exp(params.logBase) + Math.exp(params.logPerPage) * Math.max(pages, 1);
}

function spreadOf(params: Params): number {
	return Math.min(Math.max(Math.exp(params.logSpread), MIN_SPREAD), MAX_SPREAD);
}

function logisticCdf(z: number): number {
	return 1 / (1 + Math.exp(-z));
}

function gaussianLog(value: number, mean: number, sd: number): number {
	const z = (value - mean) / sd;
	return -0.5 * z * z;
}

/**
 * Pattern search (Hooke-Jeeves without the pattern move): three parameters and a smooth objective
 * need no gradient code, and starting from the previous fit it converges in a few dozen steps.
 */
function maximise(objective: (params: Params) => number, start: Params): Params {
	const keys: Array<keyof Params> = ['logBase', 'logPerPage', 'logSpread'];
	let best = { ...start };
	let bestValue = objective(best);
	let evaluations = 0;
	for (let step = 0.5; step > 0.004 && evaluations < 400; ) {
		let improved = false;
		for (const key of keys) {
			for (const direction of [1, -1]) {
				const candidate = { ...best, [key]: best[key] + direction * step };
				const value = objective(candidate);
				evaluations += 1;
				if (value > bestValue) {
					best = candidate;
					bestValue = value;
					improved = true;
					break;
				}
			}
		}
		if (!improved) step /= 2;
	}
	return best;
}
