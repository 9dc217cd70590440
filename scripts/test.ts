/**
 * `npm test`: everything CI runs, in order — typecheck, lint, dead-code check, build, unit + API tests (PGlite, and
 * PostgreSQL when TEST_DATABASE_URL is set), browser journeys in headless Chromium, then the quality budgets that do
 * not depend on timing. Ends with one line `N passed, N failed` counting every test case plus the typecheck, lint,
 * dead-code, build and budget steps.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, 'reports');
mkdirSync(reports, { recursive: true });
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);

let passed = 0;
let failed = 0;
const failures: string[] = [];

function step(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): boolean {
  console.log(`\n── ${name} ──`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = result.status === 0;
  console.log(
    `── ${name}: ${ok ? 'ok' : `FAILED (exit ${result.status ?? result.signal})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return ok;
}

function countStep(name: string, ok: boolean) {
  if (ok) passed += 1;
  else {
    failed += 1;
    failures.push(name);
  }
}

countStep('typecheck', step('typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']));
countStep('lint', step('lint', bin('biome'), ['check', '.']));
// Unused files, exports and dependencies (knip.json names the entry points).
countStep('dead code', step('dead code', bin('knip'), []));
const built = step('build', process.execPath, ['--import', 'tsx', 'scripts/build.ts']);
countStep('build', built);

// The servers and command lines the tests start run what was just built, as production does (test/support/processes.ts).
const runBuilt = built ? { TEST_RUN_BUILT: '1' } : {};

const vitestReport = path.join(reports, 'vitest.json');
const vitestOk = step(
  'unit and API tests',
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
  runBuilt,
);
if (existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    testResults: Array<{ assertionResults: Array<{ status: string; fullName: string }> }>;
  };
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  for (const file of report.testResults) {
    for (const test of file.assertionResults) if (test.status === 'failed') failures.push(test.fullName);
  }
  if (!vitestOk && report.numFailedTests === 0) countStep('vitest (suite error)', false);
} else {
  countStep('vitest (no report)', false);
}

if (!process.env.TEST_DATABASE_URL) {
  console.log(
    '\nnote: TEST_DATABASE_URL is not set, so the API tests ran on PGlite only (.ci/run also runs them on PostgreSQL)',
  );
}

if (built) {
  const e2eReport = path.join(reports, 'e2e.json');
  const e2eOk = step('browser journeys', bin('playwright'), ['test'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport,
    ...runBuilt,
  });
  if (existsSync(e2eReport)) {
    const report = JSON.parse(readFileSync(e2eReport, 'utf8')) as {
      stats: { expected: number; unexpected: number; flaky: number; skipped: number };
      errors?: unknown[];
    };
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected + report.stats.skipped;
    if (report.stats.unexpected > 0) failures.push(`${report.stats.unexpected} browser journey(s)`);
    if (!e2eOk && report.stats.unexpected === 0) countStep('playwright (suite error)', false);
  } else {
    countStep('playwright (no report)', false);
  }
} else {
  countStep('browser journeys (build failed)', false);
}

countStep(
  'quality budgets (Lighthouse accessibility / best practices / SEO, axe, CLS, home JS size)',
  built && step('quality budgets', process.execPath, ['--import', 'tsx', 'scripts/audit.ts', '--ci']),
);

if (failures.length > 0) console.log(`\nFailed:\n${failures.map((name) => `  - ${name}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
