import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, asc, eq, gt, lt } from 'drizzle-orm';
import { ACCOUNT_MESSAGES, type AccountPasskey } from '../../shared/account';
import { SITE } from '../../shared/site';
import type { DbOrTx } from '../db';
import { passkeys, users, webauthnChallenges } from '../db/schema/accounts';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';

/**
 * Passkeys (WebAuthn, issue 33) through @simplewebauthn/server: discoverable credentials (residentKey required) with
 * user verification required, the relying party being PUBLIC_URL's host. Each ceremony's challenge is kept on the
 * server for 5 minutes and used once; a sign-in's counter must go up when the authenticator counts.
 */

export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/**
 * @simplewebauthn/server, loaded at the first ceremony: a process that never sees one (every `npm run admin` command,
 * the license API's instances) does not pay its load, a tenth of a start.
 */
const webauthn = () => import('@simplewebauthn/server');

const relyingParty = (ctx: AppContext) => {
  const url = new URL(ctx.config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
};

const refused = (message: string = ACCOUNT_MESSAGES.passkeyFailed) =>
  new DomainError('passkey_refused', message);

async function keepChallenge(
  ctx: AppContext,
  row: { challenge: string; purpose: 'register' | 'login'; userId?: string; sessionIdHash?: string },
): Promise<void> {
  const now = ctx.clock.now();
  // Ceremonies abandoned half-way leave their challenge; each new one clears the expired ones (indexed, few).
  await ctx.db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
  await ctx.db
    .insert(webauthnChallenges)
    .values({ ...row, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS), createdAt: now });
}

/** Uses up the challenge the browser signed, if this server issued it for this purpose and it is still fresh. */
async function takeChallenge(
  ctx: AppContext,
  clientDataJSON: string,
  purpose: 'register' | 'login',
): Promise<typeof webauthnChallenges.$inferSelect> {
  const { decodeClientDataJSON } = await import('@simplewebauthn/server/helpers');
  let challenge: string;
  try {
    challenge = decodeClientDataJSON(clientDataJSON).challenge;
  } catch {
    throw refused();
  }
  const [row] = await ctx.db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        gt(webauthnChallenges.expiresAt, ctx.clock.now()),
      ),
    )
    .returning();
  if (!row) throw refused();
  return row;
}

export async function listPasskeys(db: DbOrTx, userId: string): Promise<AccountPasskey[]> {
  const rows = await db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    synced: row.backedUp,
  }));
}

export async function registrationOptions(
  ctx: AppContext,
  user: { id: string; name: string; email: string },
  sessionIdHash: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await ctx.db
    .select({ id: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id));
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: SITE.name,
    rpID: relyingParty(ctx).rpID,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing,
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: CHALLENGE_TTL_MS,
  });
  await keepChallenge(ctx, {
    challenge: options.challenge,
    purpose: 'register',
    userId: user.id,
    sessionIdHash,
  });
  return options;
}

/** Checks the browser's registration against the challenge this session was given, and keeps the passkey. */
export async function addPasskey(
  ctx: AppContext,
  input: { userId: string; sessionIdHash: string; name: string; credential: RegistrationResponseJSON },
): Promise<AccountPasskey[]> {
  const challenge = await takeChallenge(ctx, input.credential.response.clientDataJSON, 'register');
  if (challenge.userId !== input.userId || challenge.sessionIdHash !== input.sessionIdHash) throw refused();
  const { rpID, origin } = relyingParty(ctx);
  const verified = await (await webauthn())
    .verifyRegistrationResponse({
      response: input.credential,
      expectedChallenge: challenge.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
    })
    .catch(() => null);
  if (!verified?.verified) throw refused();
  const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
  const inserted = await ctx.db
    .insert(passkeys)
    .values({
      userId: input.userId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      name: input.name,
      createdAt: ctx.clock.now(),
    })
    .onConflictDoNothing()
    .returning({ id: passkeys.id });
  if (inserted.length === 0) throw refused();
  return listPasskeys(ctx.db, input.userId);
}

export async function renamePasskey(
  ctx: AppContext,
  userId: string,
  id: string,
  name: string,
): Promise<boolean> {
  const rows = await ctx.db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
    .returning({ id: passkeys.id });
  return rows.length === 1;
}

export async function removePasskey(ctx: AppContext, userId: string, id: string): Promise<boolean> {
  const rows = await ctx.db
    .delete(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
    .returning({ id: passkeys.id });
  return rows.length === 1;
}

/** Options for a sign-in with any passkey of this site: the browser lets the person pick one (discoverable). */
export async function loginOptions(ctx: AppContext): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: relyingParty(ctx).rpID,
    userVerification: 'required',
    timeout: CHALLENGE_TTL_MS,
  });
  await keepChallenge(ctx, { challenge: options.challenge, purpose: 'login' });
  return options;
}

/**
 * The account a passkey assertion signs in, after the library has checked it against the challenge, the stored
 * public key and counter, the origin and the relying party; any failure is the same 400 and signs nobody in.
 */
export async function verifyPasskeyLogin(
  ctx: AppContext,
  credential: AuthenticationResponseJSON,
): Promise<{ id: string; name: string; email: string; phone: string }> {
  const challenge = await takeChallenge(ctx, credential.response.clientDataJSON, 'login');
  const [found] = await ctx.db
    .select({
      passkey: passkeys,
      user: { id: users.id, name: users.name, email: users.email, phone: users.phone },
    })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(eq(passkeys.credentialId, credential.id));
  if (!found) throw refused(ACCOUNT_MESSAGES.passkeySignInFailed);
  const { passkey, user } = found;
  const handle = credential.response.userHandle;
  if (handle && Buffer.from(handle, 'base64url').toString() !== user.id) {
    throw refused(ACCOUNT_MESSAGES.passkeySignInFailed);
  }
  const { rpID, origin } = relyingParty(ctx);
  const verified = await (await webauthn())
    .verifyAuthenticationResponse({
      response: credential,
      expectedChallenge: challenge.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: true,
    })
    .catch(() => null);
  if (!verified?.verified) throw refused(ACCOUNT_MESSAGES.passkeySignInFailed);
  await ctx.db
    .update(passkeys)
    .set({
      counter: verified.authenticationInfo.newCounter,
      backedUp: verified.authenticationInfo.credentialBackedUp,
      lastUsedAt: ctx.clock.now(),
    })
    .where(eq(passkeys.id, passkey.id));
  return user;
}
