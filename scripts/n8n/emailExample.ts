import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { FILES_FOLDER, type N8nCli, type CredentialExport, type WorkflowJson } from './cli';
import type { Mailbox } from './dovecot';
import type { Log } from './progress';
import { N8nRestApi, type SavedExecution } from './restApi';
import { outputItems, type RunData, type RunItem } from './runData';
import type { SampleEmail, SampleMailbox } from './sampleEmails';
import { startN8nServer, throwAwayOwner, type Owner } from './server';
import { loadExample, templateLocatorValue, withParameters } from './workflows';

/**
 * The example "email attachments to a spreadsheet" (examples/email-attachments-to-spreadsheet.json)
 * as the demo and the end-to-end suite run it: as shipped (only the credentials and the template
 * picked), published in a live n8n that runs as a user's does (`N8nCli`: from its home, file access at n8n's default), its Email Trigger
 * (IMAP) reading a real mailbox (Dovecot, see dovecot.ts) into which the sample emails are then
 * delivered.
 */

export const EMAIL_NODES = {
	trigger: 'Email Trigger (IMAP)',
	extract: 'Extract Invoice Lines',
	sort: 'Sort Results',
	alreadyExtracted: 'Already Extracted',
	noDocument: 'No Document',
	attention: 'Needs Attention',
} as const;

/** The outputs of Sort Results (a Switch): two rules, then the fallback output. */
export const SORT_OUTPUTS = { alreadyExtracted: 0, noDocument: 1, newLines: 2 } as const;

/**
 * Where the example's Save nodes write, relative to the folder n8n runs in: n8n 2.x's one default
 * file folder (`~/.n8n-files`, N8N_RESTRICT_FILE_ACCESS_TO), which n8n itself never creates.
 */
export const OUTPUT_FOLDER = FILES_FOLDER;

/** A file the example wrote: `invoice-lines-2026-03-05-execution-42.csv`, `.xlsx`, `needs-attention-….csv`. */
export interface WrittenFile {
	path: string;
	name: string;
	kind: 'invoice-lines' | 'needs-attention';
	executionId: string;
	format: 'csv' | 'xlsx';
}

const WRITTEN_FILE = /^(invoice-lines|needs-attention)-\d{4}-\d{2}-\d{2}-execution-(\d+)\.(csv|xlsx)$/;

/** The files the example wrote into n8n's home, by execution ID; anything else in the folder is ignored. */
export function writtenFiles(home: string): WrittenFile[] {
	const folder = join(home, OUTPUT_FOLDER);
	return readdirSync(folder)
		.sort()
		.flatMap((name) => {
			const match = WRITTEN_FILE.exec(name);
			return match ? [{ path: join(folder, name), name, kind: match[1] as WrittenFile['kind'], executionId: match[2], format: match[3] as WrittenFile['format'] }] : [];
		});
}

/**
 * A fresh home folder for n8n, as n8n's Docker image has one (`/home/node`), holding the
 * `.n8n-files` folder the example writes into: the one step a user takes (`mkdir ~/.n8n-files`, or
 * a volume mounted there), since n8n's Read/Write Files node creates no folder on either line.
 */
export function createN8nHome(prefix = 'n8n-docx-home-'): string {
	const home = mkdtempSync(join(tmpdir(), prefix));
	mkdirSync(join(home, OUTPUT_FOLDER));
	return home;
}

/** The IMAP credential the example's trigger names. */
export const IMAP_CREDENTIAL = { id: 'DocExMailbox', name: 'Mailbox (IMAP)' } as const;

export function imapCredential(mailbox: Pick<Mailbox, 'host' | 'port' | 'user' | 'password'> & { secure?: boolean }): CredentialExport {
	return {
		...IMAP_CREDENTIAL,
		type: 'imap',
		data: { user: mailbox.user, password: mailbox.password, host: mailbox.host, port: mailbox.port, secure: mailbox.secure ?? false, allowUnauthorizedCerts: false },
	};
}

/** The example as shipped, with the account's Invoice template picked in the list (what a user sets besides credentials). */
export function emailExampleWorkflow(invoiceTemplate: { id: string; name: string }): WorkflowJson {
	return withParameters(loadExample('emailToSpreadsheet'), { [EMAIL_NODES.extract]: { templateId: templateLocatorValue(invoiceTemplate) } });
}

export interface EmailRun {
	/** The emails the trigger handed over (one item each), over every execution. */
	emails: RunItem[];
	/** What Extract Invoice Lines put out on its success output: rows, `no_document` and `duplicate` items. */
	extracted: RunItem[];
	/** Sort Results' three outputs. */
	newLines: RunItem[];
	alreadyExtracted: RunItem[];
	noDocument: RunItem[];
	/** The Needs Attention node's items (Extract's error output, shaped). */
	attention: RunItem[];
	/** Oldest first. */
	executions: SavedExecution[];
}

/** The example's items over several executions' run data. */
export function emailRunOf(runs: RunData[], executions: SavedExecution[] = []): EmailRun {
	const items = (node: string, output = 0) => runs.flatMap((run) => outputItems(run, node, output));
	return {
		emails: items(EMAIL_NODES.trigger),
		extracted: items(EMAIL_NODES.extract),
		newLines: items(EMAIL_NODES.sort, SORT_OUTPUTS.newLines),
		alreadyExtracted: items(EMAIL_NODES.sort, SORT_OUTPUTS.alreadyExtracted),
		noDocument: items(EMAIL_NODES.sort, SORT_OUTPUTS.noDocument),
		attention: items(EMAIL_NODES.attention),
		executions,
	};
}

/**
 * Publishes the example in a live n8n (`n8n start` on a free port, run from `home` as
 * `N8nCli` does) with its IMAP credential pointed at `mailbox`, delivers the mailbox one batch
 * at a time (each batch at once, so that n8n's trigger hands it to one execution), and waits after
 * each batch until n8n has run the workflow for it. The trigger fetches only mail that arrives
 * after publishing (its default since v2.1).
 */
export async function runEmailExample(
	cli: N8nCli,
	options: {
		workflow: WorkflowJson;
		mailbox: Mailbox & { secure?: boolean };
		credentials: CredentialExport[];
		log: Log;
		/** The emails, as they arrive between the trigger's fetches (see sampleMailbox). */
		fetches: SampleMailbox;
		/** n8n's home folder (see createN8nHome): the example writes into its `.n8n-files`. */
		home: string;
		timeoutMs?: number;
		/** Who signs in to n8n (a user folder shared with other tests has one already). */
		owner?: Owner;
		/** In the running n8n, before publishing: what a user sets up in the editor first (a data table, say). */
		beforeActivate?: (api: N8nRestApi) => Promise<void>;
		/** In the running n8n, once every batch has been run: read what the workflow wrote there. */
		afterRuns?: (api: N8nRestApi, run: EmailRun) => Promise<void>;
		/**
		 * Called while an execution of the workflow waits (a Wait node's form): what a person does
		 * then (submit the form). Called again on every poll while it waits; without it, a waiting
		 * execution counts as one still running.
		 */
		onWaiting?: (api: N8nRestApi, execution: SavedExecution) => Promise<void>;
	},
): Promise<EmailRun> {
	await cli.importCredentials([...options.credentials, imapCredential(options.mailbox)]);
	await cli.importWorkflows([options.workflow]);
	const server = await startN8nServer(cli.withHome(options.home));
	try {
		const api = await N8nRestApi.asOwner(server, options.owner ?? throwAwayOwner());
		await options.beforeActivate?.(api);
		await api.activateWorkflow(options.workflow.id);
		try {
			// The trigger connects and starts listening (IMAP IDLE) shortly after publishing.
			await waitForTriggerLogin(options.mailbox, options.timeoutMs ?? 60_000);
			// Executions of an earlier run of the same workflow (a user folder used before) are not this run's.
			const earlier = new Set((await api.listExecutions(options.workflow.id)).map((execution) => execution.id));
			let delivered = 0;
			let run: EmailRun | undefined;
			for (const emails of options.fetches) {
				// One after the other with nothing in between: n8n's fetch finds them all.
				for (const email of emails) await options.mailbox.deliver(email.message);
				delivered += emails.length;
				options.log(`Delivered ${emails.length} emails to ${options.mailbox.user}`);
				run = await collectRuns(api, options.workflow.id, earlier, delivered, options.timeoutMs ?? 120_000, options.onWaiting);
			}
			run ??= emailRunOf([]);
			await options.afterRuns?.(api, run);
			return run;
		} finally {
			// Left published, it would read the next mailbox its credential names (in the next test).
			await api.deactivateWorkflow(options.workflow.id);
		}
	} finally {
		await server.stop();
	}
}

/** Waits until n8n's trigger has logged in to the mailbox (Dovecot logs each login). */
async function waitForTriggerLogin(mailbox: Mailbox, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!mailbox.loggedIn()) {
		if (Date.now() > deadline) throw new Error(`n8n's Email Trigger did not log in to the mailbox within ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	// IDLE starts right after the login and the first (empty) fetch.
	await new Promise((resolve) => setTimeout(resolve, 1500));
}

/** Waits until finished executions of the workflow (but the `earlier` ones) have handled `emailCount` emails; returns their items. */
async function collectRuns(
	api: N8nRestApi,
	workflowId: string,
	earlier: Set<string>,
	emailCount: number,
	timeoutMs: number,
	onWaiting?: (api: N8nRestApi, execution: SavedExecution) => Promise<void>,
): Promise<EmailRun> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const listed = (await api.listExecutions(workflowId)).filter((execution) => !earlier.has(execution.id));
		if (onWaiting) {
			for (const waiting of listed.filter((execution) => execution.status === 'waiting')) await onWaiting(api, await api.getExecution(waiting.id));
		}
		const running = listed.filter((execution) => !['success', 'error', 'crashed', 'canceled'].includes(execution.status));
		const finished = listed.filter((execution) => !running.includes(execution)).sort((a, b) => Number(a.id) - Number(b.id));
		const executions = await Promise.all(finished.map((execution) => api.getExecution(execution.id)));
		const run = emailRunOf(
			executions.map((execution) => ({ data: execution.data }) as RunData),
			executions,
		);
		if (run.emails.length >= emailCount && running.length === 0) return run;
		if (Date.now() > deadline) {
			throw new Error(`After ${timeoutMs / 1000} s n8n had run the workflow for ${run.emails.length} of ${emailCount} emails (${listed.length} executions, ${running.length} running)`);
		}
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}

/** Writes the sample emails' files as `<n>_<file name>` into `dir`, for the stand-in that needs no mail server. */
export function writeEmailFiles(dir: string, emails: SampleEmail[]): void {
	mkdirSync(dir, { recursive: true });
	emails.forEach((email, n) => {
		for (const [name, bytes] of Object.entries(email.files)) writeFileSync(join(dir, `${n + 1}_${name}`), bytes);
	});
}

/**
 * The example with a stand-in for the mail server, for machines without one: a Manual Trigger, the
 * sample emails' files read from disk (`<n>_<file name>`, written by `writeEmailFiles`) and packed
 * by a Code node into one item per email with `attachment_0`, `attachment_1`, ..., as the Email
 * Trigger (IMAP) gives them. Only the demo's fallback: the example itself has no Code node. With
 * n8n 2.x's default file access the files must be under `~/.n8n-files` (see `N8nCli`).
 */
export function standInWorkflow(example: WorkflowJson, filesDir: string): WorkflowJson {
	const workflow = structuredClone(example);
	const trigger = workflow.nodes.find((node) => node.name === EMAIL_NODES.trigger);
	if (!trigger) throw new Error(`The example has no node named "${EMAIL_NODES.trigger}"`);
	const position = trigger.position as [number, number];
	workflow.nodes = workflow.nodes.filter((node) => node !== trigger);
	workflow.nodes.push(
		{ id: 'stand-in-start', name: STAND_IN.start, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [position[0] - 440, position[1]], parameters: {} },
		{
			id: 'stand-in-read',
			name: STAND_IN.read,
			type: 'n8n-nodes-base.readWriteFile',
			typeVersion: 1,
			position: [position[0] - 220, position[1]],
			parameters: { operation: 'read', fileSelector: join(filesDir, '*'), options: {} },
		},
		{
			id: 'stand-in-pack',
			name: EMAIL_NODES.trigger,
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position,
			parameters: { jsCode: PACK_INTO_EMAILS },
		},
	);
	workflow.connections = {
		...workflow.connections,
		[STAND_IN.start]: { main: [[{ node: STAND_IN.read, type: 'main', index: 0 }]] },
		[STAND_IN.read]: { main: [[{ node: EMAIL_NODES.trigger, type: 'main', index: 0 }]] },
	};
	return { ...workflow, id: `${example.id}StandIn`, name: `${example.name} (stand-in for the mail server)` };
}

const STAND_IN = { start: 'Run the Demo', read: 'Read Sample Emails' } as const;

const PACK_INTO_EMAILS = `// One item per sample email, its files as attachment_0, attachment_1, ... (as the Email Trigger (IMAP) gives them).
const emails = new Map();
for (const file of $input.all()) {
  const [, email, name] = /^(\\d+)_(.*)$/.exec(file.binary.data.fileName);
  if (!emails.has(email)) emails.set(email, { json: { subject: 'Sample email ' + email, from: 'accounts@supplier.example', date: new Date().toISOString() }, binary: {} });
  const binary = emails.get(email).binary;
  binary['attachment_' + Object.keys(binary).length] = { ...file.binary.data, fileName: name };
}
return [...emails.values()];`;
