import { and, desc, eq } from 'drizzle-orm';
import { users } from '../../src/server/db/schema/accounts';
import { outbox } from '../../src/server/db/schema/mail';
import type { TestApp } from './app';
import type { TestClient } from './client';
import { openedMails } from './mail';

/** Helpers for the auth tests: read codes back from the outbox, as a person reads them from their inbox. */

export const form = (fields: Record<string, string>) => new URLSearchParams(fields);

let counter = 0;
/** A fresh email per test, so per-email quotas of one test never touch another. */
export const uniqueEmail = (label = 'user') => `${label}.${Date.now().toString(36)}.${++counter}@example.com`;
/** A fresh network address per test, for the same reason. */
export const uniqueIp = () =>
  `10.${(counter >> 8) & 255}.${counter++ & 255}.${Math.floor(Math.random() * 250) + 1}`;

export async function mailsTo(t: TestApp, to: string, kind?: string) {
  const rows = await t.ctx.db
    .select()
    .from(outbox)
    .where(kind ? and(eq(outbox.to, to), eq(outbox.kind, kind)) : eq(outbox.to, to))
    .orderBy(desc(outbox.id));
  return openedMails(t.ctx, rows);
}

/** The code in the newest email of `kind` to `to`. */
export async function latestCode(t: TestApp, to: string, kind: 'signup-code' | 'password-reset-code') {
  const [mail] = await mailsTo(t, to, kind);
  if (!mail) throw new Error(`no ${kind} email to ${to}`);
  const match = /^\s+(\d{4,6})$/m.exec(mail.text);
  if (!match?.[1]) throw new Error(`no code in ${kind} email`);
  return match[1];
}

export const DEFAULT_PASSWORD = 'Correct horse 42';

export async function signUp(
  t: TestApp,
  client: TestClient,
  input: { name?: string; email: string; phone?: string; password?: string },
) {
  const name = input.name ?? 'Asha Verma';
  const sent = await client.post('/api/auth/send-otp/', form({ name, email: input.email }));
  if (sent.statusCode !== 200) throw new Error(`send-otp failed: ${sent.statusCode} ${sent.body}`);
  const otp = await latestCode(t, input.email, 'signup-code');
  return client.post(
    '/api/auth/initiate-signup/',
    form({
      name,
      email: input.email,
      phone: input.phone ?? '+919876543210',
      password: input.password ?? DEFAULT_PASSWORD,
      otp,
    }),
  );
}

export async function userCount(t: TestApp, email: string) {
  return (await t.ctx.db.select().from(users).where(eq(users.email, email))).length;
}
