// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import axios, { AxiosError } from 'axios';
import { normalizeError, type NormalizedError } from './errors.ts';
import { closedPort, sendJson, startLoopback, type Loopback } from '../test/loopback.ts';
import { common, initTestI18n } from '../test/i18n.ts';

let server: Loopback;

beforeAll(async () => {
  await initTestI18n();
  server = await startLoopback((request, _body, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/hang') return; // never answers
    const status = Number(url.searchParams.get('status') ?? '200');
    const body = url.searchParams.get('body');
    if (body === 'text') {
      response.writeHead(status, { 'Content-Type': 'text/plain' });
      response.end('plain failure');
      return;
    }
    sendJson(response, status, body ? JSON.parse(body) : {});
  });
});

afterAll(() => server.close());

async function failureOf(path: string, options: { timeout?: number; baseURL?: string; method?: 'get' | 'post' } = {}): Promise<NormalizedError> {
  const client = axios.create({ baseURL: options.baseURL ?? server.baseUrl, timeout: options.timeout ?? 5_000 });
  try {
    if (options.method === 'post') await client.post(path, { a: 1 });
    else await client.get(path);
  } catch (error) {
    return normalizeError(error);
  }
  throw new Error('the call did not fail');
}

const withBody = (status: number, body: unknown) => `/x?status=${status}&body=${encodeURIComponent(JSON.stringify(body))}`;

describe('normalizeError', () => {
  it('takes code and detail from the server body', async () => {
    const error = await failureOf(withBody(401, { detail: 'No such user.', code: 'invalid_credentials' }), { method: 'post' });
    expect(error).toMatchObject({ code: 'invalid_credentials', message: 'No such user.', method: 'POST' });
    expect(error.endpoint).toContain('/x?status=401');
    expect(error.details.status).toBe(401);
    expect(error.details.body).toEqual({ detail: 'No such user.', code: 'invalid_credentials' });
    expect(new Date(error.timestamp).toISOString()).toBe(error.timestamp);
  });

  it('falls back to error_code', async () => {
    const error = await failureOf(withBody(409, { error_code: 'duplicate', message: 'Already there' }));
    expect(error).toMatchObject({ code: 'duplicate', message: 'Already there', method: 'GET' });
  });

  it.each([
    [401, 'UNAUTHORIZED'],
    [403, 'FORBIDDEN'],
    [404, 'NOT_FOUND'],
    [500, 'HTTP_500'],
    [418, 'HTTP_418'],
  ])('maps status %i without a code to %s', async (status, code) => {
    const error = await failureOf(withBody(status, {}));
    expect(error.code).toBe(code);
    expect(error.message).toBe(`Server returned status code ${status}`);
  });

  it('takes message, then error, when there is no detail', async () => {
    expect((await failureOf(withBody(400, { message: 'From message' }))).message).toBe('From message');
    expect((await failureOf(withBody(400, { error: 'From error' }))).message).toBe('From error');
    expect((await failureOf(withBody(400, { detail: 'D', message: 'M', error: 'E' }))).message).toBe('D');
  });

  it('says the status code when the body is not JSON', async () => {
    const error = await failureOf('/x?status=502&body=text');
    expect(error).toMatchObject({ code: 'HTTP_502', message: 'Server returned status code 502' });
  });

  it('keeps field errors of a validation answer', async () => {
    const error = await failureOf(
      withBody(400, { detail: 'Invalid input.', code: 'validation_error', errors: { username: ['This field may not be blank.'] } }),
    );
    expect(error.code).toBe('validation_error');
    expect(error.details.fieldErrors).toEqual({ username: ['This field may not be blank.'] });
  });

  it('reports no answer as NETWORK_ERROR', async () => {
    const port = await closedPort();
    const error = await failureOf('/x', { baseURL: `http://127.0.0.1:${port}` });
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.message).toBe('No response received from server (check backend logs and connectivity)');
    expect(error.message).toBe(common.errors.network);
    expect(error.details.status).toBeNull();
    expect(error.details.cause).toMatch(/ECONNREFUSED/);
  });

  it('reports a timeout as TIMEOUT_ERROR', async () => {
    const error = await failureOf('/hang', { timeout: 100 });
    expect(error.code).toBe('TIMEOUT_ERROR');
    expect(error.message).toBe('The request timed out. The server might be busy or there could be a network issue.');
  });

  it('reports an error before sending as REQUEST_SETUP_ERROR', () => {
    const axiosError = new AxiosError('Unsupported protocol ftp:', 'ERR_BAD_REQUEST', { url: '/x', method: 'get' } as never);
    expect(normalizeError(axiosError)).toMatchObject({ code: 'REQUEST_SETUP_ERROR', message: 'Unsupported protocol ftp:', endpoint: '/x', method: 'GET' });
    expect(normalizeError(new TypeError('bad header'))).toMatchObject({ code: 'REQUEST_SETUP_ERROR', message: 'bad header' });
  });

  it('leaves an already normalized error as it is', async () => {
    const error = await failureOf(withBody(404, {}));
    expect(normalizeError(error)).toBe(error);
  });
});
