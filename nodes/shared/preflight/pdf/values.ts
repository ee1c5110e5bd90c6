import type { PdfText } from './text';

/**
 * The values of the PDF object syntax (ISO 32000 7.3), and the meter every reading step charges:
 * a hostile file costs at most the meter's limit.
 */

/** Work done while reading one file, in units of about one character examined. */
export class WorkMeter {
	spent = 0;

	constructor(readonly limit: number) {}

	charge(units: number): void {
		this.spent += units;
		if (this.spent > this.limit) throw new OutOfWork();
	}
}

/** The file needs more work than the meter allows: the caller falls back to "unknown". */
export class OutOfWork extends Error {
	constructor() {
		super('PDF structure: work limit reached');
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
