/**
 * A vitest reporter added beside the default one: after the run it prints every skip notice
 * (`skipNotice`) and how many tests were skipped in all, so a contributor sees what did not run.
 */
import type { Reporter, TestModule } from 'vitest/node';

import { SKIP_NOTICE_PREFIX } from './skipNotice';

export default class SkipReport implements Reporter {
	onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
		const reasons = new Set<string>();
		let skipped = 0;
		for (const module of testModules) {
			for (const test of module.children.allTests('skipped')) {
				if (test.name.startsWith(SKIP_NOTICE_PREFIX)) reasons.add(test.name.slice(SKIP_NOTICE_PREFIX.length));
				else skipped++;
			}
		}
		if (reasons.size === 0 && skipped === 0) return;
		const lines = [`\nSkipped ${skipped} test(s); why:`, ...[...reasons].map((reason) => `  - ${reason}`)];
		process.stdout.write(`${lines.join('\n')}\n`);
	}
}
