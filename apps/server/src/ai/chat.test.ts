import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeChatModel, type FakeChatModel } from '../testing/fake-chat-model.ts';
import { ChatModelError, OpenAiCompatibleChat } from './chat.ts';

describe('OpenAI-compatible chat model', () => {
  let fake: FakeChatModel;
  beforeAll(async () => {
    fake = await startFakeChatModel();
  });
  afterAll(() => fake.close());

  it('sends messages, tools and the key, and reads tool calls back', async () => {
    const model = new OpenAiCompatibleChat({ baseUrl: `${fake.baseUrl}/`, model: 'test-model', apiKey: 'sk-test', timeoutMs: 5000 });
    fake.script([{ toolCalls: [{ id: 'call_1', name: 'run_report', arguments: '{"sql":"select 1"}' }] }]);
    const answer = await model.complete({
      messages: [
        { role: 'system', content: 'You help.' },
        { role: 'user', content: 'Low stock?' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'call_0', name: 'list_tables', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'call_0', content: '["products"]' },
      ],
      tools: [{ name: 'run_report', description: 'Run report SQL', parameters: { type: 'object', properties: { sql: { type: 'string' } } } }],
    });
    expect(answer).toEqual({ content: null, toolCalls: [{ id: 'call_1', name: 'run_report', arguments: '{"sql":"select 1"}' }], finishReason: 'tool_calls' });
    const sent = fake.requests.at(-1);
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.authorization).toBe('Bearer sk-test');
    expect(sent?.body.model).toBe('test-model');
    expect(sent?.body.messages.at(2)).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'list_tables', arguments: '{}' } }] });
    expect(sent?.body.messages.at(3)).toEqual({ role: 'tool', tool_call_id: 'call_0', content: '["products"]' });
    expect(sent?.body.tools).toEqual([{ type: 'function', function: { name: 'run_report', description: 'Run report SQL', parameters: { type: 'object', properties: { sql: { type: 'string' } } } } }]);
  });

  it('turns HTTP errors, nonsense and an unreachable server into ChatModelError', async () => {
    const model = new OpenAiCompatibleChat({ baseUrl: fake.baseUrl, model: 'm', apiKey: null, timeoutMs: 5000 });
    fake.script([{ status: 429, body: { error: { message: 'Rate limit reached' } } }]);
    await expect(model.complete({ messages: [{ role: 'user', content: 'x' }] })).rejects.toThrow(new ChatModelError('The language model answered HTTP 429: Rate limit reached'));
    fake.script([{ body: { choices: [] } }]);
    await expect(model.complete({ messages: [{ role: 'user', content: 'x' }] })).rejects.toThrow(/without a message/);
    const nowhere = new OpenAiCompatibleChat({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', apiKey: null, timeoutMs: 2000 });
    await expect(nowhere.complete({ messages: [{ role: 'user', content: 'x' }] })).rejects.toThrow(/could not be reached/);
  });
});
