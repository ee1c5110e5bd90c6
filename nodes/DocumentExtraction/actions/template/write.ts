import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { accountOf, mayHaveBeenApplied } from '../../../shared/http/transport';
import { runIndexOf, SentLedger } from '../../../shared/http/sentLedger';
import { forgetTemplate } from '../../../shared/http/uploadReceipts';
import { itemError } from '../../../shared/items/itemError';
import { REUSE_DAYS } from '../../../shared/limits';
import type { ItemSink } from '../../../shared/output/itemSink';
import type { BatchOperation } from '../node.type';

/** One item's template change, checked and ready to send. */
export interface TemplateWrite {
	/** What the user reads in errors: `created template "Invoice"`. */
	done: string;
	/** Identifies the change (with the item and run): the same change is never sent twice. */
	identity: unknown[];
	/** The template this change alters (Update, Delete): uploads made with it read out-of-date results. */
	changesTemplate?: string;
	send(): Promise<IDataObject>;
}

/**
 * Create, Update and Delete: every item is read and checked before the first write, so a bad item
 * under On Error = Stop stops the node with nothing sent. Then each change is sent once: a change
 * the service applied is remembered (per account, workflow, node, run, item and content) and its
 * answer output again, not re-sent, when Retry On Fail runs the node again in the same execution
 * or n8n's Retry of a failed execution runs it in a new one. Only a run of the node that failed
 * keeps what it changed: a run that ended well is never run again by a Retry, so a later
 * execution that makes the same change (e.g. creates, uses and deletes a template each time) makes
 * it anew. A change that got no clear answer is not sent again by that execution.
 */
export function templateWrite(prepare: (ctx: IExecuteFunctions, itemIndex: number) => TemplateWrite | Promise<TemplateWrite>): BatchOperation {
	return {
		async executeAll(this: IExecuteFunctions, sink: ItemSink): Promise<void> {
			const prepared: Array<{ itemIndex: number; write: TemplateWrite }> = [];
			for (let i = 0; i < this.getInputData().length; i++) {
				try {
					prepared.push({ itemIndex: i, write: await prepare(this, i) });
				} catch (error) {
					sink.fail(i, error);
				}
			}
			// A credential that cannot be used fails each item where it is sent, saying why.
			const account = await accountOf(this).catch(() => '');
			const written: string[] = [];
			const applied: string[] = [];
			for (const [position, { itemIndex, write }] of prepared.entries()) {
				const key = changeKey(this, account, itemIndex, write);
				written.push(key);
				try {
					sink.emit(itemIndex, [await writeOnce(this, itemIndex, key, write)]);
					applied.push(`- item ${itemIndex + 1}: ${write.done}`);
				} catch (error) {
					if (!this.continueOnFail()) describeStop(error, applied, prepared.slice(position + 1).map((entry) => entry.itemIndex));
					sink.fail(itemIndex, error);
				}
			}
			// Reached only when the run did not fail: no Retry will run it again. What other executions
			// keep (a failed one's changes, for its Retry) stays.
			const executionId = this.getExecutionId?.() ?? '';
			for (const key of written) ledger.delete(entryKey(key, executionId));
		},
	};
}

/**
 * At most this much of the changes' answers is kept (they are output again by a Retry). An entry
 * is the change's and the execution's that sent it: another execution making the same change
 * neither overwrites nor takes away what a failed one keeps for its Retry.
 */
const ledger = new SentLedger<IDataObject>({ maxBytes: 20_000_000 });

function changeKey(ctx: IExecuteFunctions, account: string, itemIndex: number, write: TemplateWrite): string {
	const change = createHash('sha256').update(JSON.stringify(write.identity)).digest('hex');
	return JSON.stringify([account, ctx.getWorkflow().id ?? '', ctx.getNode().id, runIndexOf(ctx), itemIndex, change]);
}

function entryKey(changeKey: string, executionId: string): string {
	return JSON.stringify([changeKey, executionId]);
}

async function writeOnce(ctx: IExecuteFunctions, itemIndex: number, key: string, write: TemplateWrite): Promise<IDataObject> {
	const executionId = ctx.getExecutionId?.() ?? '';
	// Retry On Fail: this execution's earlier try.
	const own = executionId === '' ? undefined : ledger.get(entryKey(key, executionId));
	if (own?.kind === 'accepted') return own.answer;
	if (own?.kind === 'uncertain') {
		throw itemError(
			ctx.getNode(),
			itemIndex,
			'an earlier try of this execution sent this change and got no clear answer',
			`The earlier try ended with: ${own.message.replace(/\.?$/, '.')} The change was not sent again: check the template with Get Template or Get Many.`,
		);
	}
	// n8n's Retry of a failed execution re-runs the failed node with the same input, in a new
	// execution: the failed one's applied change is what it kept.
	const kept = ctx.getMode() === 'retry' ? ledger.find((entry, entryKeyOf) => entry.kind === 'accepted' && (JSON.parse(entryKeyOf) as string[])[0] === key) : undefined;
	if (kept?.kind === 'accepted') return kept.answer;
	const outcome = await write.send().then(
		(answer) => ({ answer }),
		(error: unknown) => ({ error }),
	);
	if ('answer' in outcome) {
		ledger.set(entryKey(key, executionId), { kind: 'accepted', answer: outcome.answer, executionId });
		if (write.changesTemplate) forgetTemplate(write.changesTemplate);
		return outcome.answer;
	}
	if (mayHaveBeenApplied(outcome.error)) ledger.set(entryKey(key, executionId), { kind: 'uncertain', message: (outcome.error as Error).message, executionId });
	throw outcome.error;
}

/** Under Stop, the error says what this run changed and what it did not send. */
function describeStop(error: unknown, applied: string[], notSent: number[]): void {
	if (!(error instanceof Error) || (applied.length === 0 && notSent.length === 0)) return;
	const withDescription = error as Error & { description?: string | null };
	const parts = [withDescription.description ?? ''];
	if (applied.length > 0) {
		parts.push(
			`Applied before this error (Retry On Fail, and n8n's Retry of this execution in this n8n process within ${REUSE_DAYS} days, do not send them again):\n${applied.join('\n')}`,
		);
	}
	if (notSent.length > 0) parts.push(`Not sent: item${notSent.length === 1 ? '' : 's'} ${notSent.map((i) => i + 1).join(', ')}.`);
	withDescription.description = parts.filter(Boolean).join('\n\n');
}
