import { eq, sql } from 'drizzle-orm';
import { normaliseEmail } from '../../shared/auth';
import type { DbOrTx, Tx } from '../db';
import { users } from '../db/schema/accounts';
import type { AppContext } from '../kernel/context';
import { enqueueMail } from '../mail/outbox';
import { queueCustomerCreated } from '../webhooks/events';
import {
  type CodePurpose,
  consumeCode,
  generateCode,
  type MatchedCode,
  reserveSend,
  storeCode,
} from './codes';
import { recordSignupConsents } from './consents';
import { accountExistsEmail, passwordChangedEmail, resetCodeEmail, signupCodeEmail } from './emails';
import { hashPassword, needsRehash, verifyPassword } from './passwords';
import { endAllSessions } from './session';

/**
 * Account operations (docs/product.md §7, §10, §11), as functions of the context: the routes limit, call these
 * and shape the answer. None of them tells its caller more than the person asking may learn.
 */

export type UserRow = typeof users.$inferSelect;

export function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${normaliseEmail(email)}`)
    .limit(1)
    .then((rows) => rows[0]);
}

/**
 * The account these credentials open, or undefined. Unknown emails cost a hash all the same: same work, same time,
 * same answer as a wrong password. A hash made with older parameters is replaced on the way.
 */
export async function authenticate(
  ctx: AppContext,
  email: string,
  password: string,
): Promise<UserRow | undefined> {
  const user = await findUserByEmail(ctx.db, email);
  const cost = ctx.config.passwordHashCost;
  const matches = await verifyPassword(password, user?.passwordHash, cost);
  if (!user || !matches) return undefined;
  if (needsRehash(user.passwordHash, cost)) {
    const passwordHash = await hashPassword(password, cost);
    await ctx.db.update(users).set({ passwordHash }).where(eq(users.id, user.id));
  }
  return user;
}

/**
 * The shared shape of both code requests: one transaction that checks and records the per-email quota, looks the
 * account up and queues whatever email applies. Every path takes the same steps, so the caller's answer never
 * tells whether the email has an account.
 */
async function sendCode(
  ctx: AppContext,
  email: string,
  purpose: CodePurpose,
  act: (tx: Tx, existing: UserRow | undefined) => Promise<void>,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await reserveSend(tx, ctx, email, purpose);
    await act(tx, await findUserByEmail(tx, email));
  });
}

/** Emails a signup code to a free address; the owner of a taken address hears that someone tried instead. */
export function requestSignupCode(ctx: AppContext, typedEmail: string): Promise<void> {
  const email = normaliseEmail(typedEmail);
  return sendCode(ctx, email, 'signup', async (tx, existing) => {
    if (existing) {
      const mail = accountExistsEmail(`${ctx.config.publicUrl}/utility-tools`);
      await enqueueMail(ctx, tx, { to: existing.email, ...mail, kind: 'signup-existing-account' });
      return;
    }
    const code = generateCode('signup');
    await storeCode(tx, ctx, { email, purpose: 'signup', code });
    await enqueueMail(ctx, tx, { to: typedEmail.trim(), ...signupCodeEmail(code), kind: 'signup-code' });
  });
}

/** Emails a reset code when the address has an account, and does nothing visible otherwise. */
export function requestResetCode(ctx: AppContext, typedEmail: string): Promise<void> {
  const email = normaliseEmail(typedEmail);
  return sendCode(ctx, email, 'reset', async (tx, existing) => {
    if (!existing) return;
    const code = generateCode('reset');
    await storeCode(tx, ctx, { email, purpose: 'reset', code });
    await enqueueMail(ctx, tx, { to: existing.email, ...resetCodeEmail(code), kind: 'password-reset-code' });
  });
}

/** Why an account operation with a checked code was not done; the route turns each into its answer. */
export type AccountRefusal = 'code_used' | 'account_exists' | 'no_account';

export class AccountRefused extends Error {
  constructor(readonly reason: AccountRefusal) {
    super(reason);
    this.name = 'AccountRefused';
  }
}

/**
 * Creates the account in one transaction with using up its signup code, and starts its session there too
 * (`startSession`), so a half-made signup never exists. The password hash is made before: hashing is slow.
 */
export async function createAccount(
  ctx: AppContext,
  input: {
    name: string;
    email: string;
    phone: string;
    passwordHash: string;
    /** The code `checkCode` matched; it is used up only when the account is made. */
    code: MatchedCode;
    startSession: (tx: Tx, userId: string) => Promise<void>;
  },
): Promise<UserRow> {
  return ctx.db.transaction(async (tx) => {
    if (!(await consumeCode(tx, ctx, input.code))) throw new AccountRefused('code_used');
    if (await findUserByEmail(tx, input.email)) throw new AccountRefused('account_exists');
    const [created] = await tx
      .insert(users)
      .values({
        name: input.name,
        email: input.email,
        phone: input.phone,
        passwordHash: input.passwordHash,
        createdAt: ctx.clock.now(),
      })
      .returning();
    if (!created) throw new Error('user insert returned no row');
    await recordSignupConsents(tx, created.id, created.createdAt);
    await queueCustomerCreated(tx, created, created.createdAt);
    await input.startSession(tx, created.id);
    return created;
  });
}

/**
 * Sets a new password with the reset code used up in the same transaction, ends every session of the account
 * and tells its owner by email. Returns the account's id, whose cached sessions the caller forgets.
 */
export function resetPassword(
  ctx: AppContext,
  input: { email: string; passwordHash: string; code: MatchedCode },
): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    if (!(await consumeCode(tx, ctx, input.code))) throw new AccountRefused('code_used');
    const user = await findUserByEmail(tx, input.email);
    if (!user) throw new AccountRefused('no_account');
    const now = ctx.clock.now();
    await tx
      .update(users)
      .set({ passwordHash: input.passwordHash, passwordChangedAt: now })
      .where(eq(users.id, user.id));
    await endAllSessions(tx, user.id);
    await enqueueMail(ctx, tx, { to: user.email, ...passwordChangedEmail(now), kind: 'password-changed' });
    return user.id;
  });
}
