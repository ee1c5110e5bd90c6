import type { WorkflowJson } from '../../scripts/n8n/cli';
import { EMAIL_NODES } from '../../scripts/n8n/emailExample';
import { loadExample } from '../../scripts/n8n/workflows';

/** The nodes of the shipped Data Table example that take a doubtful invoice to the reviewer's form, copied as they are. */
export const REVIEW_NODES = {
	needsALook: 'Needs a Look?',
	onePerDocument: 'One Review per Document',
	oneAtATime: 'One at a Time',
	sendLink: 'Send Review Link (replace with Gmail/Outlook/Slack)',
	form: 'Review Form',
} as const;

const COPIED: string[] = [EMAIL_NODES.extract, EMAIL_NODES.sort, ...Object.values(REVIEW_NODES)];

/** The path of the webhook that hands the workflow an "email" (what the Email Trigger does in the example). */
export const REVIEW_WEBHOOK_PATH = 'docex-review-form-picture';

type Connections = Record<string, { main: Array<Array<{ node: string; type: string; index: number }>> }>;

/**
 * The review branch of `examples/email-invoices-to-data-table.json`, as shipped, behind a stand-in
 * for the mailbox: a Webhook (the email arrives), Read/Write Files from Disk (its attachment, as
 * `attachment_0` like the Email Trigger names it) and a Set node (the email's `from`, `subject` and
 * `date`). From there the example's own nodes, parameters and wiring: Extract Invoice Lines (the
 * sandbox reads the PDF), Sort Results, Needs a Look?, One Review per Document, One at a Time, Send
 * Review Link and Review Form. The table nodes are left out: the form is the same without them, and
 * the editor suite needs no mail server or data tables for it. `attachmentPath` is read by n8n
 * (relative to its home, inside `~/.n8n-files` on n8n 2.x).
 */
export function reviewFormWorkflow(attachmentPath: string, email: { from: string; subject: string; date: string }): WorkflowJson {
	const example = loadExample('emailToDataTable');
	const nodes = COPIED.map((name) => {
		const node = example.nodes.find((candidate) => candidate.name === name);
		if (!node) throw new Error(`The Data Table example has no node named "${name}"`);
		return structuredClone(node);
	});
	const exampleConnections = example.connections as Connections;
	const connections: Connections = {};
	// The example's own wiring between the copied nodes (outputs to nodes left out stay empty).
	for (const name of COPIED) {
		const outputs = exampleConnections[name]?.main;
		if (outputs) connections[name] = { main: outputs.map((targets) => targets.filter((target) => COPIED.includes(target.node))) };
	}
	const extract = nodes[0];
	const [x, y] = extract.position as [number, number];
	nodes.push(
		{
			id: 'review-picture-webhook',
			name: 'An Email Arrives',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [x - 660, y],
			webhookId: '3f6d2a91-7c4e-4b58-9e1a-5c0d8b2e4f17',
			parameters: { httpMethod: 'POST', path: REVIEW_WEBHOOK_PATH, responseMode: 'onReceived', options: {} },
		},
		{
			id: 'review-picture-read',
			name: 'Its Attachment',
			type: 'n8n-nodes-base.readWriteFile',
			typeVersion: 1,
			position: [x - 440, y],
			parameters: { operation: 'read', fileSelector: attachmentPath, options: { dataPropertyName: 'attachment_0' } },
		},
		{
			id: 'review-picture-email',
			name: 'The Email',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [x - 220, y],
			parameters: {
				assignments: {
					assignments: Object.entries(email).map(([name, value], index) => ({ id: `review-picture-email-${index}`, name, value, type: 'string' })),
				},
				includeOtherFields: true,
				options: {},
			},
		},
	);
	connections['An Email Arrives'] = { main: [[{ node: 'Its Attachment', type: 'main', index: 0 }]] };
	connections['Its Attachment'] = { main: [[{ node: 'The Email', type: 'main', index: 0 }]] };
	connections['The Email'] = { main: [[{ node: EMAIL_NODES.extract, type: 'main', index: 0 }]] };
	return {
		id: 'DocExReviewFormPicture',
		name: 'Review form (the Data Table example\'s review branch)',
		nodes,
		connections,
		settings: example.settings,
		active: false,
	};
}
