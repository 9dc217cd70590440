/**
 * `npm run seed:scale -- --buyers 200000 --orders 300000 [--seed N]`: a large, plausible shop in an empty database
 * (DATABASE_URL, or the embedded database in DATA_DIR), for `npm run bench -- --scale` and for trying the dashboard
 * on years of data. What it writes and how: test/support/scale-shop.ts. Prints each table's time, and writes what
 * a benchmark needs to find in it (buyers, keys, ids) to DATA_DIR/seed-scale.json.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createAppContext } from '../src/server/compose';
import { openDatabase } from '../src/server/db';
import { loadConfig } from '../src/server/kernel/config';
import { seedScale } from '../test/support/scale-shop';

const { values } = parseArgs({
  options: {
    buyers: { type: 'string', default: '200000' },
    orders: { type: 'string', default: '300000' },
    seed: { type: 'string', default: '1' },
  },
});
const options = { buyers: Number(values.buyers), orders: Number(values.orders), seed: Number(values.seed) };
if (!Object.values(options).every(Number.isInteger) || options.buyers < 2 || options.orders < 150) {
  console.error('Usage: npm run seed:scale -- --buyers N (≥ 2) --orders N (≥ 150) [--seed N]');
  process.exit(2);
}

process.umask(0o077);
const config = loadConfig({ LOG_LEVEL: 'silent', ...process.env });
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: path.join(config.dataDir, 'pglite'),
});
const started = performance.now();
try {
  await database.migrate();
  const ctx = createAppContext({ config, db: database.db });
  console.log(
    `Seeding ${options.buyers} buyers and ${options.orders} orders (seed ${options.seed}) into ${config.databaseUrl ? 'PostgreSQL' : config.dataDir}:`,
  );
  const manifest = await seedScale(ctx, options);
  const file = path.join(config.dataDir, 'seed-scale.json');
  writeFileSync(file, JSON.stringify(manifest, null, 2), { mode: 0o600 });
  console.log(
    `Done in ${((performance.now() - started) / 1000).toFixed(1)} s; what a benchmark needs: ${file}`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
