/** The kinds of file the preflight knows, and the file name sent with each. */

/** WebP and HEIC are sent with a warning: the service takes them but does not promise to read them (spec 4.2). */
export type UploadKind = 'pdf' | 'jpeg' | 'png' | 'webp' | 'heic';

export const UPLOAD_KINDS: Record<UploadKind, { mimeType: string; extensions: string[]; label: string }> = {
	pdf: { mimeType: 'application/pdf', extensions: ['pdf'], label: 'PDF' },
	jpeg: { mimeType: 'image/jpeg', extensions: ['jpg', 'jpeg', 'jpe', 'jfif'], label: 'JPEG image' },
	png: { mimeType: 'image/png', extensions: ['png'], label: 'PNG image' },
	webp: { mimeType: 'image/webp', extensions: ['webp'], label: 'WebP image' },
	heic: { mimeType: 'image/heic', extensions: ['heic', 'heif'], label: 'HEIC/HEIF image' },
};

/** Extensions that name some file type: a wrong one is replaced, anything else (`invoice.2024`) is kept. */
const KNOWN_EXTENSIONS = new Set([
	...Object.values(UPLOAD_KINDS).flatMap((kind) => kind.extensions),
	...['webp', 'heic', 'heif', 'avif', 'gif', 'tif', 'tiff', 'bmp', 'txt', 'csv', 'html', 'htm', 'xml', 'json'],
	...['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'rtf', 'zip', 'bin', 'dat', 'tmp'],
]);

/**
 * The name sent with the file. The content decides the type; a name that says otherwise
 * (`invoice.pdf` holding a PNG) is corrected to `invoice.png`, because the name is shown in
 * the service's results and a service may judge the type by it. A missing name becomes
 * `document.<ext>`.
 */
export function nameForContent(fileName: string | undefined, kind: UploadKind): string {
	const name = fileName?.trim() || 'document';
	const { extensions } = UPLOAD_KINDS[kind];
	const extension = extensionOf(name);
	if (extensions.includes(extension)) return name;
	const stem = KNOWN_EXTENSIONS.has(extension) ? name.slice(0, -(extension.length + 1)) : name;
	return `${stem || 'document'}.${extensions[0]}`;
}

export function extensionOf(fileName: string): string {
	return /\.([A-Za-z0-9]{1,5})$/.exec(fileName.trim())?.[1].toLowerCase() ?? '';
}
