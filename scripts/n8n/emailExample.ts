import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { CredentialExport, N8nCli, WorkflowJson } from './cli';
import type { Mailbox } from './dovecot';
import type { Log } from './progress';
import { N8nRestApi, type SavedExecution } from './restApi';
import { outputItems, type RunData, type RunItem } from './runData';
import { sampleEmails, type SampleEmail } from './sampleEmails';
import { startN8nServer, throwAwayOwner, type Owner } from './server';
import { loadExample, templateLocatorValue, withParameters } from './workflows';

/**
 * The example "email attachments to a spreadsheet" (examples/email-attachments-to-spreadsheet.json)
 * as the demo and the end-to-end suite run it: published in a live n8n whose Email Trigger (IMAP)
 * reads a real mailbox (Dovecot, see dovecot.ts), into which the sample emails are then delivered.
 */

export const EMAIL_NODES = { trigger: 'Email Trigger (IMAP)', extract: 'Extract Invoice Lines' } as const;

export const SPREADSHEET_FILES = { csv: 'invoice-lines.csv', xlsx: 'invoice-lines.xlsx' } as const;

/** The IMAP credential the example's trigger names. */
export const IMAP_CREDENTIAL = { id: 'DocExMailbox', name: 'Mailbox (IMAP)' } as const;

export function imapCredential(mailbox: Pick<Mailbox, 'host' | 'port' | 'user' | 'password'> & { secure?: boolean }): CredentialExport {
	return {
		...IMAP_CREDENTIAL,
		type: 'imap',
		data: { user: mailbox.user, password: mailbox.password, host: mailbox.host, port: mailbox.port, secure: mailbox.secure ?? false, allowUnauthorizedCerts: false },
	};
}

/** The example as shipped, pointed at an output folder and the account's Invoice template. */
export function emailExampleWorkflow(outputDir: string, invoiceTemplate: { id: string; name: string }): WorkflowJson {
	return withParameters(loadExample('emailToSpreadsheet'), {
		[EMAIL_NODES.extract]: { templateId: templateLocatorValue(invoiceTemplate) },
		'Save CSV': { fileName: join(outputDir, SPREADSHEET_FILES.csv) },
		'Save XLSX': { fileName: join(outputDir, SPREADSHEET_FILES.xlsx) },
	});
}

export interface EmailRun {
	/** The emails the trigger handed over (one item each), over every execution. */
	emails: RunItem[];
	/** What Extract Invoice Lines output, over every execution. */
	rows: RunItem[];
	executions: SavedExecution[];
}

/**
 * Publishes the example in a live n8n (`n8n start` on a free port) with its IMAP credential pointed
 * at `mailbox`, delivers the sample emails, and waits until n8n has run the workflow for all of
 * them. The trigger fetches only mail that arrives after publishing (its default since v2.1).
 */
export async function runEmailExample(
	cli: N8nCli,
	options: {
		workflow: WorkflowJson;
		mailbox: Mailbox & { secure?: boolean };
		credentials: CredentialExport[];
		log: Log;
		emails?: SampleEmail[];
		timeoutMs?: number;
		/** Who signs in to n8n (a user folder shared with other tests has one already). */
		owner?: Owner;
	},
): Promise<EmailRun> {
	const emails = options.emails ?? sampleEmails();
	await cli.importCredentials([...options.credentials, imapCredential(options.mailbox)]);
	await cli.importWorkflows([options.workflow]);
	const server = await startN8nServer(cli);
	try {
		const api = await N8nRestApi.asOwner(server, options.owner ?? throwAwayOwner());
		await api.activateWorkflow(options.workflow.id);
		try {
			// The trigger connects and starts listening (IMAP IDLE) shortly after publishing.
			await waitForTriggerLogin(options.mailbox, options.timeoutMs ?? 60_000);
			for (const email of emails) await options.mailbox.deliver(email.message);
			options.log(`Delivered ${emails.length} emails to ${options.mailbox.user}`);
			return await collectRuns(api, options.workflow.id, emails.length, options.timeoutMs ?? 120_000);
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

/** Waits until finished executions of the workflow have handled `emailCount` emails; returns their items. */
async function collectRuns(api: N8nRestApi, workflowId: string, emailCount: number, timeoutMs: number): Promise<EmailRun> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const listed = await api.listExecutions(workflowId);
		const running = listed.filter((execution) => !['success', 'error', 'crashed', 'canceled'].includes(execution.status));
		const executions = await Promise.all(listed.filter((execution) => !running.includes(execution)).map((execution) => api.getExecution(execution.id)));
		const runs = executions.map((execution) => ({ data: execution.data }) as RunData);
		const emails = runs.flatMap((run) => outputItems(run, EMAIL_NODES.trigger));
		if (emails.length >= emailCount && running.length === 0) {
			return { emails, rows: runs.flatMap((run) => outputItems(run, EMAIL_NODES.extract)), executions };
		}
		if (Date.now() > deadline) {
			throw new Error(`After ${timeoutMs / 1000} s n8n had run the workflow for ${emails.length} of ${emailCount} emails (${listed.length} executions, ${running.length} running)`);
		}
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}

/** Writes the sample emails' files as `<n>_<file name>` into `dir`, for the stand-in that needs no mail server. */
export function writeEmailFiles(dir: string, emails: SampleEmail[] = sampleEmails()): void {
	mkdirSync(dir, { recursive: true });
	emails.forEach((email, n) => {
		for (const [name, bytes] of Object.entries(email.files)) writeFileSync(join(dir, `${n + 1}_${name}`), bytes);
	});
}

/**
 * The example with a stand-in for the mail server, for machines without one: a Manual Trigger, the
 * sample emails' files read from disk (`<n>_<file name>`, written by `writeEmailFiles`) and packed
 * by a Code node into one item per email with `attachment_0`, `attachment_1`, ..., as the Email
 * Trigger (IMAP) gives them. Only the demo's fallback: the example itself has no Code node.
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
