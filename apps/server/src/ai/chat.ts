// The chat model behind every AI feature (report writing here; the assistant's questions with tool
// calls, issue #15): an OpenAI-compatible chat-completions endpoint named by LLM_BASE_URL and
// LLM_MODEL (+ LLM_API_KEY). Features take a `ChatModel | null` and fall back to their built-in,
// deterministic behaviour when it is null (no model configured). docs/architecture.md "AI".
import type { ServerConfig } from '../environment.ts';

export type ToolCall = { id: string; name: string; arguments: string };
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** A function the model may call; `parameters` is a JSON Schema object. */
export type ToolDefinition = { name: string; description: string; parameters: Record<string, unknown> };

export type ChatRequest = { messages: ChatMessage[]; tools?: ToolDefinition[]; temperature?: number; maxTokens?: number; signal?: AbortSignal };
export type ChatCompletion = { content: string | null; toolCalls: ToolCall[]; finishReason: string | null };

export interface ChatModel {
  /** The model's name, as configured (shown in logs and answers). */
  readonly model: string;
  complete(request: ChatRequest): Promise<ChatCompletion>;
}

/** The model could not be asked or answered nonsense; the message is fit for a user. */
export class ChatModelError extends Error {}

const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

type WireMessage = Record<string, unknown>;
const toWire = (message: ChatMessage): WireMessage => {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls?.length ? { tool_calls: message.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })) } : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
};

type WireChoice = { message?: { content?: string | null; tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[] }; finish_reason?: string | null };

export class OpenAiCompatibleChat implements ChatModel {
  readonly model: string;
  private readonly endpoint: string;
  private readonly apiKey: string | null;
  private readonly timeoutMs: number;

  constructor(options: { baseUrl: string; model: string; apiKey: string | null; timeoutMs: number }) {
    this.model = options.model;
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs;
  }

  async complete(request: ChatRequest): Promise<ChatCompletion> {
    const body = {
      model: this.model,
      messages: request.messages.map(toWire),
      temperature: request.temperature ?? 0,
      ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
      ...(request.tools?.length ? { tools: request.tools.map((tool) => ({ type: 'function', function: tool })) } : {}),
    };
    const signals = [AbortSignal.timeout(this.timeoutMs), ...(request.signal ? [request.signal] : [])];
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${this.timeoutMs / 1000} s` : error instanceof Error ? error.message : String(error);
      throw new ChatModelError(`The language model could not be reached (${reason}).`);
    }
    const text = await response.text();
    if (Buffer.byteLength(text) > MAX_ANSWER_BYTES) throw new ChatModelError('The language model answered more than 2 MB.');
    if (!response.ok) {
      let detail = text.slice(0, 300);
      try {
        detail = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? detail;
      } catch {
        // Not JSON: the first characters say enough.
      }
      throw new ChatModelError(`The language model answered HTTP ${response.status}: ${detail}`);
    }
    let choice: WireChoice | undefined;
    try {
      choice = (JSON.parse(text) as { choices?: WireChoice[] }).choices?.[0];
    } catch {
      throw new ChatModelError('The language model did not answer with JSON.');
    }
    if (!choice?.message) throw new ChatModelError('The language model answered without a message.');
    return {
      content: choice.message.content ?? null,
      toolCalls: (choice.message.tool_calls ?? []).map((call, index) => ({ id: call.id ?? `call_${index}`, name: call.function?.name ?? '', arguments: call.function?.arguments ?? '{}' })),
      finishReason: choice.finish_reason ?? null,
    };
  }
}

/** The configured model, or null when LLM_BASE_URL / LLM_MODEL are not set. */
export function createChatModel(llm: ServerConfig['llm']): ChatModel | null {
  return llm ? new OpenAiCompatibleChat(llm) : null;
}
