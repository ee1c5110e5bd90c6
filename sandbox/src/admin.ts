import type { AccountController } from './accountController';
import type { AccountOptions } from './accounts';
import type { FaultConfig, FaultKind, Fault, FaultTarget } from './faults';
import type { AdminHandler } from './server';
import type { SandboxState } from './state';
import type { JsonReply } from './types';

/**
 * Controls for out-of-process users (e2e tests, benchmark, demo), under /__sandbox/, loopback only:
 *   GET  health            {ok, demoKey, now}
 *   GET  stats             SandboxStats
 *   POST reset-stats       {ok}
 *   GET  faults            FaultSnapshot
 *   POST faults            FaultConfig: replaces the whole fault setup ({} turns faults off)
 *   POST faults/queue      {endpoint, fault, count?}: adds to the scripted queue
 *   GET  accounts          AccountSnapshot[]
 *   POST accounts          AccountOptions: create (no or unknown id) or update (known id)
 *   POST accounts/regenerate-key {key}: {key: newKey}
 *   POST clock             {advanceMs}: moves the sandbox's time forward
 */
export function createAdminHandler(state: SandboxState, accounts: AccountController, demoKey: () => string): AdminHandler {
	return (method, url, body) => {
		const route = `${method} ${url.pathname.replace(/^\/__sandbox\//, '').replace(/\/$/, '')}`;
		const json = () => (body.length === 0 ? {} : (JSON.parse(body.toString('utf8')) as Record<string, unknown>));
		const ok = (payload: unknown): JsonReply => ({ status: 200, body: payload });
		switch (route) {
			case 'GET health':
				return ok({ ok: true, demoKey: demoKey(), now: state.clock.now() });
			case 'GET stats':
				state.settleReleases();
				return ok(state.stats.snapshot());
			case 'POST reset-stats':
				state.stats.reset();
				return ok({ ok: true });
			case 'GET faults':
				return ok(state.faults.snapshot());
			case 'POST faults':
				state.faults.configure(json() as FaultConfig);
				return ok(state.faults.snapshot());
			case 'POST faults/queue': {
				const entry = json() as { endpoint: FaultTarget; fault: FaultKind | Fault; count?: number };
				state.faults.enqueue(entry.endpoint, entry.fault, entry.count);
				return ok(state.faults.snapshot());
			}
			case 'GET accounts':
				return ok(accounts.list());
			case 'POST accounts':
				return ok(accounts.upsert(json() as AccountOptions));
			case 'POST accounts/regenerate-key':
				return ok({ key: accounts.regenerateKey(String(json().key)) });
			case 'POST clock': {
				state.clock.advance(Number(json().advanceMs ?? 0));
				return ok({ now: state.clock.now() });
			}
			default:
				return { status: 404, body: { ok: false, error: `unknown admin route ${route}` } };
		}
	};
}
