import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { PersistedState } from './state';

/** Optional state file: accounts, templates and results survive a restart (file bytes never do). */
export function loadState(file: string): PersistedState | undefined {
	if (!existsSync(file)) return undefined;
	const parsed = JSON.parse(readFileSync(file, 'utf8')) as PersistedState;
	if (parsed.version !== 1) throw new Error(`${file}: unknown state file version ${String(parsed.version)}`);
	return parsed;
}

export function saveState(file: string, state: PersistedState): void {
	// Write then rename, so a crash never leaves half a file.
	const temporary = `${file}.tmp`;
	writeFileSync(temporary, JSON.stringify(state));
	renameSync(temporary, file);
}
