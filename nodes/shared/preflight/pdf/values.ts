import type { PdfText } from './text';

/**
 * The values of the PDF object syntax (ISO 32000 7.3), and the meter every reading step charges:
 * a hostile file costs at most the meter's limit.
 */

/** Work done while reading one file, in units of about one character examined. */
export class WorkMeter {
	spent = 0;
	private nextClockCheck = CLOCK_CHECK_UNITS;
	private deadline: number;

	/**
	 * `limit` bounds the work (linear in the file); `timeLimitMs` bounds the time it holds n8n's
	 * event loop on a slow or busy machine, read from the clock every few thousand units.
	 */
	constructor(
		readonly limit: number,
		timeLimitMs = Infinity,
		private readonly now: () => number = Date.now,
	) {
		this.deadline = now() + timeLimitMs;
	}

	charge(units: number): void {
		this.spent += units;
		if (this.spent > this.limit) throw new OutOfWork();
		if (this.spent < this.nextClockCheck) return;
		this.lookAtClock();
	}

	/**
	 * Looks at the clock now, for a step that takes long for the units it charges (inflating a
	 * small stream costs some 70 microseconds and a few dozen units).
	 */
	lookAtClock(): void {
		this.nextClockCheck = this.spent + CLOCK_CHECK_UNITS;
		if (this.now() > this.deadline) throw new OutOfWork();
	}

	/**
	 * Awaits work done off the event loop (inflating): the time it takes is not this file's, since
	 * other executions run meanwhile. Counting it cut a file short on a busy n8n, the page count then
	 * unknown for want of time another execution took.
	 */
	async offTheClock<T>(work: Promise<T>): Promise<T> {
		const resume = this.pause();
		try {
			return await work;
		} finally {
			resume();
		}
	}

	/** Stops the clock until the returned function is called: for a reading that waits between steps. */
	pause(): () => void {
		const pausedAt = this.now();
		return () => {
			this.deadline += this.now() - pausedAt;
		};
	}
}

/** Units between two looks at the clock: well under a millisecond of work. */
export const CLOCK_CHECK_UNITS = 16_384;

/**
 * A share of a meter's work set aside for one way of reading the file: every unit is charged to
 * the whole meter too (its limit and clock still end everything), and past the share's own limit
 * `giveUp()` is thrown: that way is abandoned and the rest of the meter is left for another.
 */
export class WorkShare extends WorkMeter {
	constructor(
		private readonly whole: WorkMeter,
		limit: number,
		private readonly giveUp: () => Error,
	) {
		super(limit);
	}

	override charge(units: number): void {
		this.whole.charge(units);
		this.spent += units;
		if (this.spent > this.limit) throw this.giveUp();
	}

	override lookAtClock(): void {
		this.whole.lookAtClock();
	}

	override offTheClock<T>(work: Promise<T>): Promise<T> {
		return this.whole.offTheClock(work);
	}
}

/** The file needs more work than the meter allows: the caller falls back to "unknown". */
export class OutOfWork extends Error {
	constructor() {
		super('PDF structure: work or time limit reached');
		this.name = 'OutOfWork';
	}
}

export class PdfName {
	constructor(readonly name: string) {}
}

export class PdfString {
	constructor(readonly bytes: Uint8Array) {}
}

export class PdfRef {
	constructor(
		readonly id: number,
		readonly generation: number,
	) {}
}

export type PdfDict = Map<string, PdfValue>;
export type PdfValue = number | boolean | null | PdfName | PdfString | PdfRef | PdfValue[] | PdfDict;

/** A part of a file read as latin1 text (one character per byte), where a value starts. */
export interface TextRange {
	text: PdfText;
	start: number;
	end: number;
}

/** Dictionary helpers: a value of the expected kind, or undefined. */
export const dictionaryValue = {
	name: (dict: PdfDict, key: string): string | undefined => {
		const value = dict.get(key);
		return value instanceof PdfName ? value.name : undefined;
	},
	integer: (dict: PdfDict, key: string): number | undefined => {
		const value = dict.get(key);
		return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
	},
	string: (dict: PdfDict, key: string): Uint8Array | undefined => {
		const value = dict.get(key);
		return value instanceof PdfString ? value.bytes : undefined;
	},
	boolean: (dict: PdfDict, key: string): boolean | undefined => {
		const value = dict.get(key);
		return typeof value === 'boolean' ? value : undefined;
	},
};

export function isDict(value: PdfValue | undefined): value is PdfDict {
	return value instanceof Map;
}
