import { createHash, randomUUID } from 'node:crypto';
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

	/** `scannerId` is given for ready-made templates (see readyMadeScannerId); others get a random one. */
	create(accountId: string, input: Required<ScannerInput>, scannerId: string = randomUUID()): Scanner {
		const now = this.now();
		const scanner: Scanner = {
			scanner_id: scannerId,
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

/** Fixed namespace of the ready-made templates' ids (a random UUID chosen once; never change it). */
const READY_MADE_NAMESPACE = '6f1d9c52-3b8e-4f0a-9d47-2c5e8a1b7f63';

/**
 * The id of a ready-made template in one account: a name-based UUID (RFC 9562 version 5) of the
 * account id and the template's kind. The same at every start, so a workflow that picked the
 * sandbox's "Invoice" keeps working after a restart, with or without a state file. Made from the
 * account too because the spec does not say ids are per account: a service with ids unique across
 * accounts gives each account's copy its own id, and the contract suite checks that, so a workflow
 * that carries a template id over to another credential fails here as it would there.
 */
export function readyMadeScannerId(accountId: string, kind: string): string {
	const namespace = Buffer.from(READY_MADE_NAMESPACE.replaceAll('-', ''), 'hex');
	const hash = createHash('sha1').update(namespace).update(`${accountId}/${kind}`, 'utf8').digest();
	hash[6] = (hash[6] & 0x0f) | 0x50; // version 5
	hash[8] = (hash[8] & 0x3f) | 0x80; // RFC variant
	const hex = hash.subarray(0, 16).toString('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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
