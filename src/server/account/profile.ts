import { eq } from 'drizzle-orm';
import { forgetSessionsOf } from '../auth/session';
import { users } from '../db/schema/accounts';
import type { AppContext } from '../kernel/context';

/** Sets the account's name and phone; the sessions this instance remembers are forgotten so they show the new ones. */
export async function updateProfile(
  ctx: AppContext,
  userId: string,
  profile: { name: string; phone: string },
): Promise<{ name: string; email: string; phone: string }> {
  const [row] = await ctx.db
    .update(users)
    .set(profile)
    .where(eq(users.id, userId))
    .returning({ name: users.name, email: users.email, phone: users.phone });
  if (!row) throw new Error(`user ${userId} vanished while saving the profile`);
  forgetSessionsOf(ctx, userId);
  return row;
}
