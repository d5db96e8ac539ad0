// e2e: the real server (apps/server) serving the built web app, driven in Debian's Chromium.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    name: 'e2e',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Two cores: one browser and the servers at a time keeps timings honest.
    fileParallelism: false,
    // One retry: the two cores run the servers, their job workers and Chromium at once, and a page
    // can miss a 30 s wait under that load. A test that fails twice still fails the run. (The one
    // repeatable cause seen so far, a reload during a token rotation, is fixed: ADR 0013.)
    retry: 1,
    // expect.poll gives up after 1 s by default; a page on the two busy cores of a CI run took longer
    // to settle (first-run's scroll to a section). Ten seconds only delays a real failure.
    expect: { poll: { timeout: 10_000 } },
  },
});
