// Values the global setup hands to the test files.
declare module 'vitest' {
  export interface ProvidedContext {
    /** The server with the normal access-token lifetime. */
    baseUrl: string;
    /** A second server whose access tokens live a few seconds (refresh tests) and that throttles
     * sign-in after `strictLoginFailures` failures per account (throttling test). */
    shortTtlBaseUrl: string;
    shortTtlSeconds: number;
    strictLoginFailures: number;
  }
}

export const demoUser = { username: 'demo', password: 'stockwise-demo' } as const;

/** A user of its own for a test (unique name), registered through the API. */
export async function registerUser(baseUrl: string): Promise<{ username: string; password: string }> {
  const user = { username: `e2e_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`, password: 'Correct-Horse-42-battery' };
  const answer = await fetch(`${baseUrl}/api/accounts/register/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(user),
  });
  if (answer.status !== 201) throw new Error(`registration failed: ${answer.status} ${await answer.text()}`);
  return user;
}
