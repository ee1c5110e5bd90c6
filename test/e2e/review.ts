/**
 * The review step of the Data Table example (issue 43) as its end-to-end tests drive it
 * (reviewExample.test.ts, reviewBasicAuth.test.ts): the sample emails, and the reviewer, who opens
 * the link the notify node holds and submits the form over HTTP as a browser does.
 */
import type { N8nRestApi, SavedExecution } from '../../scripts/n8n/restApi';
import { nodeRuns, outputItems, type RunData } from '../../scripts/n8n/runData';
import { emailWithAttachment, type SampleEmail } from '../../scripts/n8n/sampleEmails';
import type { Row } from './dataTables';

export const SEND_LINK = 'Send Review Link (replace with Gmail/Outlook/Slack)';
export const REVIEW_FORM = 'Review Form';
/** The form's fields, in the example's order: the browser posts them as `field-<index>`. */
export const FIELDS = ['Invoice number', 'Supplier', 'Invoice date', 'Total', 'Currency', 'Decision', 'Reviewed by', 'result_id'] as const;
export type FieldLabel = (typeof FIELDS)[number];
export const ADD = 'Add its lines to the table';
export const SKIP = 'Do not add it (a duplicate, or not to be paid)';
export const REVIEWER = 'Dana Whitfield';
export const BRIGHTLINE = 'Brightline Studio Billing <billing@brightline.example>';

/** An email from Brightline with one PDF attached. */
export function mail(subject: string, fileName: string, bytes: Uint8Array, date: string): SampleEmail {
	const files = { [fileName]: Buffer.from(bytes) };
	return {
		subject,
		from: BRIGHTLINE,
		documents: [fileName],
		notDocuments: [],
		unreadable: {},
		repeated: [],
		files,
		message: emailWithAttachment({ from: BRIGHTLINE, subject, date }, 'Hello,\r\n\r\nPlease find the invoice attached.\r\n', { bytes: files[fileName], contentType: 'application/pdf', fileName }),
	};
}

/** The value of an input of the form page (`name="field-<n>"`), as the browser would post it. */
export function inputValue(page: string, name: string): string | undefined {
	const tag = new RegExp(`<input[^>]*name=["']${name}["'][^>]*>`, 'i').exec(page)?.[0];
	return tag ? /value=["']([^"']*)["']/i.exec(tag)?.[1] : undefined;
}

/** What the reviewer saw while the execution waited, and what they submitted. */
export interface Review {
	executionId: string;
	/** The notify node's item: the document's values, `review_link`, `review_reasons`. */
	item: Record<string, unknown>;
	link: string;
	page: string;
	/** The lines table's rows while the form waited. */
	rowsBefore: Row[];
	submitted: Record<string, string>;
	/** The status n8n answered the submission with. */
	answer: number;
}

export interface ReviewerOptions {
	/** The rows of the lines table right now (what was written before the form was submitted). */
	rows: (api: N8nRestApi) => Promise<Row[]>;
	/** What the reviewer changes on the pre-filled form for this document (besides `Reviewed by`). */
	decide: (item: Record<string, unknown>) => Partial<Record<FieldLabel, string>>;
	/** Headers the browser sends with every request to the form (a Basic Auth header once the reviewer typed the password). */
	headers?: Record<string, string>;
	/** Called before the form is opened: what else to try while it waits (a request without the password, say). */
	beforeOpening?: (link: string, item: Record<string, unknown>) => Promise<void>;
}

/**
 * The reviewer, as `runEmailExample`'s `onWaiting`: once per wait of an execution on the Review
 * Form, opens the link the notify node holds and submits the form as a browser posts it
 * (multipart/form-data, `field-<n>`), pre-filled values unchanged but what `decide` says.
 */
export function reviewer(options: ReviewerOptions): { reviews: Review[]; onWaiting: (api: N8nRestApi, execution: SavedExecution) => Promise<void> } {
	const reviews: Review[] = [];
	const handled = new Set<string>();
	const onWaiting = async (api: N8nRestApi, execution: SavedExecution) => {
		const data = { data: execution.data } as RunData;
		const sent = nodeRuns(data, SEND_LINK).length;
		const key = `${execution.id}/${sent}`;
		if (sent === 0 || handled.has(key)) return;
		const item = outputItems(data, SEND_LINK).at(-1)?.json as Record<string, unknown>;
		const link = String(item.review_link);
		// What the form page's script asks before it shows the form (it needs no password).
		const status = await (await fetch(`${link.replace(/\?.*$/, '')}/n8n-execution-status${/\?.*$/.exec(link)?.[0] ?? ''}`)).text();
		if (status !== 'form-waiting') return;
		handled.add(key);
		await options.beforeOpening?.(link, item);
		const page = await (await fetch(link, { headers: options.headers })).text();
		const rowsBefore = await options.rows(api);
		const submitted: Record<string, string> = {};
		FIELDS.forEach((label, index) => (submitted[label] = inputValue(page, `field-${index}`) ?? ''));
		Object.assign(submitted, options.decide(item), { 'Reviewed by': REVIEWER });
		const form = new FormData();
		FIELDS.forEach((label, index) => form.append(`field-${index}`, submitted[label]));
		const answer = (await fetch(link, { method: 'POST', body: form, headers: options.headers })).status;
		reviews.push({ executionId: execution.id, item, link, page, rowsBefore, submitted, answer });
	};
	return { reviews, onWaiting };
}
