import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PersistedState } from './state';

/** A state file that cannot be read or written; its message says what to do, for the CLI to print as is. */
export class StateFileError extends Error {
	override name = 'StateFileError';
}

const START_AFRESH = 'Move the file away (or delete it) to start with a fresh sandbox, or start with --no-state to keep nothing.';

/** Optional state file: accounts, templates and results survive a restart (file bytes never do). */
export function loadState(file: string): PersistedState | undefined {
	if (!existsSync(file)) return undefined;
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		throw new StateFileError(`The sandbox cannot read its state file ${file} (${reason(error)}). ${START_AFRESH}`);
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		throw new StateFileError(`The sandbox's state file ${file} is not valid JSON (damaged or edited by hand). ${START_AFRESH}`);
	}
	if (!isPersistedState(parsed)) {
		throw new StateFileError(`The file ${file} is not a state file this sandbox knows (version 1 with accounts, scanners and results). ${START_AFRESH}`);
	}
	return parsed;
}

export function saveState(file: string, state: PersistedState): void {
	// Write a temporary file beside it and rename it over the old one: a rename is atomic, so a
	// Ctrl-C or a crash in the middle leaves the old state or the new one, never half a file.
	// The process id in the name keeps two sandboxes on one folder from writing the same temporary.
	const temporary = `${file}.${process.pid}.tmp`;
	try {
		mkdirSync(dirname(file), { recursive: true });
		// flush: the bytes are on disk before the rename makes them the state.
		writeFileSync(temporary, JSON.stringify(state), { flush: true });
		renameSync(temporary, file);
	} catch (error) {
		rmSync(temporary, { force: true });
		throw new StateFileError(`The sandbox cannot write its state file ${file} (${reason(error)}). Choose another folder with --data, or start with --no-state.`);
	}
}

function isPersistedState(value: unknown): value is PersistedState {
	if (typeof value !== 'object' || value === null) return false;
	const candidate = value as Partial<Record<keyof PersistedState, unknown>>;
	return (
		candidate.version === 1 &&
		Array.isArray(candidate.accounts) &&
		typeof candidate.scanners === 'object' &&
		candidate.scanners !== null &&
		Array.isArray(candidate.results)
	);
}

function reason(error: unknown): string {
	return error instanceof Error && 'code' in error ? String(error.code) : error instanceof Error ? error.message : String(error);
}
