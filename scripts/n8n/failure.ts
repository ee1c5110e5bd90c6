import type { Execution } from './cli';

/** What went wrong in an execution, in the words n8n would show: the error and its description, or the end of n8n's output. */
export function describeFailure(execution: Execution): string {
	const error = execution.run?.data.resultData.error;
	if (error) {
		const node = error.node?.name ? ` in node "${error.node.name}"` : '';
		return `the workflow stopped${node}: ${error.message}${error.description ? `\n  ${error.description}` : ''}`;
	}
	const tail = `${execution.stdout}\n${execution.stderr}`.trim().split('\n').slice(-20).join('\n');
	return `n8n did not print run data. Its last output:\n${tail}`;
}
