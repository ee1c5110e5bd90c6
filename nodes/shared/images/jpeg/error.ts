/** What the JPEG decoder throws for a file it cannot or will not decode; the message says why. */
export class JpegError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'JpegError';
	}
}
