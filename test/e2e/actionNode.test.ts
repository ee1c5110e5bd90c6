import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { N8nCli } from '../../scripts/n8n/cli';
import { outputJson } from '../../scripts/n8n/runData';
import { findTemplate } from '../../scripts/n8n/workflows';
import { SAMPLES } from '../fixtures';
import type { RemoteSandbox } from '../harness/remoteSandbox';
import { WorkflowBuilder, action, documentFolder, executeOk, readFiles, sandboxWithCredential, templateById } from './support';

const CREDENTIAL = 'e2eActionCred';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const invoice = SAMPLES.invoiceEn.expected as { invoice_number: string; total: number; line_items: Array<{ description: string }> };

/** Every operation of the Document Extraction node, run by n8n from the installed tarball. */
describe('Document Extraction node inside n8n', () => {
	let sandbox: RemoteSandbox;
	let cli: N8nCli;
	let folder: { dir: string; remove: () => void };

	beforeAll(async () => {
		({ sandbox, cli } = await sandboxWithCredential(CREDENTIAL));
		folder = await documentFolder({ 'invoice.pdf': 'invoiceEn' });
	});

	afterAll(async () => {
		folder?.remove();
		await sandbox?.stop();
	});

	it('extracts a document (auto-detect and with a template), uploads without waiting and reads the result', async () => {
		const invoiceTemplate = await findTemplate(sandbox.baseUrl, sandbox.demoKey, 'Invoice');
		const workflow = new WorkflowBuilder('e2eDocumentOps', 'e2e: document operations')
			.add(readFiles('Read Invoice', join(folder.dir, 'invoice.pdf')), 'Start')
			.add(action('Extract Auto', CREDENTIAL, { resource: 'document', operation: 'extract', options: { includeConfidence: true } }), 'Read Invoice')
			.add(
				action('Extract with Template', CREDENTIAL, {
					resource: 'document',
					operation: 'extractWithTemplate',
					templateId: templateById(invoiceTemplate.id),
					output: 'tableRows',
				}),
				'Read Invoice',
			)
			.add(action('Upload Only', CREDENTIAL, { resource: 'document', operation: 'extract', waitForResult: false }), 'Read Invoice')
			.add({ name: 'Pause', type: 'n8n-nodes-base.wait', typeVersion: 1.1, parameters: { resume: 'timeInterval', amount: 2, unit: 'seconds' }, webhookId: 'e2e-pause' }, 'Upload Only')
			.add(action('Get Result', CREDENTIAL, { resource: 'document', operation: 'getResult' }), 'Pause')
			.build();
		await cli.importWorkflows([workflow]);
		const run = await executeOk(cli, workflow.id);

		const [auto] = outputJson(run, 'Extract Auto');
		expect(auto.invoice_number).toBe(invoice.invoice_number);
		expect(auto.total).toBe(invoice.total);
		expect(auto.extraction).toMatchObject({ status: 'done', template: { name: 'Invoice' }, file_name: 'invoice.pdf' });
		expect(auto.field_confidence).toEqual(expect.objectContaining({ invoice_number: expect.any(Number) }));

		const rows = outputJson(run, 'Extract with Template');
		expect(rows.map((row) => row.description)).toEqual(invoice.line_items.map((line) => line.description));
		expect(rows.every((row) => row.invoice_number === invoice.invoice_number)).toBe(true);
		expect(rows.map((row) => row.line_number)).toEqual(invoice.line_items.map((_, i) => i + 1));

		const [receipt] = outputJson(run, 'Upload Only');
		expect(receipt.result_id).toMatch(UUID);
		expect(receipt.tokens_required).toBe(1);

		const [read] = outputJson(run, 'Get Result');
		expect(read.invoice_number).toBe(invoice.invoice_number);
		expect(read.extraction).toMatchObject({ result_id: receipt.result_id, status: 'done' });

		expect((await sandbox.stats()).uploads.map((upload) => upload.endpoint).sort()).toEqual(['process', 'process', 'upload']);
	});

	it('creates, updates, reads, lists and deletes a template', async () => {
		const fields = [
			{ name: 'slip_number', type: 'string', required: true },
			{ name: 'items', type: 'table', item_fields: [{ name: 'article', type: 'string' }, { name: 'quantity', type: 'number' }] },
		];
		const newFields = [{ name: 'slip_number', type: 'string', required: true }, { name: 'delivered_on', type: 'date' }];
		const byPreviousId = templateById('={{ $json.scanner_id }}');
		const workflow = new WorkflowBuilder('e2eTemplateOps', 'e2e: template operations')
			.add(
				action('Create Template', CREDENTIAL, {
					resource: 'template',
					operation: 'create',
					name: 'E2E delivery slip',
					description: 'Delivery slips of the e2e test',
					fieldsDefinedAs: 'json',
					fieldsJson: JSON.stringify(fields),
				}),
				'Start',
			)
			.add(
				action('Update Template', CREDENTIAL, {
					resource: 'template',
					operation: 'update',
					templateId: byPreviousId,
					nameAndDescription: { name: 'E2E delivery slip v2' },
					replaceFields: true,
					fieldsDefinedAs: 'json',
					fieldsJson: JSON.stringify(newFields),
				}),
				'Create Template',
			)
			.add(action('Get Template', CREDENTIAL, { resource: 'template', operation: 'get', templateId: byPreviousId }), 'Update Template')
			.add(action('List Templates', CREDENTIAL, { resource: 'template', operation: 'getMany', returnAll: true }), 'Get Template')
			.add(
				action(
					'Delete Template',
					CREDENTIAL,
					{ resource: 'template', operation: 'delete', templateId: templateById("={{ $('Create Template').first().json.scanner_id }}") },
					{ executeOnce: true },
				),
				'List Templates',
			)
			.add(action('List After Delete', CREDENTIAL, { resource: 'template', operation: 'getMany', returnAll: false, limit: 50 }), 'Delete Template')
			.build();
		await cli.importWorkflows([workflow]);
		const run = await executeOk(cli, workflow.id);

		const [created] = outputJson(run, 'Create Template');
		expect(created.scanner_id).toMatch(UUID);
		expect(created).toMatchObject({ name: 'E2E delivery slip', fields: [{ name: 'slip_number' }, { name: 'items', item_fields: [{ name: 'article' }, { name: 'quantity' }] }] });

		const [updated] = outputJson(run, 'Update Template');
		expect(updated).toMatchObject({ scanner_id: created.scanner_id, name: 'E2E delivery slip v2', description: 'Delivery slips of the e2e test' });
		expect((updated.fields as Array<{ name: string }>).map((field) => field.name)).toEqual(['slip_number', 'delivered_on']);

		const [read] = outputJson(run, 'Get Template');
		expect(read).toMatchObject({ scanner_id: created.scanner_id, name: 'E2E delivery slip v2' });

		const listed = outputJson(run, 'List Templates').map((template) => template.name);
		expect(listed).toContain('E2E delivery slip v2');
		expect(listed).toContain('Invoice');
		expect(listed).toHaveLength(9); // the 8 ready-made ones and the new one

		expect(outputJson(run, 'Delete Template')).toHaveLength(1);
		const remaining = outputJson(run, 'List After Delete').map((template) => template.scanner_id);
		expect(remaining).toHaveLength(8);
		expect(remaining).not.toContain(created.scanner_id);
	});
});
