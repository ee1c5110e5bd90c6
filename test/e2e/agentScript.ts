import type { ChatReply, ChatRequest } from './fakeChatModel';

/**
 * The model's side of the AI-agent example, as a script: list the templates, read the result whose
 * ID the user gave (again while it is pending), answer with what the tools returned. Every value
 * it passes on comes from the conversation: the user's message or a tool's real answer.
 */
export function scriptedAccountant(request: ChatRequest): ChatReply {
	const toolAnswers = request.messages.filter((message) => message.role === 'tool').map((message) => parseToolAnswer(message.content));
	if (toolAnswers.length === 0) return { toolCall: { name: toolNamed(request, 'List'), arguments: {} } };
	const last = toolAnswers[toolAnswers.length - 1];
	const invoice = search(last, (object) => typeof object.invoice_number === 'string');
	if (invoice) {
		const template = (invoice.extraction as { template?: { name?: string } } | undefined)?.template?.name;
		return { content: `Invoice ${String(invoice.invoice_number)}: total ${String(invoice.total)} (template ${String(template)})` };
	}
	const userText = request.messages.filter((message) => message.role === 'user').map((message) => JSON.stringify(message.content)).join(' ');
	const resultId = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(userText)?.[0];
	if (!resultId) throw new Error(`No result ID in the user's message: ${userText.slice(0, 300)}`);
	return { toolCall: { name: toolNamed(request, 'Read'), arguments: { result_id: resultId } } };
}

function toolNamed(request: ChatRequest, part: string): string {
	const tool = request.tools?.find((candidate) => candidate.function.name.includes(part));
	if (!tool) throw new Error(`The agent offers no tool named like "${part}": ${JSON.stringify(request.tools?.map((t) => t.function.name))}`);
	return tool.function.name;
}

function parseToolAnswer(content: unknown): unknown {
	const text = typeof content === 'string' ? content : JSON.stringify(content);
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

type JsonObject = Record<string, unknown>;

/** The first object, however deep (tool answers are JSON text, sometimes JSON inside JSON), that `test` accepts. */
function search(value: unknown, test: (object: JsonObject) => boolean): JsonObject | undefined {
	if (typeof value === 'string') {
		const trimmed = value.trim();
		if (trimmed.startsWith('{') || trimmed.startsWith('[')) return search(parseToolAnswer(trimmed), test);
		return undefined;
	}
	if (Array.isArray(value)) {
		for (const entry of value) {
			const found = search(entry, test);
			if (found) return found;
		}
		return undefined;
	}
	if (value && typeof value === 'object') {
		if (test(value as JsonObject)) return value as JsonObject;
		for (const entry of Object.values(value)) {
			const found = search(entry, test);
			if (found) return found;
		}
	}
	return undefined;
}
