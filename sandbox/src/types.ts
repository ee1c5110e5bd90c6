export type { FieldDefinition } from './extraction';

/** The 8 operations of spec part 4, by the names faults and stats use. */
export const ENDPOINT_KEYS = [
	'process',
	'upload',
	'getResult',
	'listScanners',
	'createScanner',
	'getScanner',
	'updateScanner',
	'deleteScanner',
] as const;
export type EndpointKey = (typeof ENDPOINT_KEYS)[number];
export type UploadEndpoint = Extract<EndpointKey, 'process' | 'upload'>;

export type Plan = 'free' | 'paid';

/** A JSON response the sandbox is about to send. */
export interface JsonReply {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}
