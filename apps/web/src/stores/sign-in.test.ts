import { beforeAll, describe, expect, it } from 'vitest';
import { makeError } from '../api/errors.ts';
import { loginErrorMessage } from './sign-in.ts';
import { initTestI18n } from '../test/i18n.ts';

beforeAll(() => initTestI18n());

const request = { endpoint: '/token/', method: 'POST' };

describe('loginErrorMessage', () => {
  it('says invalid credentials on a 401', () => {
    const error = makeError('invalid_credentials', 'No active account', request, { status: 401 });
    expect(loginErrorMessage(error)).toBe('Invalid username or password. Please try again.');
  });

  it.each(['NETWORK_ERROR', 'TIMEOUT_ERROR'])('explains a %s', (code) => {
    expect(loginErrorMessage(makeError(code, 'x', request))).toBe(
      'Login request failed. This could be due to a network issue or the server taking too long to respond. Please check your connection and try again.',
    );
  });

  it("shows the server's detail when throttled", () => {
    const error = makeError('throttled', 'Too many attempts. Try again in 60 seconds.', request, { status: 429 });
    expect(loginErrorMessage(error)).toBe('Too many attempts. Try again in 60 seconds.');
  });

  it('points at the fields on a validation error', () => {
    const error = makeError('validation_error', 'Invalid input.', request, { status: 400, fieldErrors: { username: ['This field may not be blank.'] } });
    expect(loginErrorMessage(error)).toBe('Please correct the highlighted fields.');
    expect(loginErrorMessage(makeError('validation_error', 'Invalid input.', request, { status: 400 }))).toBe('Invalid input.');
  });
});
