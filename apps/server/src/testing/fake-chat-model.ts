// A real OpenAI-compatible chat-completions server on loopback for tests: it records every request
// and answers from a script (one reply per call, the last one repeated).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedRequest = { path: string; authorization: string | undefined; body: { model: string; messages: { role: string; content: string | null }[]; tools?: unknown[] } & Record<string, unknown> };
export type ScriptedReply = { status?: number; body: unknown } | { content: string } | { toolCalls: { id: string; name: string; arguments: string }[] };

export type FakeChatModel = { baseUrl: string; requests: RecordedRequest[]; script(replies: ScriptedReply[]): void; close(): Promise<void> };

const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
};

function completion(reply: ScriptedReply): { status: number; body: unknown } {
  if ('body' in reply) return { status: reply.status ?? 200, body: reply.body };
  const message =
    'content' in reply
      ? { role: 'assistant', content: reply.content }
      : { role: 'assistant', content: null, tool_calls: reply.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })) };
  return { status: 200, body: { id: 'chatcmpl-test', object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'content' in reply ? 'stop' : 'tool_calls' }] } };
}

export async function startFakeChatModel(): Promise<FakeChatModel> {
  const requests: RecordedRequest[] = [];
  let replies: ScriptedReply[] = [{ content: '{}' }];
  const server: Server = createServer(async (request, response) => {
    const body = JSON.parse(await readBody(request)) as RecordedRequest['body'];
    requests.push({ path: request.url ?? '', authorization: request.headers.authorization, body });
    const reply = completion((replies.length > 1 ? replies.shift() : replies[0]) as ScriptedReply);
    response.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (next) => {
      replies = [...next];
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
