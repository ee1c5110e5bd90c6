import { randomUUID } from 'node:crypto';
import { toIso } from './clock';
import type { ScannerInput } from './validation';
import type { FieldDefinition } from './types';

export interface Scanner {
	scanner_id: string;
	name: string;
	description: string;
	fields: FieldDefinition[];
	createdAt: number;
	updatedAt: number;
}

/** Templates (scanners) per account. No account ever sees another's templates. */
export class ScannerStore {
	private readonly byAccount = new Map<string, Map<string, Scanner>>();

	constructor(private readonly now: () => number) {}

	list(accountId: string): Scanner[] {
		return [...this.accountScanners(accountId).values()];
	}

	count(accountId: string): number {
		return this.accountScanners(accountId).size;
	}

	get(accountId: string, scannerId: string): Scanner | undefined {
		return this.accountScanners(accountId).get(scannerId);
	}

	create(accountId: string, input: Required<ScannerInput>): Scanner {
		const now = this.now();
		const scanner: Scanner = {
			scanner_id: randomUUID(),
			name: input.name,
			description: input.description,
			fields: structuredClone(input.fields),
			createdAt: now,
			updatedAt: now,
		};
		this.accountScanners(accountId).set(scanner.scanner_id, scanner);
		return scanner;
	}

	/** Spec 4.8: `fields` replaces the whole list; every change bumps updated_at. */
	update(scanner: Scanner, input: Required<ScannerInput>): Scanner {
		Object.assign(scanner, {
			name: input.name,
			description: input.description,
			fields: structuredClone(input.fields),
			updatedAt: Math.max(this.now(), scanner.updatedAt + 1),
		});
		return scanner;
	}

	delete(accountId: string, scannerId: string): boolean {
		return this.accountScanners(accountId).delete(scannerId);
	}

	serialize(): Record<string, Scanner[]> {
		return Object.fromEntries([...this.byAccount].map(([accountId, scanners]) => [accountId, [...scanners.values()]]));
	}

	restore(data: Record<string, Scanner[]>): void {
		for (const [accountId, scanners] of Object.entries(data)) {
			this.byAccount.set(accountId, new Map(scanners.map((scanner) => [scanner.scanner_id, scanner])));
		}
	}

	private accountScanners(accountId: string): Map<string, Scanner> {
		let scanners = this.byAccount.get(accountId);
		if (!scanners) {
			scanners = new Map();
			this.byAccount.set(accountId, scanners);
		}
		return scanners;
	}
}

/** Spec 4.5 list entries and the 4.6 creation response carry no updated_at. */
export function scannerSummary(scanner: Scanner) {
	return {
		scanner_id: scanner.scanner_id,
		name: scanner.name,
		description: scanner.description,
		fields: scanner.fields,
		created_at: toIso(scanner.createdAt),
	};
}

/** Spec 2.1 / 4.7: the single read and the update response add updated_at. */
export function scannerDetail(scanner: Scanner) {
	return { ...scannerSummary(scanner), updated_at: toIso(scanner.updatedAt) };
}
