import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/support/app';
import { createTestDatabase } from '../../test/support/database';
import { createAppContext } from './compose';
import type { DatabaseHandle } from './db';

describe('createAppContext', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('gives each context its own caches and services, even on one database and one configuration', () => {
    const config = testConfig();
    const first = createAppContext({ config, db: database.db });
    const second = createAppContext({ config, db: database.db });
    const tools = {
      owned: new Set(['tool']),
      trialled: new Set<string>(),
      trialEnds: new Map<string, string>(),
    };
    first.caches.ownedTools.set('a', tools, first.caches.ownedTools.generation);
    expect(first.caches.ownedTools.get('a')).toEqual(tools);
    expect(second.caches.ownedTools.get('a')).toBeUndefined();
    expect(second.caches.sessions).not.toBe(first.caches.sessions);
    expect(second.gateway).not.toBe(first.gateway);
    expect(second.limiter).not.toBe(first.limiter);
  });

  it('tells only its own listeners that mail was queued', () => {
    const config = testConfig();
    const first = createAppContext({ config, db: database.db });
    const second = createAppContext({ config, db: database.db });
    const heard: string[] = [];
    const stop = first.mailQueued.subscribe(() => heard.push('first'));
    second.mailQueued.subscribe(() => heard.push('second'));
    first.mailQueued.notify();
    stop();
    first.mailQueued.notify();
    expect(heard).toEqual(['first']);
  });
});
