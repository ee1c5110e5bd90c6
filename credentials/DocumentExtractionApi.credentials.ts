import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { API_PREFIX, apiKeyProblem, baseUrlProblem, normaliseBaseUrl } from '../nodes/shared/http/connection';

export class DocumentExtractionApi implements ICredentialType {
	name = 'documentExtractionApi';

	displayName = 'Document Extraction API';

	icon: Icon = { light: 'file:../icons/documentExtraction.svg', dark: 'file:../icons/documentExtraction.dark.svg' };

	documentationUrl = 'https://github.com/document-extraction/n8n-nodes-document-extraction#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				"Create a key in the API section of your account in the service's web app. A key starts with the service's prefix and an underscore, followed by a long secret (prefix_secret).",
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://api.example.com',
			description:
				"The extraction service's API address, as its API documentation gives it, e.g. https://api.example.com (a pasted /api/v1 or trailing slash is ignored). To try workflows without using pages, run the sandbox from the package's source repository (npm run sandbox in a clone; it is not part of the installed package) and enter http://127.0.0.1:4010; from n8n in Docker, e.g. http://host.docker.internal:4010 with Allow Plain HTTP on My Own Network on.",
		},
		{
			displayName: 'Allow Plain HTTP on My Own Network',
			name: 'allowPlainHttpOnOwnNetwork',
			type: 'boolean',
			default: false,
			description:
				'Whether the API key may be sent over plain http:// to a private network address (10.x, 172.16-31.x, 192.168.x, fd00::) or a local name (sandbox, host.docker.internal, *.local, *.internal, *.lan, *.home.arpa), e.g. the sandbox beside n8n in Docker. The key then travels unencrypted: meant for the sandbox or a test server, never for the real service. Public addresses and names always need https://.',
		},
		{
			displayName:
				'The API key now travels unencrypted to http:// addresses on your network. Use this for the sandbox or a test server only, never with the real service or its key.',
			name: 'plainHttpNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { allowPlainHttpOnOwnNetwork: [true] } },
		},
	];

	/**
	 * A function rather than a generic header block: it is the one place every request passes
	 * before the key is attached, so it refuses keys that cannot work, refuses to send the key over
	 * plain http to another machine and turns redirects off — for node requests and the credential
	 * test alike.
	 */
	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const keyProblem = apiKeyProblem(credentials.apiKey);
		if (keyProblem) throw new Error(keyProblem);
		if (requestOptions.baseURL !== undefined) requestOptions.baseURL = normaliseBaseUrl(requestOptions.baseURL);
		const target = requestOptions.baseURL ? requestOptions.baseURL + requestOptions.url : requestOptions.url;
		const urlProblem = baseUrlProblem(originOf(target), credentials);
		if (urlProblem) throw new Error(urlProblem);
		requestOptions.headers = { ...requestOptions.headers, 'X-API-Key': credentials.apiKey as string };
		// The service answers with no redirect (spec 4.1); a redirect would carry the key to whoever it names.
		requestOptions.disableFollowRedirect = true;
		return requestOptions;
	}

	/**
	 * The answer is read whatever its status (`ignoreHttpStatusErrors`), and the rules look at its
	 * body: n8n 1.x applies status-code rules only to some errors, so a refused key would otherwise
	 * read "Authorization failed - please check your credentials". Rules run in order; the last
	 * one catches every answer that is not the list of templates (an HTML page, another service).
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: `${API_PREFIX}/scanners`,
			method: 'GET',
			ignoreHttpStatusErrors: true,
			// Also set by `authenticate`; stated here because the test is where a wrong Base URL shows.
			disableFollowRedirect: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error_code',
					value: 'INVALID_API_KEY',
					message:
						'The service refused the API key (401 INVALID_API_KEY). Copy the key again from the API section of your account; a regenerated key replaces the old one at once.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error_code',
					value: 'API_KEY_REQUIRED',
					message: 'The service received no API key (401 API_KEY_REQUIRED). Paste your key into the API Key field.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: 'Missing Authentication Token',
					message:
						'The service does not know this address (403 "Missing Authentication Token"). Check the Base URL: it is the address of the service, e.g. https://api.example.com.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error_code',
					value: 'RATE_LIMITED',
					message: 'The key was accepted but is over its per-minute request limit right now (429). Wait a minute and test again.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'scanners',
					value: undefined,
					message:
						'The Base URL did not answer like the extraction service (no list of templates came back). Check the Base URL, e.g. https://api.example.com, or http://127.0.0.1:4010 for the sandbox.',
				},
			},
		],
	};
}

function originOf(url: string | undefined): string {
	try {
		return new URL(url ?? '').origin;
	} catch {
		return url ?? '';
	}
}
