/**
 * The sandbox's extraction engine: reads a document's text (PDF text layers, PNG/JPEG text
 * metadata; no OCR) and fills a template's fields from labelled values, as spec parts 2.5 and
 * 2.6 describe the result.
 */
export { sniffType } from './sniff';
export { readDocument } from './read-document';
export { averageConfidence, extractData, OCR_PROVIDER } from './extract';
export { autoBlock, detectTemplate } from './detect';
export { CENT_TOLERANCE, isValidVatId } from './checks';
export { normalizeValue, parseDate, parseEmail, parseMoney, parseNumber, parsePhone, parseBoolean } from './normalize';
export type {
	Detection,
	DetectionCandidate,
	DocumentKind,
	DocumentProblem,
	ExtractedData,
	ExtractedField,
	FieldDefinition,
	FieldValue,
	ReadDocument,
	TableRow,
	TemplateLike,
} from './types';
