import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// Ajv's 2020 build speaks JSON Schema 2020-12, the dialect of OpenAPI 3.1's schemas, so the
// document's schemas are used as written (no conversion step); ajv-formats adds date-time, uuid
// and uri. Both are the maintained, widely used validators (the OpenAPI check of the document
// itself, @seriousme/openapi-schema-validator, is built on them too).
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Checks one answer against docs/openapi.json: its status is documented for the operation the
 * request matched (or, for a request matching none, among the gateway's answers), its body is
 * valid against that status's schema, and the documented headers are there with the right type.
 */

export interface ObservedResponse {
	method: string;
	/** The path after the base URL, e.g. `/api/v1/scanners` (a query string is ignored). */
	path: string;
	status: number;
	headers: Headers;
	text: string;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is read as plain JSON */
type Json = any;

const DOCUMENT_FILE = join(__dirname, '..', '..', 'docs', 'openapi.json');
/** Base URI under which the document is given to Ajv, so its `#/components/...` refs resolve. */
const DOCUMENT_URI = 'https://document-extraction.example/openapi.json';

const document: Json = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8'));
// Strict, so a misspelt keyword in the document's schemas is an error rather than a schema that
// allows anything; type arrays (`["integer", "string", "null"]`) are OpenAPI 3.1's unions.
const ajv = new Ajv2020({ allErrors: true, strictTypes: true, allowUnionTypes: true });
addFormats(ajv);
// The document's top-level members (openapi, paths, components...) are OpenAPI's, not keywords.
ajv.addVocabulary(Object.keys(document));
ajv.addSchema(document, DOCUMENT_URI);

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Located {
	value: Json;
	/** JSON pointer of the value inside the document (after following refs). */
	pointer: string;
}

/** The operation a request matches, with the pointer of its `responses`. */
function operationFor(method: string, path: string): { name: string; responses: Located } | undefined {
	const key = method.toLowerCase();
	if (!METHODS.includes(key)) return undefined;
	const pathname = path.split('?')[0];
	for (const [template, item] of Object.entries<Json>(document.paths)) {
		const operation = item[key];
		if (!operation || !new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname)) continue;
		const pointer = `/paths/${escape(template)}/${key}/responses`;
		return { name: operation.operationId, responses: { value: operation.responses, pointer } };
	}
	return undefined;
}

export function problemsWith(response: ObservedResponse): string[] {
	const operation = operationFor(response.method, response.path);
	const name = operation?.name ?? 'a request that matches no operation';
	const responses = operation?.responses ?? { value: document['x-gateway-responses'], pointer: '/x-gateway-responses' };
	const status = String(response.status);
	if (!(status in responses.value)) {
		return [`${name}: undocumented status ${status} (documented: ${Object.keys(responses.value).join(', ')})`];
	}
	const answer = follow({ value: responses.value[status], pointer: `${responses.pointer}/${status}` });
	return [...headerProblems(answer, response), ...bodyProblems(answer, response)].map((problem) => `${name} ${status}: ${problem}`);
}

/** Throws one error naming every way the answer departs from the document. */
export function expectDocumented(response: ObservedResponse): void {
	const problems = problemsWith(response);
	if (problems.length === 0) return;
	throw new Error(
		`${response.method} ${response.path}: the answer is not what docs/openapi.json allows:\n- ${problems.join('\n- ')}\nbody: ${response.text.slice(0, 1000)}`,
	);
}

function headerProblems(answer: Located, response: ObservedResponse): string[] {
	return Object.entries<Json>(answer.value.headers ?? {}).flatMap(([name, entry]) => {
		const header = follow({ value: entry, pointer: `${answer.pointer}/headers/${escape(name)}` });
		const raw = response.headers.get(name);
		if (raw === null) return header.value.required ? [`header ${name} is missing`] : [];
		const validate = schemaAt(`${header.pointer}/schema`);
		// Headers travel as text: a number the schema asks for is read from its digits.
		const value = /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
		return validate(value) ? [] : [`header ${name} "${raw}" ${ajv.errorsText(validate.errors, { dataVar: name })}`];
	});
}

function bodyProblems(answer: Located, response: ObservedResponse): string[] {
	const content: Record<string, Json> = answer.value.content ?? {};
	const mediaTypes = Object.keys(content);
	if (mediaTypes.length === 0) return response.text === '' ? [] : ['a body where the document has none'];
	const received = response.headers.get('content-type')?.split(';')[0].trim().toLowerCase() ?? '(none)';
	if (!mediaTypes.includes(received)) return [`content type ${received}, documented: ${mediaTypes.join(', ')}`];
	let body: unknown;
	try {
		body = JSON.parse(response.text);
	} catch {
		return ['the body is not JSON'];
	}
	const validate = schemaAt(`${answer.pointer}/content/${escape(received)}/schema`);
	return validate(body) ? [] : (validate.errors ?? []).map((error) => `body${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`);
}

/** Compiles the header and body schemas of every documented answer; returns how many. */
export function compileEveryAnswer(): number {
	const lists: Located[] = [{ value: document['x-gateway-responses'], pointer: '/x-gateway-responses' }];
	for (const [template, item] of Object.entries<Json>(document.paths)) {
		for (const key of METHODS.filter((method) => item[method])) {
			lists.push({ value: item[key].responses, pointer: `/paths/${escape(template)}/${key}/responses` });
		}
	}
	let count = 0;
	for (const list of lists) {
		for (const status of Object.keys(list.value)) {
			const answer = follow({ value: list.value[status], pointer: `${list.pointer}/${status}` });
			for (const [name, entry] of Object.entries<Json>(answer.value.headers ?? {})) {
				schemaAt(`${follow({ value: entry, pointer: `${answer.pointer}/headers/${escape(name)}` }).pointer}/schema`);
				count++;
			}
			for (const media of Object.keys(answer.value.content ?? {})) {
				schemaAt(`${answer.pointer}/content/${escape(media)}/schema`);
				count++;
			}
		}
	}
	return count;
}

/** Follows `$ref`s between the document's components (responses, headers). */
function follow(located: Located): Located {
	let current = located;
	for (let depth = 0; typeof current.value?.$ref === 'string'; depth++) {
		if (depth > 10) throw new Error(`ref loop at ${current.pointer}`);
		const pointer = current.value.$ref.replace(/^#/, '');
		current = { value: pointer.split('/').slice(1).map(unescape).reduce((node: Json, key: string) => node?.[key], document), pointer };
		if (current.value === undefined) throw new Error(`docs/openapi.json: nothing at ${pointer}`);
	}
	return current;
}

const compiled = new Map<string, ValidateFunction>();

function schemaAt(pointer: string): ValidateFunction {
	let validate = compiled.get(pointer);
	if (!validate) {
		validate = ajv.compile({ $ref: `${DOCUMENT_URI}#${pointer}` });
		compiled.set(pointer, validate);
	}
	return validate;
}

function escape(key: string): string {
	return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescape(key: string): string {
	return key.replace(/~1/g, '/').replace(/~0/g, '~');
}
