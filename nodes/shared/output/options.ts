/** The user's output settings (see descriptions.ts), and the error when a result cannot be shown as asked. */

export type OutputMode = 'fields' | 'tableRows' | 'raw';
export const OUTPUT_MODES: readonly OutputMode[] = ['fields', 'tableRows', 'raw'];

export interface OutputOptions {
	mode: OutputMode;
	/** tableRows: the table field to spread; empty or absent = the first table field of the result. */
	tableField?: string;
	includeConfidence?: boolean;
	includeSourceFragments?: boolean;
	/** 0..1; undefined = off. Fields below it (and required fields left empty) are listed for review. */
	reviewThreshold?: number;
	/** Names of the template's required fields (spec 2.2), read from the template; see requiredFields.ts. */
	requiredFields?: ReadonlySet<string>;
	/** Flag Duplicate Invoices: what the key compares; undefined = off. */
	duplicateInvoices?: { compareTotal: boolean };
}

/** A mapping the user's settings make impossible (a Table Field the result does not have). */
export class OutputMappingError extends Error {
	constructor(
		message: string,
		readonly description: string,
	) {
		super(message);
		this.name = 'OutputMappingError';
	}
}
