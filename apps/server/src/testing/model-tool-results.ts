// Tests of the model's tools: the fake model calls the tools in one round, then answers; what each
// call returned is read back as the model read it, beside the tools it was offered.
import type { AssistantBlock } from '@stockwise/contract';
import { startFakeChatModel, type FakeChatModel } from './fake-chat-model.ts';
import { startTestServer, type Backend, type TestServer } from './test-server.ts';

/** A server whose assistant asks the fake model. */
export async function startServerWithModel(backend: Backend): Promise<{ server: TestServer; model: FakeChatModel }> {
  const model = await startFakeChatModel();
  return { model, server: await startTestServer(backend, { LLM_BASE_URL: model.baseUrl, LLM_MODEL: 'test-model' }) };
}
export async function stopServerWithModel({ server, model }: { server: TestServer; model: FakeChatModel }): Promise<void> {
  await server.stop();
  await model.close();
}

export type ToolCallResult = { text: string; tables: Extract<AssistantBlock, { type: 'table' }>[] };
export type OfferedTool = {
  function: { name: string; description: string; parameters: { properties: Record<string, { type: string; description?: string; minimum?: number; maximum?: number; enum?: string[] }>; required?: string[] } };
};

/**
 * Each call's result — the answer's text and tables, or the refusal ("Error: …") — in the order
 * called, and the tools the model was given; `question` is what the user asked.
 */
export async function modelToolResults(server: TestServer, model: FakeChatModel, token: string, calls: { name: string; args: Record<string, unknown> }[], question = 'how is the shop doing?'): Promise<{ results: ToolCallResult[]; tools: OfferedTool[] }> {
  model.script([{ toolCalls: calls.map((call, i) => ({ id: `call_${i}`, name: call.name, arguments: JSON.stringify(call.args) })) }, { content: 'Done.' }]);
  const response = await server.request('/api/assistant/messages/', { token, body: { content: question } });
  if (response.status !== 200) throw new Error(`The question was answered HTTP ${response.status}: ${response.text}`);
  const [asked, answered] = model.requests.slice(-2);
  const results = (answered?.body.messages ?? []).filter((m) => m.role === 'tool').map((m): ToolCallResult => {
    const content = m.content ?? '';
    if (content.startsWith('Error: ')) return { text: content, tables: [] };
    const blocks = JSON.parse(content) as AssistantBlock[];
    return { text: blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n'), tables: blocks.filter((b): b is Extract<AssistantBlock, { type: 'table' }> => b.type === 'table') };
  });
  if (results.length !== calls.length) throw new Error(`${calls.length} tools were called, ${results.length} answered.`);
  return { results, tools: (asked?.body.tools ?? []) as OfferedTool[] };
}
