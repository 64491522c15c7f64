import { defineConfig } from 'vitest/config';
import solid from 'vite-plugin-solid';

// Three node projects (unit, integration, e2e) and one DOM project for renderer logic.
// The Solid plugin is only in the renderer project: in a node project it would switch `ws`
// to its browser stub.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['test/unit/**/*.test.ts'],
          // Property and fuzz tests run thousands of cases: a second or two on a quiet machine, over
          // five seconds on two loaded cores. Nothing here asserts time (benchmarks do, in bench/).
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/build-once.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'electron',
          environment: 'node',
          include: ['test/electron/**/*.test.ts'],
          globalSetup: ['test/support/build-once.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        plugins: [solid()],
        test: {
          name: 'renderer',
          environment: 'node',
          include: ['test/renderer/**/*.test.{ts,tsx}'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
