export class PngError extends Error {
	constructor(message: string) {
		super(`PNG: ${message}`);
		this.name = 'PngError';
	}
}
