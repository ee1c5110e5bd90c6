import { AccountStore, type Account, type AccountOptions, type AccountSettings } from './accounts';
import type { SandboxClock } from './clock';
import type { SandboxLinks } from './errors';
import { FaultInjector, type FaultConfig } from './faults';
import { RateLimiter } from './rateLimit';
import { ResultStore, terminalAt, type ResultRecord } from './results';
import { readyMadeScannerId, ScannerStore, type Scanner } from './scanners';
import { StatsRecorder } from './stats';
import { READY_MADE_TEMPLATES } from './templates';
import type { TimingConfig } from './timing';

export interface StateOptions {
	clock: SandboxClock;
	timing: TimingConfig;
	links: SandboxLinks;
	maxConcurrentUploads: number;
	faults?: FaultConfig;
}

/** What the state file holds: accounts, templates and results (never file bytes). */
export interface PersistedState {
	version: 1;
	accounts: ReturnType<AccountStore['serialize']>;
	scanners: Record<string, Scanner[]>;
	results: ResultRecord[];
}

/** Everything the sandbox knows, and the rules that span more than one store. */
export class SandboxState {
	readonly clock: SandboxClock;
	readonly timing: TimingConfig;
	readonly links: SandboxLinks;
	readonly accounts: AccountStore;
	readonly scanners: ScannerStore;
	readonly results = new ResultStore();
	readonly rateLimiter: RateLimiter;
	readonly stats = new StatsRecorder();
	readonly faults: FaultInjector;
	private readonly uploadsInFlight = new Map<string, number>();
	/** Rejected results whose pages go back to the quota once the rejection has happened. */
	private readonly pendingReleases = new Set<ResultRecord>();

	constructor(options: StateOptions) {
		this.clock = options.clock;
		this.timing = options.timing;
		this.links = options.links;
		const now = () => this.clock.now();
		this.accounts = new AccountStore(now, options.maxConcurrentUploads);
		this.scanners = new ScannerStore(now);
		this.rateLimiter = new RateLimiter(now);
		this.faults = new FaultInjector(options.faults);
	}

	/** Spec 1: "A new account starts with 8 ready-made templates". */
	createAccount(options: AccountOptions = {}): Account {
		const account = this.accounts.create(options);
		if (options.readyMadeTemplates !== false) {
			for (const template of READY_MADE_TEMPLATES) {
				const input = { name: template.name, description: template.description, fields: template.fields };
				this.scanners.create(account.id, input, readyMadeScannerId(account.id, template.kind));
			}
		}
		return account;
	}

	updateAccount(accountId: string, settings: AccountSettings): Account {
		return this.accounts.update(accountId, settings);
	}

	pagesAvailable(account: Account): number {
		this.settleReleases();
		return this.accounts.pagesAvailable(account);
	}

	/** Pages are reserved at upload (spec part 3) and counted in the stats. */
	charge(account: Account, pages: number): void {
		this.accounts.charge(account, pages);
		this.stats.pagesCharged(account.id, pages);
	}

	addResult(record: ResultRecord): void {
		this.results.add(record);
		if (record.outcome.kind === 'rejected' && !record.stuckStatus) this.pendingReleases.add(record);
		this.stats.resultCreated(record.resultId, describeResult(record));
	}

	/**
	 * Spec 7.4: "A rejected result consumes no pages". States are derived from time, so the
	 * release happens lazily, whenever quotas or stats are looked at.
	 */
	settleReleases(): void {
		const now = this.clock.now();
		for (const record of this.pendingReleases) {
			if (record.startsAt > now) continue;
			this.pendingReleases.delete(record);
			record.pagesReleased = true;
			const account = this.accounts.get(record.accountId);
			if (account) this.accounts.release(account, record.pages);
			this.stats.pagesReleased(record.accountId, record.pages);
		}
	}

	/** Spec 8.7: too many simultaneous uploads of one account give 503 BUSY. */
	tryStartUpload(account: Account): boolean {
		const running = this.uploadsInFlight.get(account.id) ?? 0;
		if (running >= account.maxConcurrentUploads) return false;
		this.uploadsInFlight.set(account.id, running + 1);
		return true;
	}

	endUpload(account: Account): void {
		const running = (this.uploadsInFlight.get(account.id) ?? 1) - 1;
		if (running > 0) this.uploadsInFlight.set(account.id, running);
		else this.uploadsInFlight.delete(account.id);
	}

	serialize(): PersistedState {
		return {
			version: 1,
			accounts: this.accounts.serialize(),
			scanners: this.scanners.serialize(),
			results: this.results.serialize(),
		};
	}

	restore(persisted: PersistedState): void {
		this.accounts.restore(persisted.accounts);
		this.scanners.restore(persisted.scanners);
		this.results.restore(persisted.results);
		for (const record of persisted.results) {
			if (record.outcome.kind === 'rejected' && !record.pagesReleased && !record.stuckStatus) this.pendingReleases.add(record);
		}
	}
}

export function describeResult(record: ResultRecord) {
	return {
		accountId: record.accountId,
		endpoint: record.endpoint,
		pages: record.pages,
		createdAt: record.createdAt,
		terminalAt: terminalAt(record),
	};
}
