import type { AccountOptions, AccountSettings, AccountSnapshot } from './accounts';
import type { SandboxState } from './state';

/** Test and admin control over accounts: plans, quotas, keys, limits. */
export interface AccountController {
	/** A new account with the 8 ready-made templates (unless `readyMadeTemplates: false`) and a key. */
	create(options?: AccountOptions): AccountSnapshot;
	/** Change plan, monthly pages, pages used, paymentRequired, templates limit, rate limit, BUSY threshold. */
	update(accountId: string, settings: AccountSettings): AccountSnapshot;
	/** Creates the account when `id` is absent or unknown, else updates it and adds the given keys. */
	upsert(options: AccountOptions): AccountSnapshot;
	get(accountId: string): AccountSnapshot | undefined;
	byKey(key: string): AccountSnapshot | undefined;
	list(): AccountSnapshot[];
	/** Adds a key (generated unless given) to an account; several keys may share an account. */
	addKey(accountId: string, key?: string): string;
	/** Spec 5.4: the old key stops working at once; returns the new key. */
	regenerateKey(key: string): string;
	revokeKey(key: string): void;
}

export function createAccountController(state: SandboxState, changed: () => void): AccountController {
	const snapshot = (accountId: string): AccountSnapshot => {
		state.settleReleases();
		return state.accounts.snapshot(state.accounts.require(accountId));
	};
	const mutate = <T>(action: () => T): T => {
		const value = action();
		changed();
		return value;
	};
	return {
		create: (options) => mutate(() => snapshot(state.createAccount(options).id)),
		update: (accountId, settings) => mutate(() => snapshot(state.updateAccount(accountId, settings).id)),
		upsert: (options) =>
			mutate(() => {
				if (options.id === undefined || !state.accounts.get(options.id)) return snapshot(state.createAccount(options).id);
				state.updateAccount(options.id, options);
				for (const key of options.keys ?? []) state.accounts.addKey(options.id, key);
				return snapshot(options.id);
			}),
		get: (accountId) => (state.accounts.get(accountId) ? snapshot(accountId) : undefined),
		byKey: (key) => {
			const account = state.accounts.byKey(key);
			return account ? snapshot(account.id) : undefined;
		},
		list: () => state.accounts.list().map((account) => snapshot(account.id)),
		addKey: (accountId, key) => mutate(() => state.accounts.addKey(accountId, key)),
		regenerateKey: (key) => mutate(() => state.accounts.regenerateKey(key)),
		revokeKey: (key) => mutate(() => state.accounts.revokeKey(key)),
	};
}
