// Two real servers over the built web app (npm run test:e2e builds it first): one with the normal
// access-token lifetime, one whose access tokens expire after a few seconds for the refresh test.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { repoRoot, startServer } from './server.ts';
import './context.ts';

const shortTtlSeconds = 3;
/** The second server also throttles sign-in after this many failures per account and address,
 * with a first delay long enough that the browser's attempt still meets it. */
export const strictLoginFailures = 3;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(join(repoRoot, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build` (npm run test:e2e does)');
  }
  const [main, shortTtl] = await Promise.all([
    startServer({ name: 'main', accessTokenTtlSeconds: 900 }),
    startServer({
      name: 'short-ttl',
      accessTokenTtlSeconds: shortTtlSeconds,
      env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: String(strictLoginFailures), LOGIN_DELAY_BASE_SECONDS: '120' },
    }),
  ]);
  project.provide('baseUrl', main.baseUrl);
  project.provide('shortTtlBaseUrl', shortTtl.baseUrl);
  project.provide('shortTtlSeconds', shortTtlSeconds);
  project.provide('strictLoginFailures', strictLoginFailures);
  return async () => {
    await Promise.all([main.stop(), shortTtl.stop()]);
  };
}
