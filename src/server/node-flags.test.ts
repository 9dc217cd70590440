import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from './node-flags';

describe('the server’s Node flags', () => {
  it('are the ones `npm start` runs with', () => {
    const manifest = JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8'),
    );
    const start: string = manifest.scripts.start;
    expect(start.startsWith(`node ${SERVER_NODE_FLAGS.join(' ')} --import tsx `)).toBe(true);
  });
});
