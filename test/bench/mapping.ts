import { performance } from 'node:perf_hooks';

import { doneResultToJson } from '../../nodes/shared/output/mapping';
import { resultSchema, type Result } from '../../nodes/shared/schemas';

export interface MappingTimes {
	rows: number;
	/** Median of the runs, ms. */
	parseMs: number;
	fieldsMs: number;
	tableRowsMs: number;
	tableRowItems: number;
}

const RUNS = 5;

/**
 * Time to turn a bank statement with `rows` transactions into items: the answer's schema check
 * (what the transport does with every result) and doneResultToJson in fields and tableRows modes.
 */
export function measureStatementMapping(rows = 5000): MappingTimes {
	const answer = statementResult(rows);
	const result = resultSchema.parse(answer);
	const parseMs = medianMs(() => resultSchema.parse(answer));
	const fieldsMs = medianMs(() => doneResultToJson(result, { mode: 'fields', includeConfidence: true }));
	const tableRowsMs = medianMs(() => doneResultToJson(result, { mode: 'tableRows', includeConfidence: true }));
	return { rows, parseMs, fieldsMs, tableRowsMs, tableRowItems: doneResultToJson(result, { mode: 'tableRows' }).length };
}

function medianMs(work: () => unknown): number {
	const times: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		const started = performance.now();
		work();
		times.push(performance.now() - started);
	}
	return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)];
}

/** A `done` result as the service would send it for a long statement (spec 2.4-2.6). */
function statementResult(rows: number): Result {
	const scalar = (name: string, value: string | number) => ({ name, label: name, value_type: typeof value === 'number' ? 'currency' : 'string', value, confidence: 0.93, source_fragment: String(value) });
	let balance = 10_000;
	const transactions = Array.from({ length: rows }, (_, i) => {
		const amount = Math.round((((i * 7919) % 20_000) - 10_000) / 10) / 10;
		balance = Math.round((balance + amount) * 100) / 100;
		const day = String((i % 28) + 1).padStart(2, '0');
		return { date: `2026-03-${day}`, description: `Card payment ${i + 1} Example Shop Ltd`, debit: amount < 0 ? -amount : null, credit: amount >= 0 ? amount : null, balance };
	});
	return {
		success: true,
		result_id: '0b6f2c57-2a55-4c36-9d8e-5f1f6b1d2e01',
		status: 'done',
		scanner_id: 'bank-statement',
		scanner_name: 'Bank statement',
		filename: 'statement-5000-rows.pdf',
		file_type: 'application/pdf',
		tokens_used: 50,
		created_at: '2026-03-31T08:00:00Z',
		source_type: 'api',
		confidence: 0.92,
		extracted_data: {
			status: 'ok',
			scanner_name: 'Bank statement',
			language: 'en',
			extracted_at: '2026-03-31T08:02:00Z',
			summary: { fields_with_values: 6, fields_null: 0 },
			doc_metadata: { num_paginas: 50, tipo_archivo: 'pdf', ocr_provider: 'text-layer', idioma_detectado_ocr: 'en' },
			fields: [
				scalar('bank_name', 'Example Bank plc'),
				scalar('account_holder', 'Brightline Studio Ltd'),
				scalar('iban', 'GB33BUKB20201555555555'),
				scalar('opening_balance', 10_000),
				scalar('closing_balance', balance),
				{ name: 'transactions', label: 'Transactions', value_type: 'table', value: transactions, confidence: 0.9 },
			],
		},
	};
}
