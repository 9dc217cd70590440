import { and, desc, eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { auditLog } from '../../src/server/db/schema/operator';
import { cliActor } from '../../src/server/operator/audit';
import { grantOperator } from '../../src/server/operator/roles';
import type { TestApp } from './app';
import { signUp, uniqueEmail, uniqueIp } from './auth-helpers';
import type { TestClient } from './client';

/** Helpers for the dashboard tests: real sign-ups, the role granted as the command line does, real TOTP codes. */

export async function signedInBuyer(
  t: TestApp,
  label = 'buyer',
): Promise<{ client: TestClient; email: string }> {
  const client = await t.client({ ip: uniqueIp() });
  const email = uniqueEmail(label);
  const response = await signUp(t, client, { email });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  return { client, email };
}

export async function signedInOperator(t: TestApp) {
  const buyer = await signedInBuyer(t, 'operator');
  await grantOperator(t.ctx, buyer.email, cliActor('tester'));
  return buyer;
}

/** The code an authenticator app shows for `secret` at the test clock's time, `stepOffset` steps away. */
export function totpAt(t: TestApp, secret: string, stepOffset = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) + stepOffset * 30 });
}

/** Enrols the operator's authenticator and returns its secret and recovery codes; the session is then verified. */
export async function enrol(t: TestApp, client: TestClient) {
  const started = await client.post('/api/admin/auth/enrol', {});
  if (started.statusCode !== 200) throw new Error(`enrol failed: ${started.statusCode} ${started.body}`);
  const { secret } = started.json() as { secret: string };
  const confirmed = await client.post('/api/admin/auth/enrol/confirm', { code: await totpAt(t, secret) });
  if (confirmed.statusCode !== 200)
    throw new Error(`confirm failed: ${confirmed.statusCode} ${confirmed.body}`);
  const { recoveryCodes } = confirmed.json() as { recoveryCodes: string[] };
  return { secret, recoveryCodes };
}

/** A code from the next time step: the one used at sign-in (or the last action) cannot be used again. */
export function freshTotp(t: TestApp, secret: string): Promise<string> {
  t.clock.advance(30_000);
  return totpAt(t, secret);
}

/** An operator with the second factor passed in this session. */
export async function verifiedOperator(t: TestApp) {
  const operator = await signedInOperator(t);
  const factor = await enrol(t, operator.client);
  return { ...operator, ...factor };
}

/** The audit log's entries of `action` on `target` (e.g. `tool:<id>`), newest first. */
export function auditOf(t: TestApp, action: string, target: string) {
  return t.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.target, target)))
    .orderBy(desc(auditLog.id));
}

/** `form` posted as multipart to the listening server at `baseUrl`, with `client`'s session, as the browser uploads. */
export function uploadForm(baseUrl: string, client: TestClient, path: string, form: FormData) {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    body: form,
    headers: {
      cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      'x-csrftoken': client.csrfToken ?? '',
      origin: baseUrl,
    },
  });
}
