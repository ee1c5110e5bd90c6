/**
 * The n8n releases the package is tested in: the newest of each line that installs from the npm
 * registry the suites install from (docs/compatibility.md says why no newer one). n8n 2.x requires
 * Node 24 (its `engines`), so it runs under the npm package `node` of `nodeVersion`; n8n 1.x runs
 * under the Node that runs the command.
 */
export interface N8nRelease {
	/** The n8n line, as users say it: `1` or `2`. */
	line: N8nLine;
	version: string;
	/** The npm package `node` to run this n8n with, when it needs a newer Node than the machine's. */
	nodeVersion?: string;
	/**
	 * Overrides in n8n's own install folder (never in the package's package.json, where the
	 * community rules forbid them): packages the registry here cannot serve as n8n pins them.
	 */
	overrides?: Record<string, string>;
	/** The spreadsheet library n8n writes XLSX with (the examples' checks read the file back with it). */
	xlsxModule: string;
}

export type N8nLine = '1' | '2';

export const N8N_RELEASES: Record<N8nLine, N8nRelease> = {
	'1': {
		line: '1',
		version: '1.123.81',
		overrides: { linkedom: '0.18.12', xlsx: 'npm:xlsx@0.18.5' },
		xlsxModule: 'xlsx',
	},
	// 2.41.3 (`latest`) pins 21 @n8n/* packages the registry lacks; 2.41.1 installs as it is.
	'2': { line: '2', version: '2.41.1', nodeVersion: '24.21.0', xlsxModule: '@e965/xlsx' },
};

/** The newest line first: what users run, and what the demo starts by default. */
export const NEWEST_LINE: N8nLine = '2';

/**
 * Which releases a command runs on: `--n8n 1`, `--n8n 2`, `--n8n 1,2` or `--n8n all` on the
 * command line, else the `N8N_LINES` variable (same values), else `fallback`.
 */
export function selectReleases(argv: string[], fallback: N8nLine[]): N8nRelease[] {
	const flag = argv.findIndex((arg) => arg === '--n8n' || arg.startsWith('--n8n='));
	const value = flag < 0 ? process.env.N8N_LINES : argv[flag].includes('=') ? argv[flag].split('=')[1] : argv[flag + 1];
	if (!value) return fallback.map((line) => N8N_RELEASES[line]);
	const lines = value === 'all' ? (Object.keys(N8N_RELEASES) as N8nLine[]) : value.split(',').map((part) => part.trim().replace(/\.x$/, ''));
	return lines.map((line) => {
		const release = N8N_RELEASES[line as N8nLine];
		if (!release) throw new Error(`Unknown n8n line "${line}": use ${Object.keys(N8N_RELEASES).join(', ')} or all`);
		return release;
	});
}

export function releaseOfLine(line: string | undefined): N8nRelease {
	const release = N8N_RELEASES[(line ?? NEWEST_LINE) as N8nLine];
	if (!release) throw new Error(`Unknown n8n line "${line}"`);
	return release;
}
