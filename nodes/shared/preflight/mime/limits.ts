/** What one attached email may make the MIME reader do: every cap of its work and memory. */
export const MIME_LIMITS = {
	/** Parts read in one email (leaves and multiparts); more are named as not read. */
	parts: 100,
	/** Multiparts inside multiparts (mail software nests 3 or 4: mixed > related > alternative). */
	depth: 8,
	/** One header block (real ones are a few KB; a long Received chain stays under 100 KB). */
	headerBytes: 256 * 1024,
	headerLines: 4000,
	/** RFC 2046: a boundary has at most 70 characters; some software exceeds it a little. */
	boundaryLength: 200,
	/** Whole emails read (a mail server takes 25-35 MB): larger ones are named, not read. */
	emailBytes: 40_000_000,
	/**
	 * A subject or a file name, as written (a 255-character name in Chinese, percent-encoded, takes
	 * about 2,300): a subject is cut there, a longer file name is no name.
	 */
	textChars: 4000,
	/** RFC 2231 sections of one parameter (a long name takes a few dozen). */
	sections: 100,
	/** Parameters read in one header (real ones have a few; a parameter cut off is not read). */
	parameters: 200,
} as const;
