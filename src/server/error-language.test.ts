import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One error language (decision 053): services throw `DomainError`; only the HTTP adapter speaks HTTP. The helpers
 * that make HTTP errors (`AppError`, `badRequest`, `notFound`, `parseInput`, …) may be imported by route files
 * (`routes.ts`, `*-routes.ts`, anything in a `routes/` folder) and by `http/` itself (the one mapper from domain
 * codes to statuses), nowhere else. Tests are left out.
 */
const serverDir = import.meta.dirname;

const HTTP_ERROR_HELPERS = new Set([
  'AppError',
  'badRequest',
  'unauthorized',
  'notFound',
  'tooManyRequests',
  'parseInput',
  'httpErrorOf',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });
}

/** A route file says so by its name. */
const isRouteFile = (relative: string): boolean =>
  /(^|\/)routes\.ts$|-routes\.ts$|(^|\/)routes\//.test(relative.split(path.sep).join('/'));

const mayImportHttpErrors = (relative: string) =>
  isRouteFile(relative) || relative.split(path.sep)[0] === 'http';

/** The HTTP error helpers a source text imports from `http/errors`. */
function httpErrorHelpersIn(source: string): string[] {
  const names: string[] = [];
  for (const [, list] of source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'[^']*\/http\/errors'/g))
    for (const name of (list as string).split(','))
      names.push(
        name
          .replace(/^\s*type\s+/, '')
          .split(' as ')[0]
          ?.trim() ?? '',
      );
  return names.filter((name) => HTTP_ERROR_HELPERS.has(name));
}

function offenders(): string[] {
  return sourceFiles(serverDir)
    .map((file) => path.relative(serverDir, file))
    .filter((relative) => !mayImportHttpErrors(relative))
    .flatMap((relative) => {
      const helpers = httpErrorHelpersIn(readFileSync(path.join(serverDir, relative), 'utf8'));
      return helpers.length > 0 ? [`${relative}: ${helpers.join(', ')}`] : [];
    });
}

describe('one error language', () => {
  it('finds the helpers an import names, type or value, on one line or several', () => {
    const sample = `import { AppError, parseInput } from '../http/errors';\nimport type {\n  notFound as missing,\n  ErrorBody,\n} from '../../http/errors';`;
    expect(httpErrorHelpersIn(sample)).toEqual(['AppError', 'parseInput', 'notFound']);
    expect(isRouteFile('dashboard/routes/orders.ts')).toBe(true);
    expect(isRouteFile('account/settings-routes.ts')).toBe(true);
    expect(isRouteFile('payments/create-payment.ts')).toBe(false);
  });

  it('keeps the HTTP error helpers in route files and http/', () => {
    const routeFiles = sourceFiles(serverDir).filter((file) => isRouteFile(path.relative(serverDir, file)));
    expect(routeFiles.length).toBeGreaterThan(20);
    expect(offenders()).toEqual([]);
  });
});
