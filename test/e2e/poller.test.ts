import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { N8nCli } from '../../scripts/n8n/cli';
import { outputJson } from '../../scripts/n8n/runData';
import { SAMPLES } from '../fixtures';
import type { RemoteSandbox } from '../harness/remoteSandbox';
import { WorkflowBuilder, action, documentFolder, executeOk, noOp, poller, readFiles, sandboxWithCredential, sortByFileName } from './support';

const CREDENTIAL = 'e2ePollerCred';
const OUTPUTS = ['Done', 'Rejected', 'Error', 'Still Processing'] as const;
/**
 * Long enough for the Poller's first reads: it times them by the service's usual completion
 * (about 10 s for one page, 14 s for two), not by the sandbox's fast timing.
 */
const POLLER_TIMEOUT_SECONDS = 16;

/** The Poller's four outputs in one execution: one document for each. */
describe('Document Extraction Poller inside n8n', () => {
	let sandbox: RemoteSandbox;
	let cli: N8nCli;
	let folder: { dir: string; remove: () => void };

	beforeAll(async () => {
		({ sandbox, cli } = await sandboxWithCredential(CREDENTIAL));
		// Uploaded in this (file-name) order; the sandbox's fault queue counts uploads in order.
		folder = await documentFolder({ 'a-done.pdf': 'invoiceEn', 'b-rejected.pdf': 'scanned', 'c-error.pdf': 'invoiceDe', 'd-stuck.pdf': 'invoiceFr' });
	});

	afterAll(async () => {
		folder?.remove();
		await sandbox?.stop();
	});

	it('sends each document to Done, Rejected, Error or Still Processing', async () => {
		await sandbox.faults.enqueue('process', { kind: 'latency', ms: 0 }, 2); // a-done and b-rejected: no fault
		await sandbox.faults.enqueue('process', 'extractionError'); // c-error: processing fails
		await sandbox.faults.enqueue('process', 'neverFinish'); // d-stuck: stays "processing"
		const builder = new WorkflowBuilder('e2ePollerOutputs', 'e2e: poller outputs')
			.add(readFiles('Read Documents', `${folder.dir}/*.pdf`), 'Start')
			.add(sortByFileName('In File-Name Order'), 'Read Documents')
			.add(action('Upload Without Waiting', CREDENTIAL, { resource: 'document', operation: 'extract', waitForResult: false }), 'In File-Name Order')
			.add(poller('Poller', CREDENTIAL, { resultId: '={{ $json.result_id }}', options: { timeout: POLLER_TIMEOUT_SECONDS } }), 'Upload Without Waiting');
		OUTPUTS.forEach((output, index) => builder.add(noOp(output), 'Poller', index));
		const workflow = builder.build();
		await cli.importWorkflows([workflow]);
		const run = await executeOk(cli, workflow.id);

		const uploads = outputJson(run, 'Upload Without Waiting');
		expect(uploads).toHaveLength(4);
		const idOf = (index: number) => uploads[index].result_id;

		const [done, rejected, failed, stuck] = OUTPUTS.map((_, index) => outputJson(run, 'Poller', index));
		expect(done).toHaveLength(1);
		expect(done[0]).toMatchObject({ invoice_number: SAMPLES.invoiceEn.expected!.invoice_number, extraction: { result_id: idOf(0), status: 'done' } });

		expect(rejected).toHaveLength(1);
		expect(rejected[0]).toMatchObject({ result_id: idOf(1), status: 'rejected', error_code: 'NO_TEXT' });

		expect(failed).toHaveLength(1);
		expect(failed[0]).toMatchObject({ result_id: idOf(2), status: 'error' });

		expect(stuck).toHaveLength(1);
		expect(stuck[0]).toMatchObject({ result_id: idOf(3), status: 'processing' });

		// The NoOp nodes behind the outputs received the same items: the wiring a user builds on works.
		expect(outputJson(run, 'Still Processing')).toEqual(stuck);
	});
});
