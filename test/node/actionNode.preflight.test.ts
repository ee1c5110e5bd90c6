/**
 * Preflight through the action node (spec 4.2, 7.2, 8): a file the service would refuse fails
 * its item with a message that names the item and what to do, and NO request is sent (so no
 * page of quota is spent). Uses the sample documents of test/fixtures.
 */
import type { INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { binaryItem } from '../harness/engine';
import { loadFixture, type FixtureName } from '../fixtures';
import nock from 'nock';

import { BASE, answer, expectPairedItems, multipartParts, resultId, runAction, trapAllRequests, uploadAccepted, useNock, type SeenRequest } from './actionNode.support';

useNock();

const extract = { resource: 'document', operation: 'extract' };
const extractWithTemplate = { resource: 'document', operation: 'extractWithTemplate', templateId: { __rl: true, mode: 'id', value: 'scn_invoice' } };

async function fixtureItem(name: FixtureName): Promise<INodeExecutionData> {
	const fixture = await loadFixture(name);
	return binaryItem(fixture.bytes, fixture.fileName, fixture.mimeType);
}

/** [fixture, the headline the user reads (after "Item 1 (<file>): "), what the description tells them to do]. */
const refusals: Array<[FixtureName, string, RegExp]> = [
	['empty', 'The file is empty (0 bytes)', /download or export probably failed/],
	['textAsPdf', 'The file is a text file even though its name or type says PDF; the service accepts only PDF, JPEG or PNG files', /Export or print the document to PDF/],
	['oversize', 'The file is 4.5 MB; the service accepts files up to about 4.4 MB', /Compress the PDF.*or set Options → Split PDFs/],
	['pages51', 'The PDF has 51 pages; the service accepts at most 50 pages per document', /Split the PDF into parts of at most 50 pages/],
	['encrypted', 'The PDF is protected by a password that is needed to open it, so its text cannot be read', /Remove the password/],
	['corrupt', 'The PDF file is damaged or incomplete', /Download or export the PDF again/],
];

describe('a file the service would refuse', () => {
	it.each(refusals)('%s: fails the item, names it, and sends nothing', async (name, headline, advice) => {
		const fixture = await loadFixture(name);
		const unexpected = trapAllRequests();
		const { error, outputs } = await runAction(extract, [await fixtureItem(name)]);
		expect(error?.message.startsWith(`Item 1 (${fixture.fileName}): ${headline}`)).toBe(true);
		const description = (error as unknown as { description: string }).description;
		expect(description).toMatch(advice);
		expect(description).toMatch(/Nothing was sent to the service and no page was used\.$/);
		expect(outputs).toEqual([]);
		expect(unexpected).toEqual([]);
	});

	it.each([
		['webp', 'photo.jpg', 'image/jpeg', 'photo.webp', 'image/webp', /is a WebP image, which the service does not guarantee to read/],
		['heic', 'IMG_0001.HEIC', 'image/heic', 'IMG_0001.HEIC', 'image/heic', /is a HEIC\/HEIF image \(the iPhone photo format\)/],
	] as const)('%s is sent (spec 4.2: "not guaranteed readable"), with its real type and a warning on the node', async (name, fileName, mimeType, sentName, sentType, warning) => {
		const fixture = await loadFixture(name);
		const uploads: SeenRequest[] = [];
		answer(nock(BASE).post('/api/v1/process'), uploads, [202, uploadAccepted(resultId(1))]);
		const unexpected = trapAllRequests();
		const { error, outputs, hints } = await runAction({ ...extract, waitForResult: false }, [binaryItem(fixture.bytes, fileName, mimeType)]);
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(1);
		const [part] = multipartParts(uploads[0]);
		expect(part).toMatchObject({ filename: sentName, contentType: sentType });
		expect(part.data.equals(Buffer.from(fixture.bytes))).toBe(true);
		expect(hints).toEqual([expect.stringMatching(warning)]);
		expect(hints[0]).toMatch(/^Item 1 \(.*\): The file .* If the service rejects it \(NO_TEXT\), convert it to JPEG or PNG and send it again\.$/);
		expect(unexpected).toEqual([]);
	});

	it('the same checks guard Extract with Template', async () => {
		const unexpected = trapAllRequests();
		const { error } = await runAction(extractWithTemplate, [await fixtureItem('pages51')]);
		expect(error?.message).toBe('Item 1 (appendix-51-pages.pdf): The PDF has 51 pages; the service accepts at most 50 pages per document');
		expect(unexpected).toEqual([]);
	});

	it('under continueOnFail each refused item leaves once, naming its own number, and nothing is sent', async () => {
		const unexpected = trapAllRequests();
		const names = refusals.map(([name]) => name);
		const input = await Promise.all(names.map(fixtureItem));
		const { error, outputs } = await runAction(extract, input, { continueOnFail: true });
		expect(error).toBeUndefined();
		expectPairedItems(outputs[0], names.map((_, i) => i));
		for (const out of outputs[0]) {
			const item = (out.pairedItem as { item: number }).item;
			const fixture = await loadFixture(names[item]);
			expect(String(out.json.error).startsWith(`Item ${item + 1} (${fixture.fileName}): ${refusals[item][1]}`)).toBe(true);
		}
		expect(unexpected).toEqual([]);
	});
});

describe('a missing binary property', () => {
	it('lists the binary properties the item has', async () => {
		const unexpected = trapAllRequests();
		const item = await fixtureItem('invoiceEn');
		item.binary = { attachment_0: item.binary!.data, attachment_1: item.binary!.data };
		const { error } = await runAction(extract, [item]);
		expect(error?.message).toBe('Item 1 has no binary property "data"');
		expect((error as unknown as { description: string }).description).toMatch(/^Set "Input Binary Field" to one of the item's binary properties: "attachment_0", "attachment_1"\./);
		expect(unexpected).toEqual([]);
	});

	it('says when the item carries no file at all, naming the item', async () => {
		const unexpected = trapAllRequests();
		const { error } = await runAction({ ...extract, binaryPropertyName: 'invoice' }, [await fixtureItem('invoiceEn'), { json: { subject: 'no attachment' } }]);
		expect(error?.message).toBe('Item 1 has no binary property "invoice"');
		const second = await runAction(extract, [{ json: {} }]);
		expect(second.error?.message).toBe('Item 1 has no binary property "data"');
		expect((second.error as unknown as { description: string }).description).toMatch(/^The item carries no file at all\./);
		expect(unexpected).toEqual([]);
	});

	it('says when the binary property has a name and a type but no file data', async () => {
		const unexpected = trapAllRequests();
		const { error } = await runAction(extract, [{ json: {}, binary: { data: { mimeType: 'application/pdf', fileName: 'invoice.pdf' } as never } }]);
		expect(error?.message).toBe('Item 1: the binary property "data" holds no file');
		expect(unexpected).toEqual([]);
	});
});
