/**
 * A template ID typed into By ID that cannot be one stops the run before anything is sent: n8n's
 * engine checks the node's parameters (the resource locator's validation included) first.
 */
import { describe, expect, it } from 'vitest';

import { runAction, trapAllRequests, useNock } from './actionNode.support';

useNock();

describe('Template > By ID at run time', () => {
	it('refuses a template name typed in as an ID, without a request', async () => {
		const unexpected = trapAllRequests();
		await expect(runAction({ resource: 'template', operation: 'get', templateId: { __rl: true, mode: 'id', value: 'Supplier invoice' } }, [{ json: {} }])).rejects.toThrow(
			/node has issues:\n- .*Not a template ID/,
		);
		expect(unexpected).toEqual([]);
	});
});
