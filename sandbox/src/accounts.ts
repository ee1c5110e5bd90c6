import { randomBytes } from 'node:crypto';
import { monthKeyUtc } from './clock';
import {
	DEFAULT_MAX_CONCURRENT_UPLOADS,
	DEFAULT_PAID_MONTHLY_PAGES,
	DEFAULT_PAID_TEMPLATES_LIMIT,
	FREE_MONTHLY_PAGES,
	FREE_RATE_LIMIT_PER_MINUTE,
	FREE_TEMPLATES_LIMIT,
	KEY_PREFIX,
	PAID_RATE_LIMIT_PER_MINUTE,
} from './spec';
import type { Plan } from './types';

/** What can be set on an account (all optional; plan-dependent defaults follow spec part 8). */
export interface AccountSettings {
	plan?: Plan;
	/** Pages per month: 20 on the free plan, 200..15,000 on paid plans. */
	monthlyPages?: number;
	/** Pages already used this month (e.g. set it to monthlyPages to exhaust the quota). */
	pagesUsed?: number;
	/** An unpaid invoice exists: uploads get 402 PAYMENT_REQUIRED. */
	paymentRequired?: boolean;
	/** Templates in total, ready-made ones included: 10 on the free plan. */
	templatesLimit?: number;
	/** Requests per minute per key: 60 free, 120 paid. */
	rateLimitPerMinute?: number;
	/** Upload requests of this account in flight at once before 503 BUSY. */
	maxConcurrentUploads?: number;
}

export interface AccountOptions extends AccountSettings {
	/** Account id; generated when absent. */
	id?: string;
	/** Keys of this account (`dex_...`); one is generated when absent. Several keys may share an account. */
	keys?: string[];
	/** Give the account the 8 ready-made templates (default true, as every new account has them). */
	readyMadeTemplates?: boolean;
}

export interface Account extends Required<AccountSettings> {
	id: string;
	keys: string[];
	/** Month (UTC, `YYYY-MM`) that `pagesUsed` belongs to: quotas renew monthly. */
	usageMonth: string;
}

export type AccountSnapshot = Readonly<Account> & { pagesAvailable: number };

/** Settings applied as given; `plan` is handled apart because it brings its own defaults. */
const ADJUSTABLE_SETTINGS = [
	'monthlyPages',
	'pagesUsed',
	'paymentRequired',
	'templatesLimit',
	'rateLimitPerMinute',
	'maxConcurrentUploads',
] as const satisfies ReadonlyArray<keyof AccountSettings>;

const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}_[A-Za-z0-9_-]+$`);

export function generateKey(): string {
	return `${KEY_PREFIX}_${randomBytes(16).toString('hex')}`;
}

export function isWellFormedKey(key: string): boolean {
	return KEY_PATTERN.test(key);
}

export function planDefaults(plan: Plan): Required<Omit<AccountSettings, 'plan' | 'pagesUsed' | 'paymentRequired' | 'maxConcurrentUploads'>> {
	return plan === 'free'
		? { monthlyPages: FREE_MONTHLY_PAGES, templatesLimit: FREE_TEMPLATES_LIMIT, rateLimitPerMinute: FREE_RATE_LIMIT_PER_MINUTE }
		: {
				monthlyPages: DEFAULT_PAID_MONTHLY_PAGES,
				templatesLimit: DEFAULT_PAID_TEMPLATES_LIMIT,
				rateLimitPerMinute: PAID_RATE_LIMIT_PER_MINUTE,
			};
}

/** Accounts and their keys. Templates and results live in their own stores, keyed by account id. */
export class AccountStore {
	private readonly accounts = new Map<string, Account>();
	private readonly accountIdByKey = new Map<string, string>();
	private nextNumber = 1;

	constructor(
		private readonly now: () => number,
		private readonly defaultMaxConcurrentUploads = DEFAULT_MAX_CONCURRENT_UPLOADS,
	) {}

	create(options: AccountOptions = {}): Account {
		const id = options.id ?? `acct_${this.nextNumber++}`;
		if (this.accounts.has(id)) throw new Error(`account ${id} already exists`);
		const plan = options.plan ?? 'free';
		const account: Account = {
			id,
			plan,
			...planDefaults(plan),
			pagesUsed: 0,
			paymentRequired: false,
			maxConcurrentUploads: this.defaultMaxConcurrentUploads,
			keys: [],
			usageMonth: monthKeyUtc(this.now()),
		};
		this.accounts.set(id, account);
		this.applySettings(account, options);
		for (const key of options.keys?.length ? options.keys : [generateKey()]) this.addKey(id, key);
		return account;
	}

	/** Changing the plan resets the plan's defaults unless the same call sets them. */
	update(accountId: string, settings: AccountSettings): Account {
		const account = this.require(accountId);
		if (settings.plan !== undefined && settings.plan !== account.plan) {
			Object.assign(account, { plan: settings.plan }, planDefaults(settings.plan));
		}
		this.applySettings(account, settings);
		return account;
	}

	get(accountId: string): Account | undefined {
		return this.accounts.get(accountId);
	}

	require(accountId: string): Account {
		const account = this.accounts.get(accountId);
		if (!account) throw new Error(`unknown account ${accountId}`);
		return account;
	}

	byKey(key: string): Account | undefined {
		const id = this.accountIdByKey.get(key);
		return id === undefined ? undefined : this.accounts.get(id);
	}

	list(): Account[] {
		return [...this.accounts.values()];
	}

	addKey(accountId: string, key: string = generateKey()): string {
		const account = this.require(accountId);
		if (!isWellFormedKey(key)) throw new Error(`keys look like ${KEY_PREFIX}_<secret>; got ${key}`);
		const owner = this.accountIdByKey.get(key);
		if (owner !== undefined && owner !== accountId) throw new Error('key already belongs to another account');
		if (owner === undefined) {
			this.accountIdByKey.set(key, accountId);
			account.keys.push(key);
		}
		return key;
	}

	/** Spec 5.4: regenerating a key invalidates the previous one immediately. */
	regenerateKey(oldKey: string): string {
		const account = this.byKey(oldKey);
		if (!account) throw new Error('unknown key');
		this.revokeKey(oldKey);
		return this.addKey(account.id);
	}

	revokeKey(key: string): void {
		const account = this.byKey(key);
		if (!account) return;
		this.accountIdByKey.delete(key);
		account.keys = account.keys.filter((candidate) => candidate !== key);
	}

	/** Pages left this month; a new month starts the count again (spec 8: "renewing monthly"). */
	pagesAvailable(account: Account): number {
		this.renewIfNewMonth(account);
		return Math.max(0, account.monthlyPages - account.pagesUsed);
	}

	charge(account: Account, pages: number): void {
		this.renewIfNewMonth(account);
		account.pagesUsed += pages;
	}

	release(account: Account, pages: number): void {
		account.pagesUsed = Math.max(0, account.pagesUsed - pages);
	}

	snapshot(account: Account): AccountSnapshot {
		return { ...account, keys: [...account.keys], pagesAvailable: this.pagesAvailable(account) };
	}

	/** For the state file: everything needed to rebuild the store. */
	serialize(): Account[] {
		return this.list().map((account) => ({ ...account, keys: [...account.keys] }));
	}

	restore(accounts: Account[]): void {
		for (const account of accounts) {
			this.accounts.set(account.id, { ...account, keys: [...account.keys] });
			for (const key of account.keys) this.accountIdByKey.set(key, account.id);
			const number = /^acct_(\d+)$/.exec(account.id);
			if (number) this.nextNumber = Math.max(this.nextNumber, Number(number[1]) + 1);
		}
	}

	private applySettings(account: Account, settings: AccountSettings): void {
		for (const name of ADJUSTABLE_SETTINGS) {
			const value = settings[name];
			if (value !== undefined) Object.assign(account, { [name]: value });
		}
	}

	private renewIfNewMonth(account: Account): void {
		const month = monthKeyUtc(this.now());
		if (account.usageMonth !== month) {
			account.usageMonth = month;
			account.pagesUsed = 0;
		}
	}
}
