import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/** Debian's package (CI installs it with apt-get); `CHROMIUM_PATH` points elsewhere. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium as these machines allow it: no sandbox (root), no GPU, and none of the
 * background connections to Google that a closed network refuses by the dozen.
 */
export async function launchBrowser(): Promise<{ browser: Browser; close: () => Promise<void> }> {
	const profile = mkdtempSync(join(tmpdir(), 'n8n-docx-chromium-'));
	const browser = await puppeteer.launch({
		executablePath: CHROMIUM,
		headless: true,
		userDataDir: profile,
		defaultViewport: { width: 1440, height: 900 },
		args: [
			'--no-sandbox',
			'--disable-dev-shm-usage',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--lang=en-US',
		],
	});
	return {
		browser,
		close: async () => {
			await browser.close();
			rmSync(profile, { recursive: true, force: true });
		},
	};
}

export type { Browser, Page };
