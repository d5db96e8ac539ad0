// A throttled sign-in (429) shows the server's own explanation.
import { describe, expect, inject, it } from 'vitest';
import { fillLogin, pathOf, useBrowser } from './support/browser.ts';
import { registerUser } from './support/context.ts';

const browser = useBrowser({ baseUrl: () => inject('shortTtlBaseUrl') });

async function failSignIn(baseUrl: string, username: string): Promise<{ status: number; detail: string }> {
  const answer = await fetch(`${baseUrl}/api/token/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: 'wrong-password' }),
  });
  return { status: answer.status, detail: ((await answer.json()) as { detail: string }).detail };
}

describe('throttled sign-in', () => {
  it("shows the server's detail on a 429", async () => {
    const { page, baseUrl } = browser;
    const user = await registerUser(baseUrl);
    for (let attempt = 0; attempt < inject('strictLoginFailures'); attempt += 1) {
      expect((await failSignIn(baseUrl, user.username)).status).toBe(401);
    }
    const throttled = await failSignIn(baseUrl, user.username);
    expect(throttled.status).toBe(429);

    await page.goto('/login');
    await fillLogin(page, user.username, user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('login-error').waitFor();
    expect(await page.getByTestId('login-error').textContent()).toBe(throttled.detail);
    expect(pathOf(page)).toBe('/login');
  });
});
