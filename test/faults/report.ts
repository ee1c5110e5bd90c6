/**
 * Reporter of `npm run test:faults`: after the run, one table row per scenario (the figures each
 * test left in `task.meta.faultsRow`, see support.ts) and a summary of the figures.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';

import type { ScenarioRow } from './support';

interface Line {
	file: string;
	row?: ScenarioRow;
	name: string;
	result: 'pass' | 'FAIL' | 'known bug' | 'skipped';
}

const HEADERS = ['scenario', 'items in', 'items out per output', 'uploads', 'requests', '429s', 'seconds', 'result'];

export default class FaultsReport implements Reporter {
	onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
		const lines = testModules.flatMap((module) => [...module.children.allTests()].map((test) => lineOf(module, test)));
		if (lines.length === 0) return;
		console.log(`\n${renderTable(lines)}\n\n${renderSummary(lines)}\n`);
	}
}

function lineOf(module: TestModule, test: TestCase): Line {
	const state = test.result().state;
	// `it.fails` passes when its assertion fails: a bug the suite knows about and reports.
	const result = state === 'skipped' || state === 'pending' ? 'skipped' : state === 'failed' ? 'FAIL' : test.options.fails ? 'known bug' : 'pass';
	const file = module.moduleId.replace(/^.*\/test\/faults\//, '').replace(/\.faults\.test\.ts$/, '');
	return { file, row: test.meta().faultsRow, name: test.name, result };
}

function renderTable(lines: Line[]): string {
	const rows = lines.map((line) => {
		const row = line.row;
		const cells = row
			? [row.itemsIn.join(' + '), row.itemsOut, String(row.uploads), String(row.requests), String(row.rateLimited), row.seconds.toFixed(1)]
			: ['-', '-', '-', '-', '-', '-'];
		return [`${line.file}: ${line.name}`, ...cells, line.result];
	});
	const widths = HEADERS.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column].length)));
	const render = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
	return [render(HEADERS), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(render)].join('\n');
}

function renderSummary(lines: Line[]): string {
	const count = (result: Line['result']) => lines.filter((line) => line.result === result).length;
	const rows = lines.flatMap((line) => (line.row ? [line.row] : []));
	const sum = (pick: (row: ScenarioRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
	const load = rows.find((row) => /200 documents/.test(row.scenario));
	return [
		`Scenarios: ${lines.length} (${count('pass')} pass, ${count('FAIL')} fail, ${count('known bug')} known bugs marked it.fails, ${count('skipped')} skipped)`,
		`Items in: ${sum((row) => row.itemsIn.reduce((a, b) => a + b, 0))} · uploads received by the sandbox: ${sum((row) => row.uploads)} · requests: ${sum((row) => row.requests)} · 429s: ${sum((row) => row.rateLimited)} · scenario time: ${sum((row) => row.seconds).toFixed(0)} s`,
		...(load ? [`Load: ${load.itemsIn.join(' + ')} items, ${load.requests} requests, ${load.rateLimited} 429s in ${load.seconds.toFixed(0)} s (${load.itemsOut})`] : []),
	].join('\n');
}
