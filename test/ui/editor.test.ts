import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { resources } from '../../nodes/DocumentExtraction/actions/router';
import { UPLOAD_NOT_SENT_AGAIN } from '../../nodes/shared/http/errors';
import type { WorkflowJson } from '../../scripts/n8n/cli';
import { EMAIL_NODES, IMAP_CREDENTIAL, emailExampleWorkflow, imapCredential } from '../../scripts/n8n/emailExample';
import { REPO_ROOT, SAMPLES_DIR } from '../../scripts/n8n/paths';
import { EXAMPLE_CREDENTIAL, findTemplate, sandboxCredential } from '../../scripts/n8n/workflows';
import { N8nRestApi, waitForProductionWebhook } from '../../scripts/n8n/restApi';
import { outputItems, type RunData } from '../../scripts/n8n/runData';
import { startN8nServer, throwAwayOwner, type N8nServer } from '../../scripts/n8n/server';
import { n8n } from '../e2e/support';
import { SAMPLES } from '../fixtures';
import { INVOICES, renderInvoice } from '../fixtures/documents/invoices';
import { startSandbox, type Sandbox } from '../../sandbox/src';
import { READY_MADE_TEMPLATES } from '../../sandbox/src/templates';
import { launchBrowser, type Browser, type Page } from './browser';
import { Editor } from './editor';
import { REVIEW_NODES, REVIEW_WEBHOOK_PATH, reviewFormWorkflow } from './reviewWorkflow';

const cli = n8n();
const version = cli.version;
const SHOTS_DIR = join(REPO_ROOT, 'test-output', 'ui', `n8n-${version}`);
/** `npm run docs:screenshots` sets this: the README's pictures are copied there from a run on the newest n8n. */
const DOCS_DIR = process.env.UI_DOCS_DIR ? join(REPO_ROOT, process.env.UI_DOCS_DIR) : undefined;
/**
 * Where the user's file is read from: `~/.n8n-files/invoices`, the folder n8n 2.x reads by default,
 * typed as the README tells a user to (relative to n8n's home), not this clone's samples.
 */
const DOCUMENTS_PATH = '.n8n-files/invoices';
const documentsDir = join(cli.home, DOCUMENTS_PATH);
const invoice = SAMPLES.invoiceEn.expected as { invoice_number: string; supplier_name: string; line_items: Array<{ description: string }> };
/** The reviewer's browser window: the form is a card about 450 px wide. */
const REVIEW_PAGE_WIDTH = 800;
/** The invoice whose total does not add up (read with low confidence): the one the review form is shown for. */
const doubtful = INVOICES.invoiceInconsistent.truth;
const DOUBTFUL_FILE = `${doubtful.invoice_number}.pdf`;
const reviewWorkflow = reviewFormWorkflow(`${DOCUMENTS_PATH}/${DOUBTFUL_FILE}`, {
	from: 'Brightline Studio Billing <billing@brightline.example>',
	subject: `Invoice ${doubtful.invoice_number} from Brightline Studio`,
	date: '2026-03-05T15:41:00.000Z',
});

/** Node names as the node panel lists them. */
const ACTION_NODE = 'Document Extraction';
const POLLER_NODE = 'Document Extraction Poller';

/**
 * A new user's first session in a real n8n editor, in Chromium: the owner account, the node panel,
 * the credential modal, a template from the live list, "Execute step" and the output table, the
 * Poller's outputs and an AI Agent's tool list, and what a failed upload tells the user. The packed package is installed as a community
 * package; the service is the local sandbox. Screenshots of every step land in test-output/ui/.
 */
describe(`the n8n ${version} editor, as a new user meets the package`, () => {
	let sandbox: Sandbox;
	let server: N8nServer;
	let closeBrowser: (() => Promise<void>) | undefined;
	let browser: Browser;
	let editor: Editor;
	let emailWorkflow: WorkflowJson;
	const owner = throwAwayOwner();

	const docsShot = async (name: string, page?: Page) => {
		const path = await editor.shot(name, page);
		if (DOCS_DIR) {
			mkdirSync(DOCS_DIR, { recursive: true });
			copyFileSync(path, join(DOCS_DIR, `${name}.png`));
		}
	};

	beforeAll(async () => {
		rmSync(SHOTS_DIR, { recursive: true, force: true });
		rmSync(documentsDir, { recursive: true, force: true });
		mkdirSync(documentsDir, { recursive: true });
		copyFileSync(join(SAMPLES_DIR, 'invoice-en.pdf'), join(documentsDir, 'invoice-en.pdf'));
		writeFileSync(join(documentsDir, DOUBTFUL_FILE), await renderInvoice(INVOICES.invoiceInconsistent));
		sandbox = await startSandbox({ timing: 'fast' });
		// The email example, imported as a user would (with an IMAP credential to pick): opened on the canvas later.
		emailWorkflow = emailExampleWorkflow(await findTemplate(sandbox.baseUrl, sandbox.demoKey, 'Invoice'));
		await cli.importCredentials([
			sandboxCredential(sandbox.baseUrl, sandbox.demoKey, EXAMPLE_CREDENTIAL),
			imapCredential({ host: 'imap.example.test', port: 993, user: 'ops@example.test', password: 'not-used-here', secure: true }),
		]);
		await cli.importWorkflows([emailWorkflow, reviewWorkflow]);
		server = await startN8nServer(cli);
		const launched = await launchBrowser();
		closeBrowser = launched.close;
		browser = launched.browser;
		const page = await browser.newPage();
		editor = new Editor(page, server.url, SHOTS_DIR);
		process.stdout.write(`[ui] n8n ${version} at ${server.url}, screenshots in ${SHOTS_DIR}\n`);
	});

	// What the user would have seen when a step failed: the first thing to look at.
	afterEach(async (context) => {
		if (context.task.result?.state === 'fail') {
			await editor?.shot('FAILED').catch(() => undefined);
			const stats = sandbox?.stats();
			if (stats) process.stdout.write(`[ui] sandbox so far: requests ${JSON.stringify(stats.requests)}, responses ${JSON.stringify(stats.responses)}\n`);
		}
	});

	afterAll(async () => {
		const stats = sandbox?.stats();
		if (stats) process.stdout.write(`[ui] sandbox: requests ${JSON.stringify(stats.requests)}, responses ${JSON.stringify(stats.responses)}\n`);
		await closeBrowser?.();
		await server?.stop();
		await sandbox?.stop();
		rmSync(documentsDir, { recursive: true, force: true });
	});

	it('sets up the owner account on the first page', async () => {
		await editor.setUpOwner(owner);
		await editor.shot('signed-in');
	});

	it('lists both nodes in the node panel for the words users search for', async () => {
		await editor.newWorkflowAfterManualTrigger();
		for (const query of ['Document Extraction', 'document', 'invoice', 'OCR']) {
			const listed = await editor.searchNodePanel(query);
			expect(listed, `node panel search "${query}"`).toEqual(expect.arrayContaining([ACTION_NODE, POLLER_NODE]));
		}
		await editor.searchNodePanel('invoice');
		await docsShot('node-panel-search');
	});

	it('adds a file to read, then Extract with Template from the node panel', async () => {
		await editor.searchNodePanel('Read/Write Files from Disk');
		await editor.pickNode('Read/Write Files from Disk');
		await editor.pickAction('Read File(s) From Disk');
		await editor.setText('fileSelector', `${DOCUMENTS_PATH}/invoice-en.pdf`);
		await editor.shot('read-file');
		await editor.closeNdv();

		await editor.openNodePanelAfterLastNode();
		await editor.searchNodePanel(ACTION_NODE);
		await editor.pickNode(ACTION_NODE);
		const actions = await editor.listedActions();
		await editor.shot('actions');
		// One action per operation the node runs (3 document, 6 template).
		expect(actions, actions.join(' / ')).toHaveLength(Object.values(resources).reduce((sum, operations) => sum + Object.keys(operations).length, 0));
		const extractWithTemplate = actions.find((action) => /with (a )?template/i.test(action) && !/update|delete|get/i.test(action));
		expect(extractWithTemplate, `actions listed: ${actions.join(' / ')}`).toBeDefined();
		await editor.pickAction(extractWithTemplate as string);
	});

	it('creates the credential in its modal: a wrong key gets advice, the right key passes', async () => {
		await editor.openNewCredentialModal();
		const prefix = sandbox.demoKey.split('_')[0];
		const wrong = await editor.saveCredential({ apiKey: `${prefix}_thisKeyWasNeverIssued0000`, baseUrl: sandbox.baseUrl });
		await docsShot('credential-wrong-key');
		expect(wrong.ok).toBe(false);
		expect(wrong.message).toMatch(/refused the API key \(401 INVALID_API_KEY\)/);

		const before = sandbox.stats().requests.listScanners ?? 0;
		const right = await editor.saveCredential({ apiKey: sandbox.demoKey });
		await editor.shot('credential-right-key');
		expect(right, right.message).toMatchObject({ ok: true });
		expect(sandbox.stats().requests.listScanners).toBeGreaterThan(before);
		await editor.closeCredentialModal();
	});

	it('picks the template from the list the service returns, and its table from the list of its table fields', async () => {
		const offered = await editor.pickFromList('templateId', 'Invoice');
		await docsShot('template-picker');
		expect(offered).toEqual(expect.arrayContaining(['Invoice', 'Receipt', 'Bank statement']));

		const outputs = await editor.selectOption('output', 'One Item per Table Row');
		expect(outputs).toEqual(['One Item per Document', 'One Item per Table Row', 'Raw']);
		const tables = await editor.selectOption('tableField', 'line_items');
		expect(tables).toContain('line_items');
		await docsShot('parameters');
	});

	it('an upload the service answers with a 500 is not sent again, and the output panel says so and what to do', async () => {
		await editor.closeNdv();
		await editor.openNode('Extract data with a template');
		const uploadsBefore = sandbox.stats().requests.upload;
		sandbox.faults.enqueue('upload', 'internalError');
		await editor.executeStep();
		const error = await editor.outputError();
		await editor.shot('upload-answered-500');
		expect(error.message).toContain('The service had an internal error');
		expect(error.panelText).toContain(UPLOAD_NOT_SENT_AGAIN);
		expect(error.panelText).toContain('If no result appears for it in your account, run the item again.');
		expect(sandbox.stats().requests.upload).toBe(uploadsBefore + 1);
		await editor.closeNdv();
		await editor.closeToasts();
	});

	it('runs the step with "Execute step" and shows one row per invoice line in the output table', async () => {
		// A new execution: the earlier try's upload that got no clear answer does not hold this one back.
		await editor.openNode('Extract data with a template');
		const uploadsBefore = sandbox.stats().uploads.length;
		await editor.executeStep();
		const table = await editor.outputTable();
		await docsShot('output-table');
		expect(table.columns).toEqual(expect.arrayContaining(['line_number', 'description', 'invoice_number', 'supplier_name']));
		const column = (name: string) => table.rows.map((row) => row[table.columns.indexOf(name)]);
		expect(column('description')).toEqual(invoice.line_items.map((line) => line.description));
		expect(new Set(column('invoice_number'))).toEqual(new Set([invoice.invoice_number]));
		expect(new Set(column('supplier_name'))).toEqual(new Set([invoice.supplier_name]));
		expect(sandbox.stats().uploads.length).toBe(uploadsBefore + 1);
		await editor.closeNdv();
		// The canvas names the step by its operation, not by raw values ("extractWithTemplate: document").
		expect((await editor.canvasNode('Extract data with a template')).text).toContain('Extract with Template');
	});

	it('a second "Execute step" on the same file reads the earlier result: nothing is uploaded, and the output panel says so', async () => {
		await editor.openNode('Extract data with a template');
		const uploadsBefore = sandbox.stats().requests.upload;
		await editor.executeStep();
		const panel = await editor.waitForOutputText('uploaded earlier by this node');
		await editor.shot('reused-upload');
		expect(panel).toContain('1 document was uploaded earlier by this node: the earlier upload\'s result was read, nothing was charged again.');
		const table = await editor.outputTable();
		expect(table.rows.map((row) => row[table.columns.indexOf('description')])).toEqual(invoice.line_items.map((line) => line.description));
		expect(sandbox.stats().requests.upload).toBe(uploadsBefore);
		// Where the notice sends the user: the option that turns it off, under Options.
		const options = await editor.collectionChoices('Add Option');
		// With the options of issues 43 and 46, as the editor lists them.
		expect(options).toEqual(expect.arrayContaining(['Reuse Earlier Uploads', 'Wait Timeout (Seconds)', 'Include Input Binary', 'Flag Duplicate Invoices', 'Split PDFs', 'Shrink Large Photos']));
		await editor.closeNdv();
	});

	it('the email example on the canvas: its extraction reads every attachment, and the panel says what that means', async () => {
		await editor.openWorkflow(emailWorkflow.id);
		await editor.zoomToFit();
		await docsShot('email-workflow');
		expect((await editor.canvasNode(EMAIL_NODES.trigger)).text).toContain('Email Trigger');
		expect(IMAP_CREDENTIAL.name).toBeTruthy();

		await editor.openNode(EMAIL_NODES.extract);
		expect(await editor.parameterValue('documentSource')).toBe('Every Attachment (All Binary Fields)');
		expect(await editor.parameterValue('binaryPropertyPrefix')).toBe('attachment_');
		// What a user who reads only the panel learns: the choices, what each does, what is skipped.
		const offered = await editor.optionsWithDescriptions('documentSource');
		expect(offered.map((option) => option.name)).toEqual(['Binary Field', 'Every Attachment (All Binary Fields)', 'URL']);
		expect(offered[1].description).toMatch(/every attachment of an email.*not documents are skipped at no cost and listed/i);
		expect(await editor.shownTexts(['Only Fields Starting With', 'Input Binary Field', 'File URL'])).toEqual(['Only Fields Starting With']);
		expect(await editor.panelText()).toContain('Leave empty to read every binary field of the item');
		await docsShot('every-attachment');
		await editor.closeNdv();
	});

	it('shows the Poller on the canvas with its four labelled outputs', async () => {
		await editor.newWorkflowAfterManualTrigger();
		await editor.searchNodePanel(POLLER_NODE);
		await editor.pickNode(POLLER_NODE);
		await editor.addPickedNode();
		await editor.closeNdv();
		await editor.zoomToFit();
		await docsShot('poller-outputs');
		expect((await editor.canvasNode(POLLER_NODE)).outputs).toEqual(['Done', 'Rejected', 'Error', 'Still Processing']);
	});

	it('Template → Update names its name-and-description collection for what it holds, with no second "Add Field"', async () => {
		await editor.openNodePanel();
		await editor.searchNodePanel(ACTION_NODE);
		await editor.pickNode(ACTION_NODE);
		const update = (await editor.listedActions()).find((action) => /update/i.test(action));
		expect(update).toBeDefined();
		await editor.pickAction(update as string);
		await editor.findByText('label, span, div', 'Name and Description');
		await editor.shot('template-update');
		const shown = await editor.shownTexts(['Name and Description', 'Add Name or Description', 'Update Fields', 'Add Field', 'Replace Fields']);
		// The field editor's "Add Field" appears only once Replace Fields is on.
		expect(shown).toEqual(['Name and Description', 'Add Name or Description', 'Replace Fields']);
		await editor.closeNdv();
	});

	it("offers the action node in an AI Agent's tool list, and not the Poller", async () => {
		await editor.openNodePanel();
		await editor.searchNodePanel('AI Agent');
		await editor.pickNode('AI Agent');
		await editor.closeNdv();
		await editor.zoomToFit();
		await editor.openNodePanelForInput('inputs/ai_tool/0');
		const tools = await editor.searchNodePanel('Document Extraction');
		await docsShot('agent-tools');
		expect(tools).toContain(`${ACTION_NODE} Tool`);
		expect(tools).not.toContain(`${POLLER_NODE} Tool`);

		// An agent cannot hand a tool a file: as a tool the node starts on Get Result.
		await editor.pickNode(`${ACTION_NODE} Tool`);
		await editor.waitFor('[data-test-id="ndv"]');
		await editor.shot('agent-tool-parameters');
		expect(await editor.parameterValue('operation')).toBe('Get Result');
	});

	it('Template → Get Fields lists the picked template\'s fields, one row each, in the output table', async () => {
		await editor.closeNdv();
		await editor.newWorkflowAfterManualTrigger();
		await editor.searchNodePanel(ACTION_NODE);
		await editor.pickNode(ACTION_NODE);
		const getFields = (await editor.listedActions()).find((action) => /fields of a template/i.test(action));
		expect(getFields).toBeDefined();
		await editor.pickAction(getFields as string);
		await editor.pickFromList('templateId', 'Invoice');
		const asked = sandbox.stats().requests.getScanner ?? 0;
		await editor.executeStep();
		const table = await editor.outputTable();
		await editor.shot('template-get-fields');
		expect(table.columns).toEqual(expect.arrayContaining(['name', 'label', 'type', 'required', 'template_name']));
		const names = READY_MADE_TEMPLATES.find((template) => template.name === 'Invoice')?.fields.map((field) => field.name) ?? [];
		expect(await editor.waitForOutputText(`${names.length} items`)).toContain(`${names.length} items`);
		// n8n 1.x shows ten rows a page, 2.x more: the rows shown are the template's first fields, in its order.
		const shown = table.rows.map((row) => row[table.columns.indexOf('name')]);
		expect(shown.length).toBeGreaterThanOrEqual(Math.min(10, names.length));
		expect(shown).toEqual(names.slice(0, shown.length));
		expect(new Set(table.rows.map((row) => row[table.columns.indexOf('template_name')]))).toEqual(new Set(['Invoice']));
		expect(sandbox.stats().requests.getScanner).toBeGreaterThan(asked);
		await editor.closeNdv();
	});

	it('a doubtful invoice waits on the Review Form: the link opens the form pre-filled with what was read, and says why', async () => {
		const started = Date.now();
		const api = await N8nRestApi.asOwner(server, owner);
		await api.activateWorkflow(reviewWorkflow.id);
		try {
			// An email with the invoice arrives (the webhook stands in for the mailbox); the execution goes on to the form.
			await waitForProductionWebhook(server.url, REVIEW_WEBHOOK_PATH);
			expect((await fetch(`${server.url}/webhook/${REVIEW_WEBHOOK_PATH}`, { method: 'POST' })).status).toBe(200);
			const item = await waitForReviewLink(api, reviewWorkflow.id);
			const link = String(item.review_link);
			expect(link).toMatch(/\/form-waiting\/\d+/);
			if (cli.runtime.release.line === '2') expect(link).toMatch(/[?&]signature=/);
			expect(await formStatus(link)).toBe('form-waiting');

			// The reviewer opens the link in a browser of their own: no n8n account, no session.
			const reviewer = await browser.createBrowserContext();
			try {
				const page = await reviewer.newPage();
				await page.setViewport({ width: REVIEW_PAGE_WIDTH, height: 900 });
				await page.goto(link, { waitUntil: 'networkidle2' });
				await page.waitForSelector('form', { visible: true });
				const form = await shownForm(page);
				// Narrow as a laptop's half screen, and tall enough for the whole form, its Submit button
				// included: one picture of what the reviewer gets, not a wide page of empty margins.
				await page.setViewport({ width: REVIEW_PAGE_WIDTH, height: Math.min(1600, Math.max(900, form.height)) });
				await docsShot('review-form', page);

				expect(form.title).toBe(`Check invoice ${doubtful.invoice_number} from ${doubtful.supplier_name}`);
				expect(form.description).toMatch(/^Why it needs a look: Read with low confidence, or required and empty: [^\n]*\btotal\b/);
				// The sender as the Email Trigger gives it ("Name <address>"): the address is shown, not taken for an HTML tag.
				expect(form.description).toContain(`File ${DOUBTFUL_FILE}, in the email "Invoice ${doubtful.invoice_number} from Brightline Studio" from Brightline Studio Billing (billing@brightline.example).`);
				expect(form.fields).toMatchObject({
					'Invoice number': doubtful.invoice_number,
					Supplier: doubtful.supplier_name,
					'Invoice date': doubtful.invoice_date,
					Currency: doubtful.currency,
					Decision: 'Add its lines to the table',
					'Reviewed by': '',
				});
				expect(Number(form.fields.Total)).toBe(doubtful.total);
				expect(form.placeholders['Reviewed by']).toBe('Your name');
				expect(form.buttons).toContain('Submit');
				// The hidden result_id is not shown as a field.
				expect(Object.keys(form.fields)).not.toContain('result_id');
			} finally {
				await reviewer.close();
			}
		} finally {
			await api.deactivateWorkflow(reviewWorkflow.id);
			process.stdout.write(`[ui] review form: the email, the extraction and the form page took ${Math.round((Date.now() - started) / 1000)} s\n`);
		}
	});
});

/** What Send Review Link holds once the execution waits on the form (the message a reviewer is sent, with the link). */
async function waitForReviewLink(api: N8nRestApi, workflowId: string, timeoutMs = 90_000): Promise<Record<string, unknown>> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const waiting = (await api.listExecutions(workflowId)).find((execution) => execution.status === 'waiting');
		if (waiting) {
			const execution = await api.getExecution(waiting.id);
			const item = outputItems({ data: execution.data } as RunData, REVIEW_NODES.sendLink).at(-1)?.json;
			if (item?.review_link) return item;
		}
		if (Date.now() > deadline) throw new Error(`No execution of the review workflow waited on its form within ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** What n8n's form page polls: `form-waiting` once the Wait node's form is ready. */
async function formStatus(link: string): Promise<string> {
	const query = /\?.*$/.exec(link)?.[0] ?? '';
	return await (await fetch(`${link.replace(/\?.*$/, '')}/n8n-execution-status${query}`)).text();
}

/** The form page as the reviewer sees it: title, description, each field's value by its label, placeholders, buttons, and the card's height. */
async function shownForm(page: Page): Promise<{ title: string; description: string; fields: Record<string, string>; placeholders: Record<string, string>; buttons: string[]; height: number }> {
	return await page.evaluate(() => {
		const fields: Record<string, string> = {};
		const placeholders: Record<string, string> = {};
		for (const label of Array.from(document.querySelectorAll<HTMLLabelElement>('label.form-label[for]'))) {
			const input = document.getElementById(label.htmlFor) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null;
			if (!input || label.getClientRects().length === 0) continue;
			const name = label.innerText.replace(/\s*\*$/, '').trim();
			fields[name] = input instanceof HTMLSelectElement ? (input.selectedOptions[0]?.text ?? '') : input.value;
			placeholders[name] = input.getAttribute('placeholder') ?? '';
		}
		const visible = (element: Element) => element.getClientRects().length > 0;
		return {
			title: (document.querySelector('h1') as HTMLElement | null)?.innerText.trim() ?? '',
			description: (Array.from(document.querySelectorAll<HTMLElement>('h1 ~ p')).find(visible)?.innerText ?? '').trim(),
			fields,
			placeholders,
			buttons: Array.from(document.querySelectorAll<HTMLElement>('button')).filter(visible).map((button) => button.innerText.trim()),
			height: Math.ceil(document.documentElement.scrollHeight),
		};
	});
}

