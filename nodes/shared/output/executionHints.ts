import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * A warning shown on the node in the editor (n8n's execution hints): the run goes on, the user
 * is told. Hosts without execution hints (old n8n versions) simply do not show it.
 */
export function addWarning(ctx: IExecuteFunctions, message: string): void {
	if (typeof ctx.addExecutionHints === 'function') ctx.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
}
