// The verified-token cache of the signer: a token is known until it expires, never after.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTokenSigner } from './tokens.ts';

// A one-second token issued late in a second of the wall clock would expire at once: the tests set
// the clock (Date only; the signing's own promises run for real) to the start of a second and move it.
const START = Date.UTC(2026, 11, 2, 10, 0, 0);
const moveClock = (milliseconds: number) => vi.setSystemTime(Date.now() + milliseconds);

describe('access token verification', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers a verified token from the cache only until the token expires', async () => {
    const signer = createTokenSigner(randomBytes(32), 1);
    const token = await signer.issueAccessToken({ userId: 7, username: 'ada', role: 'viewer' });
    const claims = { userId: 7, username: 'ada', role: 'viewer' };
    expect(await signer.verifyAccessToken(token)).toEqual(claims);
    expect(await signer.verifyAccessToken(token)).toEqual(claims);
    moveClock(900);
    expect(await signer.verifyAccessToken(token)).toEqual(claims);
    moveClock(200);
    expect(await signer.verifyAccessToken(token)).toBeNull();
  });

  it('knows a token without waiting only once it was verified, and only until it expires', async () => {
    const signer = createTokenSigner(randomBytes(32), 1);
    const token = await signer.issueAccessToken({ userId: 8, username: 'grace', role: 'editor' });
    expect(signer.knownAccessToken(token)).toBeUndefined();
    await signer.verifyAccessToken(token);
    expect(signer.knownAccessToken(token)).toEqual({ userId: 8, username: 'grace', role: 'editor' });
    expect(signer.knownAccessToken(`${token}x`)).toBeUndefined();
    moveClock(999);
    expect(signer.knownAccessToken(token)).toEqual({ userId: 8, username: 'grace', role: 'editor' });
    moveClock(1);
    expect(signer.knownAccessToken(token)).toBeUndefined();
  });

  it('never answers a token signed with another key, even one that differs from a cached token only in its signature', async () => {
    const signer = createTokenSigner(randomBytes(32), 60);
    const other = createTokenSigner(randomBytes(32), 60);
    const token = await signer.issueAccessToken({ userId: 1, username: 'ada', role: 'admin' });
    expect(await signer.verifyAccessToken(token)).not.toBeNull();
    const forged = await other.issueAccessToken({ userId: 1, username: 'ada', role: 'admin' });
    expect(await signer.verifyAccessToken(forged)).toBeNull();
    const [header, payload] = token.split('.');
    const [, , foreignSignature] = forged.split('.');
    expect(await signer.verifyAccessToken(`${header}.${payload}.${foreignSignature}`)).toBeNull();
  });
});
