import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, inject } from 'vitest';

import { N8nCli, type Execution, type WorkflowJson } from '../../scripts/n8n/cli';
import { describeFailure } from '../../scripts/n8n/failure';
import { NODE_TYPES } from '../../scripts/n8n/paths';
import type { RunData } from '../../scripts/n8n/runData';
import type { Owner } from '../../scripts/n8n/server';
import { sandboxCredential } from '../../scripts/n8n/workflows';
import { loadFixture, type FixtureName } from '../fixtures';
import { startSandboxProcess, type RemoteSandbox, type SandboxProcessOptions } from '../harness/remoteSandbox';

export { NODE_TYPES };

/**
 * The owner of the n8n the suite shares: the first test that starts n8n sets it up, the others
 * sign in. Each test file runs in a process of its own, so the password is derived from the
 * shared user folder rather than drawn at random.
 */
export function e2eOwner(): Owner {
	const secret = createHash('sha256').update(inject('n8nUserFolder')).digest('hex').slice(0, 16);
	return { email: 'owner@example.com', password: `Owner-${secret}-1`, firstName: 'Ada', lastName: 'Owner' };
}

/** The n8n prepared by globalSetup (shared user folder). */
export function n8n(): N8nCli {
	return new N8nCli(inject('n8nRuntime'), inject('n8nUserFolder'));
}

/** A workflow node as it is saved in a workflow's JSON. */
export interface WorkflowNode {
	name: string;
	type: string;
	typeVersion?: number;
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
	executeOnce?: boolean;
	webhookId?: string;
}

export const START = 'Start';

/**
 * Builds test workflows: a Manual Trigger named "Start", nodes, and connections by name. Several
 * checks share one workflow where they can, since every n8n start costs seconds.
 */
export class WorkflowBuilder {
	private readonly nodes: WorkflowNode[] = [{ name: START, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} }];
	private readonly connections: Record<string, { main: Array<Array<{ node: string; type: 'main'; index: number }>> }> = {};

	constructor(
		readonly id: string,
		readonly name: string,
	) {}

	add(node: WorkflowNode, after?: string, output = 0): this {
		this.nodes.push(node);
		if (after) this.connect(after, node.name, output);
		return this;
	}

	connect(from: string, to: string, output = 0): this {
		const outputs = (this.connections[from] ??= { main: [] }).main;
		while (outputs.length <= output) outputs.push([]);
		outputs[output].push({ node: to, type: 'main', index: 0 });
		return this;
	}

	build(): WorkflowJson {
		return {
			id: this.id,
			name: this.name,
			active: false,
			settings: { executionOrder: 'v1' },
			nodes: this.nodes.map((node, i) => ({
				typeVersion: 1,
				parameters: {},
				position: [i * 220, 0],
				id: `${this.id}-${i}`,
				...node,
			})) as WorkflowJson['nodes'],
			connections: this.connections,
		};
	}
}

export function credentialRef(id: string): WorkflowNode['credentials'] {
	return { documentExtractionApi: { id, name: id } };
}

/** The Document Extraction node (action) with a credential. */
export function action(name: string, credentialId: string, parameters: Record<string, unknown>, extra: Partial<WorkflowNode> = {}): WorkflowNode {
	return { name, type: NODE_TYPES.action, parameters, credentials: credentialRef(credentialId), ...extra };
}

export function poller(name: string, credentialId: string, parameters: Record<string, unknown>, extra: Partial<WorkflowNode> = {}): WorkflowNode {
	return { name, type: NODE_TYPES.poller, parameters, credentials: credentialRef(credentialId), ...extra };
}

export function readFiles(name: string, fileSelector: string): WorkflowNode {
	return { name, type: 'n8n-nodes-base.readWriteFile', parameters: { operation: 'read', fileSelector, options: {} } };
}

/** Items in file-name order: the Read node's order is the file system's, and fault queues count uploads in order. */
export function sortByFileName(name: string): WorkflowNode {
	return {
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { jsCode: 'return $input.all().sort((a, b) => a.binary.data.fileName.localeCompare(b.binary.data.fileName));' },
	};
}

export function noOp(name: string): WorkflowNode {
	return { name, type: 'n8n-nodes-base.noOp' };
}

export function templateById(id: string): Record<string, unknown> {
	return { __rl: true, mode: 'id', value: id };
}

/**
 * Sample documents written under the given names (sub-folders allowed) into a fresh folder for a
 * Read node to pick up: inside n8n's `~/.n8n-files`, the one folder n8n 2.x reads by default.
 */
export async function documentFolder(files: Record<string, FixtureName>): Promise<{ dir: string; remove: () => void }> {
	const dir = mkdtempSync(join(n8n().filesFolder, 'docs-'));
	for (const [fileName, fixture] of Object.entries(files)) {
		mkdirSync(dirname(join(dir, fileName)), { recursive: true });
		writeFileSync(join(dir, fileName), (await loadFixture(fixture)).bytes);
	}
	return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A sandbox as its users run it: the command of the package globalSetup installed, started as a
 * process of its own (fast timing and no state unless asked otherwise), and a client for its API
 * and admin endpoints. `stop()` ends the process.
 */
export async function startE2eSandbox(options: SandboxProcessOptions = {}): Promise<RemoteSandbox> {
	return await startSandboxProcess(inject('sandboxInstallDir'), options);
}

/** A sandbox process (see `startE2eSandbox`) and an n8n credential for its demo account. */
export async function sandboxWithCredential(credentialId: string, options: SandboxProcessOptions = {}): Promise<{ sandbox: RemoteSandbox; cli: N8nCli }> {
	const sandbox = await startE2eSandbox(options);
	const cli = n8n();
	await cli.importCredentials([sandboxCredential(sandbox.baseUrl, sandbox.demoKey, { id: credentialId, name: credentialId })]);
	return { sandbox, cli };
}

/** Executes and expects success; the failure message says what n8n reported. */
export async function executeOk(cli: N8nCli, workflowId: string): Promise<RunData> {
	const execution = await cli.execute(workflowId);
	if (!execution.ok || !execution.run) expect.fail(`Workflow ${workflowId} failed: ${describeFailure(execution)}`);
	return execution.run;
}

/** Executes and expects the workflow to stop with an error; returns the run data. */
export async function executeFailing(cli: N8nCli, workflowId: string): Promise<Execution & { run: RunData }> {
	const execution = await cli.execute(workflowId);
	expect(execution.ok, 'the workflow should have failed').toBe(false);
	if (!execution.run) expect.fail(`n8n printed no run data: ${describeFailure(execution)}`);
	return execution as Execution & { run: RunData };
}
