import { defineConfig } from 'vitest/config';

// One unit/integration run over every workspace; e2e has its own config (e2e/vitest.config.ts).

// A worker running PGlite's WebAssembly died twice in CI runs on a V8 check while freeing wasm code
// ("Check failed: jit_page_->allocations_.erase(addr) == 1", UnregisterWasmAllocation, SIGTRAP):
// its code is freed with its module, not by the wasm code collector, which that path serves.
// A request without time_zone reads the server's zone when the shop chose none (ADR 0173): tests
// that work out "today" in UTC hold on a machine set to another zone.
const serverOptions = { testTimeout: 60_000, hookTimeout: 120_000, execArgv: ['--no-wasm-code-gc'], env: { TZ: 'UTC' } };
/** Server tests that read the state of their whole process (the nice values of its V8 threads, ADR 0120). */
const ownProcess = ['apps/server/src/forecasting/priority.test.ts'];

export default defineConfig({
  test: {
    // Two files at a time on any machine (vitest's default is one fewer than the cores: one here).
    // Much of the server suite waits on child processes, timers and sockets; docs/adr/0172.
    maxWorkers: 2,
    projects: [
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'] } },
      { test: { name: 'forecast', include: ['packages/forecast/src/**/*.test.ts', 'bench/forecast/**/*.test.ts'], testTimeout: 60_000 } },
      // Each worker's process runs server test file after file (isolate: false): importing the
      // server's modules anew for each of ~200 files was a quarter of the suite's time (ADR 0204).
      { test: { name: 'server', include: ['apps/server/src/**/*.test.ts'], exclude: ownProcess, isolate: false, ...serverOptions } },
      { test: { name: 'server-own-process', include: ownProcess, ...serverOptions } },
      // Rendering Mantine's comboboxes in jsdom is CPU work: beside the server's tests on two busy cores a
      // Shop panel test took over vitest's default 5 s (reproduced with three busy loops on two cores).
      { test: { name: 'web', include: ['apps/web/src/**/*.test.{ts,tsx}'], environment: 'jsdom', setupFiles: ['apps/web/src/test/setup.ts'], testTimeout: 30_000 } },
    ],
  },
});
