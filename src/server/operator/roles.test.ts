import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signedInBuyer, verifiedOperator } from '../../../test/support/dashboard-helpers';
import { testAppForFile } from '../../../test/support/file-apps';
import { users } from '../db/schema/accounts';
import { adminSessions, auditLog, operatorRecoveryCodes, operators } from '../db/schema/operator';
import { cliActor } from './audit';
import { grantOperator, listOperators, OperatorError, revokeOperator } from './roles';

const t = testAppForFile();

const auditFor = (email: string) =>
  t.ctx.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.target, `user:${email}`))
    .orderBy(auditLog.id);

describe('operator role', () => {
  it('is granted to an existing account by email in any letter case, once, and audited', async () => {
    const { email } = await signedInBuyer(t);
    await expect(grantOperator(t.ctx, ` ${email.toUpperCase()} `, cliActor('tester'))).resolves.toEqual({
      email,
    });
    await expect(grantOperator(t.ctx, email, cliActor('tester'))).rejects.toThrow(
      `${email} is already an operator.`,
    );
    const listed = (await listOperators(t.ctx)).find((row) => row.email === email);
    expect(listed).toMatchObject({ email, enrolled: false });
    const entries = await auditFor(email);
    expect(entries.map((entry) => [entry.actor, entry.action, entry.before, entry.after])).toEqual([
      ['cli:tester', 'operator.grant', { operator: false }, { operator: true }],
    ]);
  });

  it('refuses an unknown email and writes nothing', async () => {
    const before = (await t.ctx.db.select().from(auditLog)).length;
    const refusal = grantOperator(t.ctx, 'nobody@example.com', cliActor('tester'));
    await expect(refusal).rejects.toBeInstanceOf(OperatorError);
    await expect(refusal).rejects.toThrow('No account with the email nobody@example.com.');
    expect((await t.ctx.db.select().from(auditLog)).length).toBe(before);
  });

  it('is removed with the authenticator, the recovery codes and the dashboard sessions', async () => {
    const operator = await verifiedOperator(t);
    const [user] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, operator.email));
    const userId = user?.id ?? '';
    const codesOf = () =>
      t.ctx.db.select().from(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.userId, userId));
    const sessionsOf = () => t.ctx.db.select().from(adminSessions).where(eq(adminSessions.userId, userId));
    expect(await codesOf()).toHaveLength(10);
    expect(await sessionsOf()).toHaveLength(1);
    await revokeOperator(t.ctx, operator.email, cliActor('tester'));
    expect((await listOperators(t.ctx)).some((entry) => entry.email === operator.email)).toBe(false);
    expect(await t.ctx.db.select().from(operators).where(eq(operators.userId, userId))).toEqual([]);
    expect(await codesOf()).toEqual([]);
    expect(await sessionsOf()).toEqual([]);
    await expect(revokeOperator(t.ctx, operator.email, cliActor('tester'))).rejects.toThrow(
      `${operator.email} is not an operator.`,
    );
    expect((await auditFor(operator.email)).map((entry) => entry.action)).toEqual([
      'operator.grant',
      'second_factor.enrol',
      'operator.revoke',
    ]);
    // Granted again, the account starts over: no authenticator, so the dashboard asks for enrolment.
    await grantOperator(t.ctx, operator.email, cliActor('tester'));
    expect((await operator.client.get('/api/admin/auth/status')).json().state).toBe('enrol');
  });
});
