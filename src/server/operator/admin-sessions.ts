import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { adminSessions } from '../db/schema/operator';

/** A dashboard session ends (signed out, idle, past its 12 hours): the site session it sat on stays. */
export async function endAdminSession(db: DbOrTx, sessionIdHash: string): Promise<void> {
  await db.delete(adminSessions).where(eq(adminSessions.sessionIdHash, sessionIdHash));
}

/** A dashboard request keeps its session alive. */
export async function touchAdminSession(db: DbOrTx, sessionIdHash: string, at: Date): Promise<void> {
  await db
    .update(adminSessions)
    .set({ lastSeenAt: at })
    .where(eq(adminSessions.sessionIdHash, sessionIdHash));
}
