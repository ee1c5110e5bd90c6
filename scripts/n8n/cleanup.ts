import { stopAllChildrenInOrder } from './processes';

type Cleanup = () => void | Promise<void>;

const cleanups: Cleanup[] = [];

/** Registers something to undo when the program ends, in reverse order of registration. */
export function onCleanup(cleanup: Cleanup): void {
	cleanups.push(cleanup);
}

/**
 * Stops every child process (a database first gets its clean shutdown, see `startService`), then
 * runs the cleanups; each failure is reported, none stops the rest.
 */
export async function cleanUp(): Promise<void> {
	await stopAllChildrenInOrder();
	while (cleanups.length > 0) {
		const cleanup = cleanups.pop()!;
		try {
			await cleanup();
		} catch (error) {
			console.error(`Cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
}

/** Ctrl-C and kill: clean up, then exit with the usual signal code. */
export function cleanUpOnSignals(): void {
	for (const [signal, code] of [
		['SIGINT', 130],
		['SIGTERM', 143],
	] as const) {
		process.once(signal, () => {
			console.error(`\n${signal}: stopping everything this script started...`);
			void cleanUp().finally(() => process.exit(code));
		});
	}
}
