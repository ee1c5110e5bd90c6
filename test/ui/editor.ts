import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { ElementHandle, Page } from 'puppeteer-core';

import type { Owner } from '../../scripts/n8n/server';

/**
 * The n8n editor as a user meets it, one user action per method: the setup page, the canvas, the
 * node panel, the node's parameter panel (NDV), the credential modal and the output panel. Works on
 * n8n 1.123 and 2.41: both name their parts with `data-test-id` (what n8n's own Playwright suite
 * uses), and where the two differ the methods accept either. Every method waits for what the user
 * would wait for (a panel opening, a list loading) instead of sleeping a fixed time.
 */

const STEP_TIMEOUT_MS = 30_000;
/** An open option of an options parameter's dropdown (Element Plus, in both n8n lines). */
const DROPDOWN_ITEM = '.el-select-dropdown__item:not(.is-disabled), [role="option"]';
/** Keys typed at about the speed of a quick typist: n8n's inputs debounce and drop faster bursts. */
const TYPING_DELAY_MS = 25;

export const sel = {
	canvasAddFirst: '[data-test-id="canvas-add-button"]',
	canvasNode: '[data-test-id="canvas-node"]',
	handlePlus: '[data-test-id="canvas-handle-plus"]',
	nodePanel: '[data-test-id="node-creator"]',
	nodePanelOpenButton: '[data-test-id="node-creator-plus-button"]',
	nodePanelSearch: '[data-test-id="node-creator-search-bar"]',
	nodePanelItem: '[data-test-id="node-creator"] [data-test-id="item-iterator-item"]',
	ndv: '[data-test-id="ndv"]',
	/** n8n 2.x: a close button; n8n 1.x: "Back to canvas". */
	ndvClose: '[data-test-id="ndv-close-button"], [data-test-id="back-to-canvas"]',
	executeStep: '[data-test-id="node-execute-button"]',
	outputPanel: '[data-test-id="output-panel"]',
	credentialModal: '[data-test-id="editCredential-modal"]',
	credentialSave: '[data-test-id="credential-save-button"]',
	credentialSlotEmpty: '[data-test-id="node-credentials-empty-state"]',
	credentialSelect: '[data-test-id="node-credentials-select"]',
	zoomToFit: '[data-test-id="zoom-to-fit"]',
	parameter: (name: string) => `[data-test-id="parameter-input-${name}"]`,
	resourceLocatorInput: (name: string) => `[data-test-id="resource-locator-${name}"] [data-test-id="rlc-input"]`,
	resourceLocatorItem: '[data-test-id="rlc-item"]',
} as const;

export class Editor {
	private shotNumber = 0;

	constructor(
		readonly page: Page,
		readonly url: string,
		private readonly shotsDir: string,
	) {
		mkdirSync(shotsDir, { recursive: true });
		// Leaving a workflow with unsaved changes for another page: confirm, as a person clicks "Leave".
		page.on('dialog', (dialog) => void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()));
	}

	/**
	 * A screenshot of what the user sees now, numbered in the order taken; returns its path. `page`:
	 * another tab (a reviewer's, say) numbered in the same sequence.
	 */
	async shot(name: string, page: Page = this.page): Promise<string> {
		this.shotNumber += 1;
		const path = join(this.shotsDir, `${String(this.shotNumber).padStart(2, '0')}-${name}.png`);
		await page.screenshot({ path });
		return path;
	}

	// -- Generic steps -------------------------------------------------------------------------

	async waitFor(selector: string, timeout = STEP_TIMEOUT_MS): Promise<ElementHandle<Element>> {
		const element = await this.page.waitForSelector(selector, { visible: true, timeout });
		if (!element) throw new Error(`${selector} did not appear`);
		return element;
	}

	async waitUntilGone(selector: string, timeout = STEP_TIMEOUT_MS): Promise<void> {
		await this.page.waitForFunction(
			(css: string) =>
				!Array.from(document.querySelectorAll(css)).some((element) => {
				const box = element.getBoundingClientRect();
				return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
			}),
			{ timeout },
			selector,
		);
	}

	/**
	 * Until some element matching `selector` is visible. (puppeteer's own `visible` option looks at
	 * the first match only, and every closed dropdown of the page leaves hidden items in the DOM.)
	 */
	async waitForAnyVisible(selector: string, timeout = STEP_TIMEOUT_MS): Promise<void> {
		await this.page.waitForFunction(
			(css: string) =>
				Array.from(document.querySelectorAll(css)).some((element) => {
				const box = element.getBoundingClientRect();
				return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
			}),
			{ timeout },
			selector,
		);
	}

	async isVisible(selector: string): Promise<boolean> {
		const element = await this.page.$(selector);
		return element !== null && (await element.isVisible());
	}

	/** The visible element among `selector`'s matches whose text is `text` (or starts with it), waiting for it. */
	async findByText(selector: string, text: string, { exact = true, timeout = STEP_TIMEOUT_MS } = {}): Promise<ElementHandle<Element>> {
		const handle = await this.page.waitForFunction(
			(css: string, wanted: string, whole: boolean) => {
				for (const element of Array.from(document.querySelectorAll<HTMLElement>(css))) {
					if (!element.offsetParent && element.getClientRects().length === 0) continue;
					const own = element.innerText.trim();
					const firstLine = own.split('\n')[0].trim();
					if (whole ? own === wanted || firstLine === wanted : own.includes(wanted)) return element;
				}
				return null;
			},
			{ timeout },
			selector,
			text,
			exact,
		);
		return handle as unknown as ElementHandle<Element>;
	}

	/** Panels slide in and lists re-render as they load: a click that lands on a moving element is tried again. */
	async clickByText(selector: string, text: string, options?: { exact?: boolean; timeout?: number }): Promise<void> {
		for (let attempt = 1; ; attempt++) {
			try {
				await (await this.findByText(selector, text, options)).click();
				return;
			} catch (error) {
				if (attempt >= 3 || !/not clickable|detached|not an Element/i.test(String(error))) throw error;
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
		}
	}

	/** Replaces the text of an input the way a person does: click, select all, type, leave the field. */
	async fill(selector: string, text: string): Promise<void> {
		const container = await this.waitFor(selector);
		const input = (await container.$('input, textarea, [contenteditable="true"]')) ?? container;
		await input.click();
		await this.selectAllAndDelete();
		await input.type(text, { delay: TYPING_DELAY_MS });
		await this.page.keyboard.press('Tab');
	}

	private async selectAllAndDelete(): Promise<void> {
		await this.page.keyboard.down('Control');
		await this.page.keyboard.press('a');
		await this.page.keyboard.up('Control');
		await this.page.keyboard.press('Backspace');
	}

	private async texts(selector: string): Promise<string[]> {
		return await this.page.$$eval(selector, (elements) =>
			elements.filter((element) => (element as HTMLElement).offsetParent !== null).map((element) => (element as HTMLElement).innerText.trim()),
		);
	}

	// -- Account and workflow ------------------------------------------------------------------

	/** The first page of a fresh n8n: the owner account form. */
	async setUpOwner(owner: Owner): Promise<void> {
		await this.page.goto(`${this.url}/setup`, { waitUntil: 'networkidle2' });
		for (const [field, value] of Object.entries({ email: owner.email, firstName: owner.firstName, lastName: owner.lastName, password: owner.password })) {
			await this.fill(`[data-test-id="${field}"]`, value);
		}
		await this.shot('owner-setup');
		await this.page.click('[data-test-id="form-submit-button"]');
		await this.page.waitForFunction(() => !location.pathname.startsWith('/setup'), { timeout: STEP_TIMEOUT_MS });
		await this.dismissModals();
	}

	/** Onboarding surveys and notices a fresh instance may show once: closed like a user would. */
	async dismissModals(): Promise<void> {
		await new Promise((resolve) => setTimeout(resolve, 1000));
		for (const close of await this.page.$$('.el-dialog__headerbtn, [data-test-id="personalization-form"] ~ * button')) {
			if (await close.isVisible()) await close.click().catch(() => undefined);
		}
	}

	/** Closes the notifications in the corner (an error one stays until closed, over the node panel). */
	async closeToasts(): Promise<void> {
		for (const close of await this.page.$$('.el-notification .el-notification__closeBtn')) {
			if (await close.isVisible()) await close.click().catch(() => undefined);
		}
		await this.waitUntilGone('.el-notification');
	}

	async newWorkflow(): Promise<void> {
		await this.page.goto(`${this.url}/workflow/new`, { waitUntil: 'networkidle2' });
		await this.waitFor(sel.canvasAddFirst);
	}

	/** A new workflow started by a Manual Trigger, with the node panel open for the next step. */
	async newWorkflowAfterManualTrigger(): Promise<void> {
		await this.newWorkflow();
		await this.openNodePanelForFirstStep();
		await this.searchNodePanel('Manual');
		await this.pickNode('Manual Trigger');
		await this.closeNdv();
		await this.openNodePanelAfterLastNode();
	}

	/** Opens a saved workflow (e.g. an imported example) on the canvas. */
	async openWorkflow(id: string): Promise<void> {
		await this.page.goto(`${this.url}/workflow/${id}`, { waitUntil: 'networkidle2' });
		await this.waitFor(sel.canvasNode);
		await this.dismissModals();
	}

	// -- Node panel ----------------------------------------------------------------------------

	async openNodePanelForFirstStep(): Promise<void> {
		await this.page.click(sel.canvasAddFirst);
		await this.waitFor(sel.nodePanelSearch);
	}

	/** The "+" after the last node on the canvas (its main output). */
	async openNodePanelAfterLastNode(): Promise<void> {
		const pluses = await this.page.$$(sel.handlePlus);
		if (pluses.length === 0) throw new Error('No node on the canvas has a "+" to add the next step');
		await pluses[pluses.length - 1].click();
		await this.waitFor(sel.nodePanelSearch);
	}

	/** The "+" at the top right of the canvas: a node not yet connected. */
	async openNodePanel(): Promise<void> {
		await this.page.click(sel.nodePanelOpenButton);
		await this.waitFor(sel.nodePanelSearch);
	}

	/** Types into the panel's search box and returns the names of the nodes it lists. */
	async searchNodePanel(query: string): Promise<string[]> {
		const box = await this.waitFor(sel.nodePanelSearch);
		const input = (await box.$('input')) ?? box;
		// The search box has the focus whenever the panel is open; a click could land on it mid-slide.
		await input.focus();
		await this.selectAllAndDelete();
		await input.type(query, { delay: TYPING_DELAY_MS });
		return (await this.settledPanelItems()).map((text) => text.split('\n')[0].trim());
	}

	/**
	 * The panel's items once the list has stopped changing: it filters as the user types, and a
	 * panel sliding out during a transition still shows its items for a moment. Section headings
	 * ("Document actions") are left out.
	 */
	private async settledPanelItems(): Promise<string[]> {
		const read = () =>
			this.page.$$eval(sel.nodePanelItem, (elements) =>
				elements
					.filter((element) => (element as HTMLElement).offsetParent !== null)
					.map((element) => (element as HTMLElement).innerText.trim())
					// Section headings of the actions list, e.g. "Document actions" (shown in capitals).
					.filter((text) => !/^[^\n]* actions$/i.test(text)),
			);
		let previous = '';
		for (let stable = 0; stable < 4; ) {
			await new Promise((resolve) => setTimeout(resolve, 250));
			const now = (await read()).join('\n');
			stable = now === previous ? stable + 1 : 0;
			previous = now;
		}
		return await read();
	}

	/** Clicks the node of that name in the panel's list. */
	async pickNode(name: string): Promise<void> {
		await this.clickByText(sel.nodePanelItem, name);
	}

	/** The actions the panel lists for the node just picked (a node with resources and operations). */
	async listedActions(): Promise<string[]> {
		await this.waitFor(`${sel.nodePanel} [data-test-id="node-creator-category-item"]`);
		return await this.settledPanelItems();
	}

	async pickAction(action: string): Promise<void> {
		await this.clickByText(sel.nodePanelItem, action);
		await this.waitFor(sel.ndv);
	}

	/**
	 * A node without actions: n8n 1.x opens it at once; n8n 2.x first shows its details with an
	 * "Add to workflow" button.
	 */
	async addPickedNode(): Promise<void> {
		await this.page.waitForFunction(
			(ndv: string, panel: string) => {
				if (document.querySelector(ndv)) return true;
				return Array.from(document.querySelectorAll(`${panel} button`)).some((button) => (button as HTMLElement).innerText.trim() === 'Add to workflow');
			},
			{ timeout: STEP_TIMEOUT_MS },
			sel.ndv,
			sel.nodePanel,
		);
		if (!(await this.isVisible(sel.ndv))) await this.clickByText(`${sel.nodePanel} button`, 'Add to workflow');
		await this.waitFor(sel.ndv);
	}

	// -- Parameter panel (NDV) -----------------------------------------------------------------

	async closeNdv(): Promise<void> {
		if (!(await this.isVisible(sel.ndv))) return;
		const close = await this.page.$(sel.ndvClose);
		if (close && (await close.isVisible())) await close.click();
		else await this.clickByText('a, button, span', 'Back to canvas');
		await this.waitUntilGone(sel.ndv);
	}

	async setText(parameter: string, value: string): Promise<void> {
		await this.fill(sel.parameter(parameter), value);
	}

	/** Opens an options parameter and picks the option with that name; returns every option it offered. */
	async selectOption(parameter: string, option: string): Promise<string[]> {
		const container = await this.waitFor(sel.parameter(parameter));
		const input = (await container.$('input')) ?? container;
		// A dropdown that was closing when the click came stays shut: click again, as a person would.
		for (let attempt = 1; ; attempt++) {
			await input.click();
			try {
				await this.waitForAnyVisible(DROPDOWN_ITEM, attempt < 3 ? 3000 : STEP_TIMEOUT_MS);
				break;
			} catch (error) {
				if (attempt >= 3) throw error;
			}
		}
		// Options loaded from the service (loadOptions) arrive a moment after the list opens.
		await new Promise((resolve) => setTimeout(resolve, 500));
		const offered = (await this.texts(DROPDOWN_ITEM)).map((text) => text.split('\n')[0].trim());
		await this.clickByText(DROPDOWN_ITEM, option);
		await this.waitUntilGone(DROPDOWN_ITEM);
		return offered;
	}

	/** The options an options parameter offers, each with the description n8n shows under its name; leaves the choice as it was. */
	async optionsWithDescriptions(parameter: string): Promise<Array<{ name: string; description: string }>> {
		const container = await this.waitFor(sel.parameter(parameter));
		await ((await container.$('input')) ?? container).click();
		await this.waitForAnyVisible(DROPDOWN_ITEM);
		const offered = (await this.texts(DROPDOWN_ITEM)).map((text) => {
			const [name, ...description] = text.split('\n').map((line) => line.trim());
			return { name, description: description.filter(Boolean).join(' ') };
		});
		await this.page.keyboard.press('Escape');
		await this.waitUntilGone(DROPDOWN_ITEM);
		return offered;
	}

	/**
	 * What a collection's "Add Option" list offers (a node's Options), named as the panel shows them;
	 * the list is closed again and nothing is added.
	 */
	async collectionChoices(placeholder: string): Promise<string[]> {
		const opener = await this.page.evaluateHandle(
			(ndv: string, text: string) =>
				Array.from(document.querySelectorAll<HTMLElement>(`${ndv} input, ${ndv} button, ${ndv} span, ${ndv} div`)).find(
					(element) => element.getClientRects().length > 0 && ((element as HTMLInputElement).placeholder === text || element.innerText?.trim() === text),
				) ?? null,
			sel.ndv,
			placeholder,
		);
		const element = opener.asElement() as ElementHandle<Element> | null;
		if (!element) throw new Error(`No "${placeholder}" in the node's panel`);
		await element.click();
		await this.waitForAnyVisible(DROPDOWN_ITEM);
		const offered = (await this.texts(DROPDOWN_ITEM)).map((text) => text.split('\n')[0].trim());
		await this.page.keyboard.press('Escape');
		await this.waitUntilGone(DROPDOWN_ITEM);
		return offered;
	}

	/** All the text the node's parameter panel shows (labels, hints, notices). */
	async panelText(): Promise<string> {
		return await this.page.$eval(sel.ndv, (element) => (element as HTMLElement).innerText);
	}

	/** A resource locator's "From list" mode: opens the list, waits for the service's answer, picks `item`. */
	async pickFromList(parameter: string, item: string): Promise<string[]> {
		for (let attempt = 1; ; attempt++) {
			await (await this.waitFor(sel.resourceLocatorInput(parameter))).click();
			try {
				await this.waitForAnyVisible(sel.resourceLocatorItem);
				break;
			} catch (error) {
				// Now and then n8n 2.x keeps the list's placeholder rows up; a user would open it again.
				if (attempt === 2) throw error;
				process.stdout.write(`[ui] the list of "${parameter}" showed nothing in ${STEP_TIMEOUT_MS / 1000} s; opening it again\n`);
				await this.page.keyboard.press('Escape');
			}
		}
		const offered = await this.texts(sel.resourceLocatorItem);
		await this.clickByText(sel.resourceLocatorItem, item);
		await this.waitUntilGone(sel.resourceLocatorItem);
		return offered;
	}

	/** Which of `candidates` the page shows as the whole text of a visible element (labels, buttons, placeholders). */
	async shownTexts(candidates: string[]): Promise<string[]> {
		return await this.page.evaluate((wanted: string[]) => {
			const shown = new Set<string>();
			for (const element of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
				if (element.getClientRects().length === 0) continue;
				const text = element.innerText?.trim();
				const placeholder = element.getAttribute('placeholder')?.trim();
				for (const candidate of wanted) if (text === candidate || placeholder === candidate) shown.add(candidate);
			}
			return wanted.filter((candidate) => shown.has(candidate));
		}, candidates);
	}

	/** What a parameter shows: the text of its input (an options parameter shows the chosen option's name). */
	async parameterValue(parameter: string): Promise<string> {
		const container = await this.waitFor(sel.parameter(parameter));
		return await container.evaluate((element) => {
			const input = element.querySelector('input, textarea') as HTMLInputElement | null;
			return (input?.value || (element as HTMLElement).innerText).trim();
		});
	}

	async executeStep(): Promise<void> {
		await (await this.waitFor(sel.executeStep)).click();
	}

	/** The output panel in table view once the step has run: column names and rows of cell texts. */
	async outputTable(timeout = 90_000): Promise<{ columns: string[]; rows: string[][] }> {
		await this.page.waitForFunction(
			(panel: string) => {
				const root = document.querySelector(panel);
				return !!root && (root.querySelector('table') !== null || root.querySelector('[data-test-id="ndv-run-data-display-mode"]') !== null);
			},
			{ timeout },
			sel.outputPanel,
		);
		const table = `${sel.outputPanel} [data-test-id="radio-button-table"]`;
		if (await this.isVisible(table)) await this.page.click(table);
		await this.waitFor(`${sel.outputPanel} table`);
		return await this.page.$eval(`${sel.outputPanel} table`, (element) => {
			const cells = (row: Element) => Array.from(row.querySelectorAll('th, td')).map((cell) => (cell as HTMLElement).innerText.trim());
			const [head, ...body] = Array.from(element.querySelectorAll('tr'));
			return { columns: head ? cells(head) : [], rows: body.map(cells) };
		});
	}

	/** Waits until the output panel shows `text` (a notice of the run just made, say); returns all it shows. */
	async waitForOutputText(text: string, timeout = 90_000): Promise<string> {
		await this.page.waitForFunction(
			(panel: string, wanted: string) => (document.querySelector(panel) as HTMLElement | null)?.innerText.includes(wanted) ?? false,
			{ timeout },
			sel.outputPanel,
			text,
		);
		return await this.page.$eval(sel.outputPanel, (element) => (element as HTMLElement).innerText);
	}

	/** The error the output panel shows when a step failed: its headline, and all the panel says (the advice under it). */
	async outputError(): Promise<{ message: string; panelText: string }> {
		const error = await this.waitFor(`${sel.outputPanel} [data-test-id="node-error-message"]`, 90_000);
		return {
			message: await error.evaluate((element) => (element as HTMLElement).innerText.trim()),
			panelText: await this.page.$eval(sel.outputPanel, (element) => (element as HTMLElement).innerText),
		};
	}

	// -- Credentials ---------------------------------------------------------------------------

	/** From the node's Credential slot: "Create new credential" opens the credential modal. */
	async openNewCredentialModal(): Promise<void> {
		// The panel may still be opening: which slot it shows is known once one of them is there.
		await this.waitFor(`${sel.credentialSlotEmpty}, ${sel.credentialSelect}`);
		if (await this.isVisible(sel.credentialSlotEmpty)) {
			await this.page.click(sel.credentialSlotEmpty);
			await this.waitFor(sel.credentialModal);
			return;
		}
		// A click on the list's "Create new credential" while the list still slides open can be lost
		// (seen once on n8n 1.123.81): the list is given time to settle, and opened again if need be.
		for (let attempt = 1; ; attempt++) {
			if (!(await this.isVisible('[data-test-id="node-credentials-select-item-new"]'))) await (await this.waitFor(sel.credentialSelect)).click();
			const createNew = await this.waitFor('[data-test-id="node-credentials-select-item-new"]');
			await new Promise((resolve) => setTimeout(resolve, 500));
			await createNew.click();
			try {
				await this.waitFor(sel.credentialModal, 10_000);
				return;
			} catch (error) {
				if (attempt === 3) throw error;
			}
		}
	}

	/**
	 * Types the values into the credential modal and saves; n8n then tests the credential. Returns
	 * what the modal says: the test passed, or the message it failed with ("More details" opened).
	 * n8n 2.x closes the modal by itself after a passed test; 1.x keeps it open with a success note.
	 */
	async saveCredential(values: Record<string, string>): Promise<{ ok: boolean; message: string }> {
		for (const [name, value] of Object.entries(values)) await this.fill(`${sel.credentialModal} ${sel.parameter(name)}`, value);
		// The inputs hand their value on after a short debounce; a save before that would save the old one.
		await new Promise((resolve) => setTimeout(resolve, 500));
		// n8n saves, then tests the saved credential: wait for the test's answer, not for a banner
		// that may still show the previous attempt.
		const tested = this.page.waitForResponse((response) => response.url().includes('/rest/credentials/test'), { timeout: STEP_TIMEOUT_MS });
		await this.page.click(`${sel.credentialModal} ${sel.credentialSave}`);
		const answer = (await (await tested).json()) as { data?: { status?: string; message?: string } };
		if (answer.data?.status === 'OK') {
			await this.page.waitForFunction(
				(modal: string) => {
					const root = document.querySelector(modal) as HTMLElement | null;
					return !root || root.offsetParent === null || /Connection tested successfully/.test(root.innerText);
				},
				{ timeout: STEP_TIMEOUT_MS },
				sel.credentialModal,
			);
			return { ok: true, message: 'Connection tested successfully' };
		}
		// The modal shows the message under "More details": wait until it shows this attempt's.
		const message = answer.data?.message ?? '';
		const details = await this.findByText(`${sel.credentialModal} a, ${sel.credentialModal} span`, 'More details').catch(() => undefined);
		await details?.click();
		await this.page.waitForFunction(
			(modal: string, expected: string) => (document.querySelector(modal) as HTMLElement | null)?.innerText.includes(expected) ?? false,
			{ timeout: STEP_TIMEOUT_MS },
			sel.credentialModal,
			message,
		);
		return { ok: false, message };
	}

	async closeCredentialModal(): Promise<void> {
		if (!(await this.isVisible(sel.credentialModal))) return;
		await this.page.click(`${sel.credentialModal} .el-dialog__headerbtn, ${sel.credentialModal} [data-test-id="close-button"]`).catch(async () => {
			await this.page.keyboard.press('Escape');
		});
		await this.waitUntilGone(sel.credentialModal);
	}

	// -- Canvas --------------------------------------------------------------------------------

	async zoomToFit(): Promise<void> {
		await this.page.click(sel.zoomToFit);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}

	/** A node on the canvas by its name: its text and the labels of its outputs. */
	async canvasNode(name: string): Promise<{ text: string; outputs: string[] }> {
		const node = await this.findByText(sel.canvasNode, name, { exact: false });
		return await node.evaluate((element) => ({
			text: (element as HTMLElement).innerText,
			outputs: Array.from(element.querySelectorAll('[data-test-id="canvas-node-output-handle"]')).map((handle) => (handle as HTMLElement).innerText.trim()),
		}));
	}

	/** Opens a node's parameter panel from the canvas, as a double click does. */
	async openNode(name: string): Promise<void> {
		const node = await this.findByText(sel.canvasNode, name, { exact: false });
		await node.click({ count: 2 });
		await this.waitFor(sel.ndv);
	}

	/** The "+" of an input of a node on the canvas, e.g. an AI Agent's Tool input. */
	async openNodePanelForInput(inputHandleId: string): Promise<void> {
		await this.page.click(`[data-test-id="canvas-node-input-handle"][data-handleid="${inputHandleId}"] ${sel.handlePlus}`);
		await this.waitFor(sel.nodePanelSearch);
	}
}
