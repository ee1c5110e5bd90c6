import type { Check, KeyWindow, PendingRead, ScaleFigures } from './checks';
import type { CollectedItem } from './collector';
import type { CrashReport } from './crash';
import type { BatchRun } from './driver';

/** What one worker did, from its own log ("Worker started execution N") and the collector. */
export interface WorkerActivity {
	name: string;
	executions: string[];
	killed: boolean;
}

export function workerActivity(name: string, log: string, killed: boolean): WorkerActivity {
	return { name, executions: [...log.matchAll(/Worker started execution (\S+) /g)].map((match) => match[1]), killed };
}

export function renderTable(headers: string[], rows: string[][]): string {
	const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column].length)));
	const render = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
	return [render(headers), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(render)].join('\n');
}

export function workersTable(workers: WorkerActivity[], collected: CollectedItem[], runs: BatchRun[]): string {
	const rows = workers.map((worker) => {
		const mine = new Set(worker.executions);
		const items = collected.filter((item) => mine.has(item.execution));
		const modes = (mode: string) => new Set(items.filter((item) => item.mode === mode).map((item) => item.execution)).size;
		return [
			`${worker.name}${worker.killed ? ' (killed)' : ''}`,
			String(worker.executions.length),
			`${modes('wait')} / ${modes('poller')}`,
			String(items.length),
		];
	});
	const failed = runs.filter((run) => run.status !== 200).length;
	const table = renderTable(['worker', 'executions started', 'with output: Wait for Result / Poller', 'items out'], rows);
	return `${table}\nWebhook calls answered 200 (execution finished): ${runs.length - failed}/${runs.length}`;
}

export function figuresTable(figures: ScaleFigures, crash: CrashReport | undefined, loadDocs: number, crashTried: boolean): string {
	const share = (part: number, whole: number) => (whole === 0 ? '0.00' : ((part / whole) * 100).toFixed(2));
	const windowSeconds = (figures.window.endsAt - figures.window.startsAt) / 1000;
	const rows: string[][] = [
		['documents', `${figures.docs} (${loadDocs} in the load run${crashTried ? `, ${figures.docs - loadDocs} in the killed worker's batch` : ''})`, ''],
		['came out exactly once, on the right output', String(figures.deliveredOnce), 'all'],
		['lost / delivered twice / wrong output', `${figures.lost} / ${figures.duplicateOutputs} / ${figures.wrongOutput}`, '0 / 0 / 0'],
		['uploads received twice', String(figures.duplicateUploads), '0'],
		['requests (all endpoints)', `${figures.requests} (${(figures.requests / Math.max(1, figures.docs)).toFixed(2)} per document)`, ''],
		['HTTP 429', `${figures.http429} (${share(figures.http429, figures.requests)} %)`, '<= 1 %'],
		[
			'documents/min, pipeline full',
			`${figures.docsPerMin.toFixed(1)} (${share(figures.docsPerMin, figures.boundDocsPerMin)} % of ${figures.boundDocsPerMin}; ${figures.window.uploads} uploads + ${figures.window.completed} finished in ${windowSeconds.toFixed(0)} s)`,
			'>= 85 %',
		],
	];
	if (crash) {
		rows.push([
			'killed worker',
			`${crash.worker} killed in execution ${crash.executionId}: ${crash.receiptsStored}/${crash.accepted} receipts stored; n8n ended it after ${crash.endedAfterSeconds.toFixed(0)} s as ${crash.endedAs.join(' → ')} (${crash.receiptsKept} receipts left in its data); ` +
				`Retry: ${'refused' in crash.retry ? 'refused' : `${crash.retry.status}, ${crash.retry.uploads} uploads`}; finished by ${crash.finishedBy} ${crash.recoverySeconds.toFixed(0)} s after the kill`,
			'nothing lost',
		]);
	}
	return renderTable(['figure', 'value', 'target'], rows);
}

export function checksList(checks: Check[]): string {
	return checks.map((check) => `${check.ok ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}`).join('\n');
}

export function summaryLine(workers: number, figures: ScaleFigures): string {
	return (
		`scale: workers=${workers} docs=${figures.docs} lost=${figures.lost} duplicate_uploads=${figures.duplicateUploads} http_429=${figures.http429} ` +
		`requests=${figures.requests} docs_per_min=${figures.docsPerMin.toFixed(1)} bound_docs_per_min=${figures.boundDocsPerMin.toFixed(1)}`
	);
}

/** The key's windows in order: requests counted, then the idle seconds before the next window opened. */
export function keyWindowsLine(windows: KeyWindow[]): string {
	const shown = windows.map(
		(window) => `${window.requests}${window.pending > 0 ? ` (${window.pending} pending)` : ''}${window.idleAfterMs === undefined ? '' : ` +${(window.idleAfterMs / 1000).toFixed(1)} s`}`,
	);
	return `Key windows (uploads and reads in each minute, of them reads that found the document pending, then idle until the next): ${shown.join(', ')}`;
}

/** Each read that found its document pending: pages, first read or again, when it came and when the document was done (s after upload). */
export function pendingReadsLine(reads: PendingRead[]): string {
	const shown = [...reads]
		.sort((a, b) => a.at - b.at)
		.map((read) => `${read.pages}p ${read.first ? 'first' : 'again'} ${(read.readAfterMs / 1000).toFixed(1)}/${(read.doneAfterMs / 1000).toFixed(1)} s`);
	return `Reads that found the document pending (pages, first read or again, read/done in s after upload): ${shown.length === 0 ? 'none' : shown.join(', ')}`;
}
