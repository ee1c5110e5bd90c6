/**
 * A PDF's bytes read as latin1 text (one character per byte, so offsets are byte offsets) without
 * decoding the file into a string: a string would be a second copy of every upload, held until
 * the garbage collector runs, and ten 4 MB uploads at once would hold ten of them. Offers the few
 * string methods the reader uses, with their meaning for out-of-range positions.
 */
export class PdfText {
	private readonly buffer: Buffer;
	readonly length: number;

	constructor(bytes: Uint8Array) {
		this.buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
		this.length = bytes.byteLength;
	}

	/** The byte at `index`; NaN outside the text, as `String.prototype.charCodeAt`. */
	charCodeAt(index: number): number {
		return index >= 0 && index < this.length ? this.buffer[index] : NaN;
	}

	/** The character at `index`; '' outside the text, as `String.prototype.charAt`. */
	charAt(index: number): string {
		return index >= 0 && index < this.length ? String.fromCharCode(this.buffer[index]) : '';
	}

	/** Where `search` next occurs at or after `from`, or -1. */
	indexOf(search: string, from = 0): number {
		return this.buffer.indexOf(search, Math.max(0, from), 'latin1');
	}

	/** Where `search` first lies wholly within [start, end), or -1; reads nothing outside it. */
	indexOfWithin(search: string, start: number, end: number): number {
		const at = this.buffer.subarray(Math.max(0, start), Math.max(0, end)).indexOf(search, 0, 'latin1');
		return at === -1 ? -1 : Math.max(0, start) + at;
	}

	/** Where `search` last lies wholly within [start, end), or -1; reads nothing outside it. */
	lastIndexOfWithin(search: string, start: number, end: number): number {
		const at = this.buffer.subarray(Math.max(0, start), Math.max(0, end)).lastIndexOf(search, undefined, 'latin1');
		return at === -1 ? -1 : Math.max(0, start) + at;
	}

	/** True when `search` occurs at `position` (a negative position counts as 0, as for strings). */
	startsWith(search: string, position: number): boolean {
		const from = Math.max(0, position);
		if (from + search.length > this.length) return false;
		for (let i = 0; i < search.length; i++) if (this.buffer[from + i] !== search.charCodeAt(i)) return false;
		return true;
	}

	/** The text of [start, end) as a string: only for small parts (a number, a name, a header). */
	slice(start: number, end = this.length): string {
		return this.buffer.toString('latin1', Math.max(0, start), Math.min(this.length, Math.max(0, end)));
	}

	/** The bytes of [start, end), as a view (no copy). */
	bytes(start: number, end: number): Uint8Array {
		return this.buffer.subarray(start, end);
	}
}
