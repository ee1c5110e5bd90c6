/**
 * n8n's own Gmail Trigger and Microsoft Outlook Trigger, run from the n8n installs the end-to-end
 * suite uses (`npm run n8n:install`, scripts/n8n/paths.ts), so tests see the items those triggers
 * really emit in each n8n line. Each install's trigger runs on that install's own n8n-core and
 * n8n-workflow: its PollContext (what n8n's active-workflow manager hands a poll), its
 * requestWithAuthentication with the OAuth2 signing, its prepareBinaryData. Only the Google and
 * Microsoft APIs are fake (nock: it patches Node's http module, which every copy of axios uses)
 * and the credentials come from memory. Binary data stays inline (base64), n8n 1.x's default
 * mode; n8n 2.x in filesystem mode stores the same file and sets an id instead.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { installDirOf } from '../../scripts/n8n/paths';
import { N8N_RELEASES, type N8nLine } from '../../scripts/n8n/releases';

export type MailTrigger = 'gmail' | 'outlook';

/** The trigger nodes as n8n-nodes-base ships them, and the credential each is set up with. */
const TRIGGERS: Record<MailTrigger, { type: string; module: string; className: string; credentialType: string; credential: IDataObject }> = {
	gmail: {
		type: 'n8n-nodes-base.gmailTrigger',
		module: 'n8n-nodes-base/dist/nodes/Google/Gmail/GmailTrigger.node.js',
		className: 'GmailTrigger',
		credentialType: 'gmailOAuth2',
		credential: { accessTokenUrl: 'https://oauth2.googleapis.com/token', authUrl: 'https://accounts.google.com/o/oauth2/v2/auth' },
	},
	outlook: {
		type: 'n8n-nodes-base.microsoftOutlookTrigger',
		module: 'n8n-nodes-base/dist/nodes/Microsoft/Outlook/MicrosoftOutlookTrigger.node.js',
		className: 'MicrosoftOutlookTrigger',
		credentialType: 'microsoftOutlookOAuth2Api',
		credential: {
			accessTokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
			authUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
			useShared: false,
		},
	},
};

/** An OAuth2 credential after "Connect": n8n signs each request with its access token. */
const OAUTH2_BASE: IDataObject = {
	grantType: 'authorizationCode',
	clientId: 'test-client',
	clientSecret: 'test-secret',
	scope: '',
	authQueryParameters: '',
	authentication: 'header',
	oauthTokenData: { access_token: 'test-access-token', refresh_token: 'test-refresh-token', token_type: 'Bearer', expires_in: 3599 },
};

export const ACCESS_TOKEN = 'test-access-token';

interface Installed {
	line: N8nLine;
	version: string;
	load: <T>(id: string) => T;
}

/** The addresses an installed n8n's additional data carries, as a default local instance has them. */
export const N8N_URLS = {
	restApiUrl: 'http://localhost:5678/rest',
	instanceBaseUrl: 'http://localhost:5678',
	webhookBaseUrl: 'http://localhost:5678/webhook',
	webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
	webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
	formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
} as const;

/**
 * Both n8n lines' installs, or those found: a suite that runs n8n's own nodes skips (and says so)
 * without them, unless CI asks for them after `npm run n8n:install` (REQUIRE_N8N_INSTALLS=1).
 */
export function installedN8nLines(): Installed[] {
	const installs = (['1', '2'] as const).map((line) => installedN8n(line)).filter((n8n) => n8n !== undefined);
	if (installs.length < 2 && process.env.REQUIRE_N8N_INSTALLS === '1') throw new Error('REQUIRE_N8N_INSTALLS is set but n8n 1.x and 2.x are not both installed (npm run n8n:install)');
	return installs;
}

/** The n8n install of `line`, or undefined when it was not installed on this machine. */
export function installedN8n(line: N8nLine): Installed | undefined {
	const release = N8N_RELEASES[line];
	const dir = installDirOf(release);
	if (!existsSync(join(dir, 'node_modules', 'n8n-nodes-base', 'package.json'))) return undefined;
	const load = createRequire(join(dir, 'package.json'));
	return { line, version: release.version, load: <T>(id: string) => load(id) as T };
}

/** The parts of an install's n8n-workflow and n8n-core used here (they are not the repository's copies). */
interface WorkflowModule {
	Workflow: new (parameters: IDataObject) => unknown;
	NodeHelpers: { getVersionedNodeType(type: unknown, version?: number): unknown };
}
interface CoreModule {
	PollContext: new (workflow: unknown, node: IDataObject, additionalData: IDataObject, mode: string, activation: string) => unknown;
}
interface PollingNode {
	description: { version: number | number[] };
	poll(this: unknown): Promise<INodeExecutionData[][] | null>;
}

export interface TriggerRun {
	n8n: Installed;
	trigger: MailTrigger;
	/** The trigger node's parameters as the editor saves them. */
	parameters: INodeParameters;
	/** Default: the newest version the install offers (what a node added in its editor gets). */
	typeVersion?: number;
	/** 'trigger' is an active workflow's poll; 'manual' is "Fetch Test Event" (one message only). */
	mode?: 'trigger' | 'manual';
}

/** The newest version of the trigger in the install: what a node added in that n8n's editor gets. */
export function newestVersion(n8n: Installed, trigger: MailTrigger): number {
	const { version } = triggerType(n8n, trigger).description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

function triggerType(n8n: Installed, trigger: MailTrigger): PollingNode {
	const { module, className } = TRIGGERS[trigger];
	const Type = n8n.load<Record<string, new () => PollingNode>>(module)[className];
	return new Type();
}

/** One poll of the installed trigger, as n8n runs it for an active workflow; its items (none: []). */
export async function pollTrigger(run: TriggerRun): Promise<INodeExecutionData[]> {
	const { Workflow, NodeHelpers } = run.n8n.load<WorkflowModule>('n8n-workflow');
	const { PollContext } = run.n8n.load<CoreModule>('n8n-core');
	const spec = TRIGGERS[run.trigger];
	const nodeType = triggerType(run.n8n, run.trigger);
	const node = {
		id: `${run.trigger}-trigger`,
		name: run.trigger === 'gmail' ? 'Gmail Trigger' : 'Microsoft Outlook Trigger',
		type: spec.type,
		typeVersion: run.typeVersion ?? newestVersion(run.n8n, run.trigger),
		position: [0, 0],
		parameters: run.parameters,
		credentials: { [spec.credentialType]: { id: 'cred-mail', name: 'Mailbox account' } },
	};
	const nodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: (_name: string, version?: number) => NodeHelpers.getVersionedNodeType(nodeType, version),
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ id: `wf-${run.trigger}`, name: 'mail', nodes: [node], connections: {}, active: true, nodeTypes, staticData: {} });
	const credential = { ...OAUTH2_BASE, ...spec.credential };
	const additionalData: IDataObject = {
		credentialsHelper: {
			getParentTypes: () => ['oAuth2Api'],
			getDecrypted: async () => ({ ...credential }),
			getCredentials: async () => {
				throw new Error('not used by the triggers');
			},
			authenticate: async (_credentials: unknown, _type: string, options: unknown) => options,
			preAuthentication: async () => undefined,
			runPreAuthentication: async () => undefined,
			updateCredentials: async () => undefined,
			updateCredentialsOauthTokenData: async () => undefined,
			getCredentialsProperties: () => [],
			isCredentialUsableByNode: () => true,
		},
		...N8N_URLS,
		variables: {},
	};
	const context = new PollContext(workflow, node, additionalData, run.mode ?? 'trigger', 'activate');
	const output = await nodeType.poll.call(context);
	return output?.[0] ?? [];
}
