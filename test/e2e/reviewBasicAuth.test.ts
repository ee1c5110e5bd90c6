/**
 * Issue 43, a person's look behind a password: docs/review.md says that to ask reviewers for a
 * user name and password, set the Review Form's (a Wait node's) Authentication to Basic Auth with a
 * Basic Auth credential. This test does that to the Data Table example
 * (examples/email-invoices-to-data-table.json), as a user does in the editor: the credential
 * created and the node changed through n8n's REST API (what the editor calls), nothing else
 * changed, published in a real n8n, its Email Trigger (IMAP) reading a real mailbox (Dovecot).
 *
 * One email, one invoice whose total does not add up: the execution waits on the form. The link
 * the notify node holds is refused (401, asking for Basic credentials) without a password, with a
 * wrong one, and for a submission without one; with the right user name and password the form is
 * shown, pre-filled, and submitting it lands the invoice's lines with the corrected total and the
 * reviewer's name.
 *
 * The Wait node's parameter is `incomingAuthentication` (values `none`, `basicAuth`; the
 * credential `httpBasicAuth`) in both n8n 1.123 and 2.41 (n8n-nodes-base's Wait.node.ts); its form
 * checks it on every request to the form (`formWebhook`), not on the status the form page polls.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { dovecotMissing, startDovecot, type Mailbox } from '../../scripts/n8n/dovecot';
import { createN8nHome, runEmailExample, type EmailRun } from '../../scripts/n8n/emailExample';
import type { N8nRestApi } from '../../scripts/n8n/restApi';
import { EXAMPLE_CREDENTIAL, loadExample, sandboxCredential } from '../../scripts/n8n/workflows';
import { INVOICES, renderInvoice } from '../fixtures/documents/invoices';
import type { RemoteSandbox } from '../harness/remoteSandbox';
import { skipNotice } from '../harness/skipNotice';
import { DATA_TABLE_NODES, deleteTable, personalProject, rowsOf, setUpAsOnN8n1, tableOf, tablesNamed, unwrap, type Row } from './dataTables';
import { ADD, inputValue, mail, REVIEW_FORM, REVIEWER, reviewer } from './review';
import { e2eOwner, n8n, startE2eSandbox } from './support';

const missing = dovecotMissing();
if (missing && process.env.REQUIRE_DOVECOT === '1') throw new Error(`REQUIRE_DOVECOT is set: ${missing}`);
if (missing) skipNotice(`the review step behind Basic Auth: ${missing.split('\n')[0]}`);

const DOUBTFUL = 'INV-2026-0043.pdf';
const CORRECTED_TOTAL = 1234.56;
/** The credential the user creates; its password drawn for this run. */
const REVIEWERS = { name: 'Invoice reviewers', user: 'reviewer', password: randomBytes(12).toString('base64url') } as const;

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

/** What the editor does: a Basic Auth credential created, the Review Form's Authentication set to it, the workflow saved. */
async function protectReviewForm(api: N8nRestApi, workflowId: string, projectId: string): Promise<{ id: string; name: string }> {
	const created = unwrap(
		await api.json<{ data: { id: string; name: string } }>('POST', '/rest/credentials', {
			name: REVIEWERS.name,
			type: 'httpBasicAuth',
			data: { user: REVIEWERS.user, password: REVIEWERS.password },
			projectId,
		}),
	);
	const credential = { id: String(created.id), name: created.name };
	const saved = unwrap(await api.json<{ data: { versionId: string; nodes: Array<{ name: string; parameters: Record<string, unknown>; credentials?: Record<string, unknown> }> } }>('GET', `/rest/workflows/${workflowId}`));
	const form = saved.nodes.find((node) => node.name === REVIEW_FORM);
	if (!form) throw new Error(`The example has no node named "${REVIEW_FORM}"`);
	const nodes = saved.nodes.map((node) =>
		node === form ? { ...node, parameters: { ...node.parameters, incomingAuthentication: 'basicAuth' }, credentials: { ...node.credentials, httpBasicAuth: credential } } : node,
	);
	await api.json('PATCH', `/rest/workflows/${workflowId}`, { versionId: saved.versionId, nodes });
	return credential;
}

/** What a request to the form was answered. */
interface Refusal {
	status: number;
	challenge: string | null;
	body: string;
}

describe.skipIf(Boolean(missing))('the Data Table example with the Review Form behind Basic Auth', () => {
	const line = n8n().runtime.release.line;
	const example = { ...loadExample('emailToDataTable'), id: 'DocExEmailToDataTableReviewAuth' };
	const tables = { lines: tableOf(example, DATA_TABLE_NODES.createLines), attention: tableOf(example, DATA_TABLE_NODES.createAttention) };
	let sandbox: RemoteSandbox;
	let mailbox: Mailbox;
	let home: string;
	let run: EmailRun;
	let rows: Row[] = [];
	let projectId = '';
	let saved: { parameters: Record<string, unknown>; credentials?: Record<string, unknown> } | undefined;
	const refused: Record<'open' | 'wrongPassword' | 'submit', Refusal | undefined> = { open: undefined, wrongPassword: undefined, submit: undefined };
	const linesTable = async (api: N8nRestApi) => (await tablesNamed(api, projectId, tables.lines.name))[0];
	const answer = async (response: Response): Promise<Refusal> => ({ status: response.status, challenge: response.headers.get('www-authenticate'), body: await response.text() });
	const { reviews, onWaiting } = reviewer({
		rows: async (api) => {
			const table = await linesTable(api);
			return table ? await rowsOf(api, table) : [];
		},
		decide: () => ({ Decision: ADD, Total: String(CORRECTED_TOTAL) }),
		headers: basic(REVIEWERS.user, REVIEWERS.password),
		// Someone who has the link but not the password: opens it, tries a wrong password, posts the form.
		beforeOpening: async (link) => {
			refused.open = await answer(await fetch(link));
			refused.wrongPassword = await answer(await fetch(link, { headers: basic(REVIEWERS.user, 'not-the-password') }));
			const form = new FormData();
			form.append('field-0', 'INV-2026-0043');
			refused.submit = await answer(await fetch(link, { method: 'POST', body: form }));
		},
	});
	let seconds = 0;

	beforeAll(async () => {
		const started = Date.now();
		const fetches = [[mail('Invoice INV-2026-0043 from Brightline Studio', DOUBTFUL, await renderInvoice(INVOICES.invoiceInconsistent), 'Thu, 05 Mar 2026 15:41:00 +0000')]];
		sandbox = await startE2eSandbox({ timing: 'fast' });
		mailbox = await startDovecot(() => undefined);
		home = createN8nHome('n8n-docx-e2e-review-auth-');
		run = await runEmailExample(n8n(), {
			workflow: example,
			mailbox,
			credentials: [sandboxCredential(sandbox.baseUrl, sandbox.demoKey, EXAMPLE_CREDENTIAL)],
			log: () => undefined,
			fetches,
			home,
			owner: e2eOwner(),
			onWaiting,
			beforeActivate: async (api) => {
				projectId = await personalProject(api);
				for (const spec of [tables.lines, tables.attention]) for (const table of await tablesNamed(api, projectId, spec.name)) await deleteTable(api, table);
				if (line === '1') await setUpAsOnN8n1(api, projectId, example.id, tables);
				await protectReviewForm(api, example.id, projectId);
				const workflow = unwrap(await api.json<{ data: { nodes: Array<{ name: string; parameters: Record<string, unknown>; credentials?: Record<string, unknown> }> } }>('GET', `/rest/workflows/${example.id}`));
				saved = workflow.nodes.find((node) => node.name === REVIEW_FORM);
			},
			afterRuns: async (api) => {
				const table = await linesTable(api);
				rows = table ? await rowsOf(api, table) : [];
				for (const spec of [tables.lines, tables.attention]) for (const found of await tablesNamed(api, projectId, spec.name)) await deleteTable(api, found);
			},
		});
		seconds = Math.round((Date.now() - started) / 1000);
		process.stdout.write(`[review, Basic Auth] n8n ${line}: the mail, the form and the rows took ${seconds} s\n`);
	});

	afterAll(async () => {
		await mailbox?.stop();
		await sandbox?.stop();
		if (home) rmSync(home, { recursive: true, force: true });
	});

	it('n8n saved the Review Form with Basic Auth and the credential, as the editor does', () => {
		expect(saved?.parameters).toMatchObject({ resume: 'form', incomingAuthentication: 'basicAuth' });
		expect(saved?.credentials).toMatchObject({ httpBasicAuth: { name: REVIEWERS.name } });
	});

	it('without the password the link is refused (401, asking for Basic credentials), with a wrong one too, and a form posted without it is not taken', () => {
		expect(reviews).toHaveLength(1);
		for (const refusal of [refused.open, refused.wrongPassword, refused.submit]) {
			expect(refusal?.status).toBe(401);
			expect(refusal?.challenge).toMatch(/^Basic /);
			expect(refusal?.body).not.toContain('INV-2026-0043');
		}
	});

	it('with the user name and password the form is shown, pre-filled, and the submission is taken', () => {
		const [review] = reviews;
		expect(review.executionId).toBe(run.executions[0].id);
		expect(inputValue(review.page, 'field-0')).toBe('INV-2026-0043');
		expect(Number(inputValue(review.page, 'field-3'))).toBe(INVOICES.invoiceInconsistent.truth.total);
		expect(review.page).toContain('low confidence');
		expect(review.rowsBefore.filter((row) => row.file_name === DOUBTFUL)).toEqual([]);
		expect(review.answer).toBe(200);
	});

	it('the submitted form lands the invoice\'s lines with the corrected total and the reviewer\'s name', () => {
		expect(run.executions.map((execution) => execution.status)).toEqual(['success']);
		expect(rows.map((row) => row.line_number)).toEqual(INVOICES.invoiceInconsistent.truth.line_items.map((_, n) => n + 1));
		for (const row of rows) expect(row).toMatchObject({ file_name: DOUBTFUL, invoice_number: 'INV-2026-0043', invoice_total: CORRECTED_TOTAL, reviewed_by: REVIEWER });
		expect(seconds, 'the test\'s run time').toBeLessThan(120);
	});
});
