/** What an upload request's body carried. */
export type ParsedUpload =
	| { kind: 'file'; bytes: Uint8Array; filename: string; contentType: string }
	| { kind: 'noFile' }
	| { kind: 'parseError' };

/**
 * Reads the multipart part `file` (spec 4.2). Node's own `Request` parses multipart; a body
 * that is not multipart at all carries no file, a multipart body that cannot be parsed is an
 * UPLOAD_PARSE_ERROR.
 */
export async function parseUpload(contentType: string | undefined, body: Uint8Array): Promise<ParsedUpload> {
	if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) return { kind: 'noFile' };
	let form: FormData;
	try {
		form = await new Request('http://sandbox.local/', { method: 'POST', headers: { 'content-type': contentType }, body: body as Uint8Array<ArrayBuffer> }).formData();
	} catch {
		return { kind: 'parseError' };
	}
	const file = form.get('file');
	if (file === null || typeof file === 'string' || file.size === 0) return { kind: 'noFile' };
	return {
		kind: 'file',
		bytes: new Uint8Array(await file.arrayBuffer()),
		filename: file.name,
		contentType: file.type,
	};
}
