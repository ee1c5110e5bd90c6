import type { Account } from './accounts';
import { errors } from './errors';
import type { Fault } from './faults';
import { resultView } from './results';
import type { Route } from './router';
import { scannerDetail, scannerSummary } from './scanners';
import type { SandboxState } from './state';
import type { EndpointKey, JsonReply } from './types';
import { handleUpload } from './uploads';
import { ValidationFailure, validateCreateInput, validateUpdateInput } from './validation';

/** One authenticated, rate-limited request of the 8 operations. */
export interface OperationRequest {
	state: SandboxState;
	account: Account;
	route: Route;
	contentType: string | undefined;
	body: Uint8Array;
	fault?: Fault;
}

type Operation = (request: OperationRequest) => JsonReply | Promise<JsonReply>;

/** Spec part 4, one function per operation. */
export const OPERATIONS: Record<EndpointKey, Operation> = {
	process: (request) => handleUpload({ ...request, endpoint: 'process' }),

	upload: (request) => {
		const scanner = request.state.scanners.get(request.account.id, request.route.scannerId ?? '');
		if (!scanner) return errors.scannerNotFound();
		return handleUpload({ ...request, endpoint: 'upload', scanner });
	},

	getResult: ({ state, account, route, fault }) => {
		const record = state.results.getForAccount(account.id, route.resultId ?? '');
		if (!record) return errors.resultNotFound();
		state.settleReleases();
		const override = fault?.kind === 'neverFinish' ? 'processing' : fault?.kind === 'unknownStatus' ? fault.status : undefined;
		return { status: 200, body: resultView(record, state.clock.now(), override) };
	},

	listScanners: ({ state, account }) => ({
		status: 200,
		body: { success: true, scanners: state.scanners.list(account.id).map(scannerSummary) },
	}),

	createScanner: ({ state, account, body }) =>
		withJsonBody(body, (json) => {
			const input = validateCreateInput(json);
			// Spec 4.6: the limit counts every template, the 8 ready-made ones included.
			if (state.scanners.count(account.id) >= account.templatesLimit) return errors.scannerLimit(account.templatesLimit, state.links);
			const scanner = state.scanners.create(account.id, input);
			return { status: 201, body: { success: true, ...scannerSummary(scanner) } };
		}),

	getScanner: ({ state, account, route }) => {
		const scanner = state.scanners.get(account.id, route.scannerId ?? '');
		if (!scanner) return errors.scannerNotFound();
		return { status: 200, body: { success: true, ...scannerDetail(scanner) } };
	},

	updateScanner: ({ state, account, route, body }) => {
		const scanner = state.scanners.get(account.id, route.scannerId ?? '');
		if (!scanner) return errors.scannerNotFound();
		return withJsonBody(body, (json) => {
			const input = validateUpdateInput(json, scanner);
			state.scanners.update(scanner, input);
			return { status: 200, body: { success: true, ...scannerDetail(scanner) } };
		});
	},

	deleteScanner: ({ state, account, route }) => {
		const scannerId = route.scannerId ?? '';
		if (!state.scanners.delete(account.id, scannerId)) return errors.scannerNotFound();
		return { status: 200, body: { success: true, scanner_id: scannerId, deleted: true } };
	},
};

/** INVALID_JSON for a body that does not parse, VALIDATION_ERROR for one that parses but breaks a rule. */
function withJsonBody(body: Uint8Array, handle: (json: unknown) => JsonReply): JsonReply {
	let json: unknown;
	try {
		json = JSON.parse(Buffer.from(body).toString('utf8'));
	} catch {
		return errors.invalidJson();
	}
	try {
		return handle(json);
	} catch (error) {
		return error instanceof ValidationFailure ? errors.validation(error.message) : errors.internal();
	}
}
