import { seededRandom } from './random';
import { ENDPOINT_KEYS, type EndpointKey } from './types';

/**
 * Fault injection (off by default): seeded random rates per endpoint, fixed latency, and a queue
 * "the next N requests to endpoint X get fault F" for tests that need exact control.
 */
export const FAULT_KINDS = [
	'internalError', // 500 INTERNAL_ERROR instead of handling
	'busy', // 503 BUSY instead of handling
	'rateLimited', // 429 RATE_LIMITED instead of handling
	'dropBeforeBody', // socket destroyed before the body is read: nothing happens
	'dropAfterBody', // request handled (an upload is ACCEPTED and charged), then the socket is destroyed
	'malformedJson', // request handled, the response body is cut short
	'latency', // the response waits `ms` longer
	'neverFinish', // upload: the result stays `processing`; getResult: this read says `processing`
	'unknownStatus', // upload: the result reports e.g. `paused` forever; getResult: this read does
	'extractionError', // upload: the result ends `error` instead of `done`
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
export type FaultTarget = EndpointKey | '*';

export interface Fault {
	kind: FaultKind;
	/** latency: extra milliseconds. */
	ms?: number;
	/** unknownStatus: the status reported (default `paused`). */
	status?: string;
	/** rateLimited: Retry-After seconds (default 1). */
	retryAfterSeconds?: number;
}

export type RandomFaultKind = Exclude<FaultKind, 'latency'>;

export interface FaultQueueEntry {
	endpoint: FaultTarget;
	fault: FaultKind | Fault;
	/** How many requests get it (default 1). */
	count?: number;
}

export interface FaultConfig {
	/** Seed of the random rates (default 1): the same seed gives the same faults. */
	seed?: number;
	/** Fixed extra latency per endpoint; an endpoint's own entry wins over '*'. */
	latencyMs?: Partial<Record<FaultTarget, number>>;
	/** Probability (0..1) per request of each fault, per endpoint; an endpoint's own entry wins over '*'. */
	rates?: Partial<Record<FaultTarget, Partial<Record<RandomFaultKind, number>>>>;
	/** Status reported by `unknownStatus` faults without their own (default `paused`). */
	unknownStatus?: string;
	/** Retry-After of injected 429s without their own (default 1). */
	retryAfterSeconds?: number;
	/** Scripted faults, taken before any random one. */
	queue?: FaultQueueEntry[];
}

export interface FaultSnapshot {
	config: Omit<FaultConfig, 'queue'>;
	queue: Array<{ endpoint: FaultTarget; fault: Fault; remaining: number }>;
}

export interface FaultController {
	/** Replaces the whole fault setup (rates, latency, queue) and reseeds. `{}` turns faults off. */
	configure(config: FaultConfig): void;
	/** Adds to the queue: the next `count` requests to `endpoint` get `fault`. */
	enqueue(endpoint: FaultTarget, fault: FaultKind | Fault, count?: number): void;
	/** Everything off. */
	clear(): void;
	snapshot(): FaultSnapshot;
}

/** What one request gets. */
export interface FaultDecision {
	latencyMs: number;
	fault?: Fault;
}

/** Faults that only make sense where a result is created or read. */
const APPLIES_TO: Partial<Record<FaultKind, readonly EndpointKey[]>> = {
	neverFinish: ['process', 'upload', 'getResult'],
	unknownStatus: ['process', 'upload', 'getResult'],
	extractionError: ['process', 'upload'],
};

const RANDOM_ORDER: readonly RandomFaultKind[] = FAULT_KINDS.filter((kind): kind is RandomFaultKind => kind !== 'latency');

export function appliesTo(kind: FaultKind, endpoint: EndpointKey): boolean {
	return APPLIES_TO[kind]?.includes(endpoint) ?? true;
}

export class FaultInjector implements FaultController {
	private config: Omit<FaultConfig, 'queue'> = {};
	private queue: Array<{ endpoint: FaultTarget; fault: Fault; remaining: number }> = [];
	private random = seededRandom(1);

	constructor(initial?: FaultConfig) {
		if (initial) this.configure(initial);
	}

	configure(config: FaultConfig): void {
		const { queue = [], ...rest } = config;
		for (const [target, rates] of Object.entries(rest.rates ?? {})) {
			checkTarget(target);
			for (const [kind, rate] of Object.entries(rates ?? {})) {
				const fault = normalize(kind as FaultKind);
				if (fault.kind === 'latency') throw new Error('latency is not a random fault; use latencyMs');
				if (typeof rate !== 'number' || rate < 0 || rate > 1) throw new Error(`rate of ${kind} must be between 0 and 1`);
				if (target !== '*' && !appliesTo(fault.kind, target as EndpointKey)) throw new Error(`${kind} does not apply to ${target}`);
			}
		}
		for (const target of Object.keys(rest.latencyMs ?? {})) checkTarget(target);
		this.config = structuredClone(rest);
		this.queue = [];
		this.random = seededRandom(rest.seed ?? 1);
		for (const entry of queue) this.enqueue(entry.endpoint, entry.fault, entry.count);
	}

	enqueue(endpoint: FaultTarget, fault: FaultKind | Fault, count = 1): void {
		checkTarget(endpoint);
		const normalized = normalize(fault);
		if (endpoint !== '*' && !appliesTo(normalized.kind, endpoint)) throw new Error(`${normalized.kind} does not apply to ${endpoint}`);
		if (!Number.isInteger(count) || count < 1) throw new Error('count must be a positive integer');
		this.queue.push({ endpoint, fault: normalized, remaining: count });
	}

	clear(): void {
		this.configure({});
	}

	snapshot(): FaultSnapshot {
		return structuredClone({ config: this.config, queue: this.queue });
	}

	/** Called once per request of an API operation. Queue first (the endpoint's own, then '*'), then the random rates. */
	decide(endpoint: EndpointKey): FaultDecision {
		const latencyMs = this.config.latencyMs?.[endpoint] ?? this.config.latencyMs?.['*'] ?? 0;
		const queued = this.takeQueued(endpoint);
		if (queued) {
			const fault = this.withDefaults(queued);
			return fault.kind === 'latency' ? { latencyMs: latencyMs + (fault.ms ?? 0) } : { latencyMs, fault };
		}
		const rates = { ...this.config.rates?.['*'], ...this.config.rates?.[endpoint] };
		for (const kind of RANDOM_ORDER) {
			const rate = rates[kind];
			if (!rate || !appliesTo(kind, endpoint)) continue;
			if (this.random() < rate) return { latencyMs, fault: this.withDefaults({ kind }) };
		}
		return { latencyMs };
	}

	private takeQueued(endpoint: EndpointKey): Fault | undefined {
		const entry =
			this.queue.find((candidate) => candidate.endpoint === endpoint) ??
			this.queue.find((candidate) => candidate.endpoint === '*' && appliesTo(candidate.fault.kind, endpoint));
		if (!entry) return undefined;
		entry.remaining -= 1;
		if (entry.remaining === 0) this.queue.splice(this.queue.indexOf(entry), 1);
		return entry.fault;
	}

	private withDefaults(fault: Fault): Fault {
		if (fault.kind === 'unknownStatus') return { status: this.config.unknownStatus ?? 'paused', ...fault };
		if (fault.kind === 'rateLimited') return { retryAfterSeconds: this.config.retryAfterSeconds ?? 1, ...fault };
		return fault;
	}
}

function normalize(fault: FaultKind | Fault): Fault {
	const normalized = typeof fault === 'string' ? { kind: fault } : fault;
	if (!(FAULT_KINDS as readonly string[]).includes(normalized.kind)) {
		throw new Error(`unknown fault ${String(normalized.kind)}; known: ${FAULT_KINDS.join(', ')}`);
	}
	return { ...normalized };
}

function checkTarget(target: string): void {
	if (target !== '*' && !(ENDPOINT_KEYS as readonly string[]).includes(target)) {
		throw new Error(`unknown endpoint ${target}; known: ${ENDPOINT_KEYS.join(', ')}, *`);
	}
}
