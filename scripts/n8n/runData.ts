/** The parts of n8n's run data (IRun, as `n8n execute --rawOutput` prints it) the checks read. */
export interface RunItem {
	json: Record<string, unknown>;
	pairedItem?: { item: number } | Array<{ item: number }>;
	binary?: Record<string, { fileName?: string; mimeType?: string; fileExtension?: string; [key: string]: unknown }>;
}

export interface RunError {
	message: string;
	description?: string | null;
	httpCode?: string | null;
	node?: { name?: string };
	[key: string]: unknown;
}

export interface NodeRun {
	data?: { main?: Array<RunItem[] | null> };
	error?: RunError;
	executionStatus?: string;
}

export interface RunData {
	status?: string;
	data: {
		resultData: {
			runData: Record<string, NodeRun[]>;
			error?: RunError;
			lastNodeExecuted?: string;
		};
	};
}

/**
 * n8n prints the run data as indented JSON (`JSON.stringify(data, null, 2)`), on success after
 * its log lines and on failure inside them: the block runs from a line that is just `{` to the
 * next line that is just `}`.
 */
export function parseRunOutput(stdout: string): RunData | undefined {
	const lines = stdout.split('\n');
	const start = lines.findIndex((line) => line === '{');
	if (start < 0) return undefined;
	const end = lines.indexOf('}', start);
	if (end < 0) return undefined;
	try {
		const parsed = JSON.parse(lines.slice(start, end + 1).join('\n')) as RunData;
		return parsed?.data?.resultData ? parsed : undefined;
	} catch {
		return undefined;
	}
}

/** Every run of a node (a node in a loop runs several times). */
export function nodeRuns(run: RunData, nodeName: string): NodeRun[] {
	return run.data.resultData.runData[nodeName] ?? [];
}

/** The items one output of a node sent, over all its runs. */
export function outputItems(run: RunData, nodeName: string, outputIndex = 0): RunItem[] {
	return nodeRuns(run, nodeName).flatMap((nodeRun) => nodeRun.data?.main?.[outputIndex] ?? []);
}

/** The json of `outputItems`. */
export function outputJson(run: RunData, nodeName: string, outputIndex = 0): Array<Record<string, unknown>> {
	return outputItems(run, nodeName, outputIndex).map((item) => item.json);
}

/** The error a node stopped with, as n8n shows it (headline and description). */
export function nodeError(run: RunData, nodeName: string): RunError | undefined {
	return nodeRuns(run, nodeName).find((nodeRun) => nodeRun.error)?.error;
}
