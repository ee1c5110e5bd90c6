import type { RunData } from './runData';
import { ownerSession, setUpOwner, throwAwayOwner, type Owner } from './server';

/** An execution as n8n's REST API gives it (the editor's executions list and execution view read the same). */
export interface SavedExecution {
	id: string;
	status: string;
	finished: boolean;
	mode: string;
	retryOf?: string | null;
	/** The run data saved so far (with "Save execution progress": after every node). */
	data: RunData['data'] & { executionData?: { nodeExecutionStack?: Array<{ node: { name: string } }> } };
}

/**
 * The REST API of a running n8n main process (what its editor uses), signed in as the owner of a
 * fresh instance: read executions with their data, retry one as the editor's "Retry" does.
 */
export class N8nRestApi {
	private constructor(
		readonly url: string,
		private readonly cookie: string,
	) {}

	/** Sets up the owner of a fresh n8n and signs in as that owner. */
	static async asNewOwner(server: { url: string }): Promise<N8nRestApi> {
		return new N8nRestApi(server.url, await setUpOwner(server, throwAwayOwner()));
	}

	/** Signs in as `owner`, setting it up first on a fresh n8n. */
	static async asOwner(server: { url: string }, owner: Owner): Promise<N8nRestApi> {
		return new N8nRestApi(server.url, await ownerSession(server, owner));
	}

	/**
	 * Publishes the workflow's current version, as the editor's Publish (formerly Active) toggle
	 * does: its triggers and webhooks go live. n8n 2.x has an activate endpoint; n8n 1.x saves
	 * `active: true` on the workflow.
	 */
	async activateWorkflow(id: string): Promise<void> {
		const { data } = await this.call<{ data: { versionId: string } }>('GET', `/rest/workflows/${id}`);
		const activated = await this.request('POST', `/rest/workflows/${id}/activate`, { versionId: data.versionId });
		if (activated.status !== 404) return void this.check('POST', `/rest/workflows/${id}/activate`, activated);
		await this.call('PATCH', `/rest/workflows/${id}`, { active: true, versionId: data.versionId });
	}

	/** Unpublishes the workflow (its triggers stop), as the editor's toggle does; n8n 1.x saves `active: false`. */
	async deactivateWorkflow(id: string): Promise<void> {
		const deactivated = await this.request('POST', `/rest/workflows/${id}/deactivate`, {});
		if (deactivated.status !== 404) return void this.check('POST', `/rest/workflows/${id}/deactivate`, deactivated);
		const { data } = await this.call<{ data: { versionId: string } }>('GET', `/rest/workflows/${id}`);
		await this.call('PATCH', `/rest/workflows/${id}`, { active: false, versionId: data.versionId });
	}

	/** The workflow's executions, newest first, without their data (the editor's executions list). */
	async listExecutions(workflowId: string): Promise<Array<Omit<SavedExecution, 'data'>>> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const body = await this.call<{ data: { results: Array<Omit<SavedExecution, 'data'>> } }>('GET', `/rest/executions?filter=${filter}&limit=100`);
		return body.data.results.map((execution) => ({ ...execution, id: String(execution.id) }));
	}

	async getExecution(id: string): Promise<SavedExecution> {
		const body = await this.call<{ data: Omit<SavedExecution, 'data'> & { data: string } }>('GET', `/rest/executions/${id}`);
		return { ...body.data, data: parseFlatted(body.data.data) as SavedExecution['data'] };
	}

	/**
	 * The editor's Retry of a failed or crashed execution: a new execution (`retryOf` the old one)
	 * that starts from the saved state, i.e. runs the nodes that had not finished, with the saved
	 * output of those that had. Resolves when the new execution has finished; returns its id.
	 */
	async retryExecution(id: string, options: { loadWorkflow?: boolean } = {}): Promise<{ id: string; status: string }> {
		const body = await this.call<{ data: { id: string; status: string } }>('POST', `/rest/executions/${id}/retry`, { loadWorkflow: options.loadWorkflow ?? false });
		return { id: String(body.data.id), status: body.data.status };
	}

	/** Any other endpoint of the REST API (`/rest/...`), as the editor calls it: its JSON answer; throws on a status outside 2xx. */
	async json<T>(method: string, path: string, body?: unknown): Promise<T> {
		return await this.call<T>(method, path, body);
	}

	private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
		return JSON.parse(this.check(method, path, await this.request(method, path, body))) as T;
	}

	private async request(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
		const response = await fetch(`${this.url}${path}`, {
			method,
			headers: { cookie: this.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return { status: response.status, text: await response.text() };
	}

	private check(method: string, path: string, { status, text }: { status: number; text: string }): string {
		if (status < 200 || status >= 300) throw new Error(`${method} ${path} answered ${status}: ${text.slice(0, 500)}`);
		return text;
	}
}

/**
 * Waits until n8n serves the production webhook `path` (activation registers it shortly after the
 * REST call returns). Asks as a browser's CORS preflight does, which runs no workflow: 204 once the
 * webhook is registered, 404 before.
 */
export async function waitForProductionWebhook(mainUrl: string, path: string, method = 'POST', timeoutMs = 30_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const response = await fetch(`${mainUrl}/webhook/${path}`, {
			method: 'OPTIONS',
			headers: { origin: mainUrl, 'access-control-request-method': method },
		});
		if (response.status === 204) return;
		if (Date.now() > deadline) throw new Error(`The webhook ${method} /webhook/${path} was not registered after ${timeoutMs / 1000} s (last answer ${response.status})`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * Reads the "flatted" JSON n8n stores run data in (the `flatted` package's format): a JSON array
 * whose first entry is the value; inside objects and arrays every string is the index of the entry
 * that holds the real value (which lets the format keep shared and circular references).
 */
export function parseFlatted(text: string): unknown {
	const entries = JSON.parse(text) as unknown[];
	const revived = new Set<unknown>();
	const revive = (value: unknown): unknown => {
		if (typeof value !== 'object' || value === null || revived.has(value)) return value;
		revived.add(value);
		const target = value as Record<string, unknown>;
		for (const key of Object.keys(target)) {
			const member = target[key];
			target[key] = typeof member === 'string' ? revive(entries[Number(member)]) : member;
		}
		return value;
	};
	return revive(entries[0]);
}
