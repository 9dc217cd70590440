/**
 * Settings every test process shares, apart from the app's modules so that a process which only starts servers (a
 * browser journey's worker) does not load the whole server to read them.
 */

/** The data key of every test app; a process a test starts on the same database must be given it too. */
export const TEST_DATA_SECRET_KEY = 'a5'.repeat(32);

/**
 * scrypt's cost in tests (log2 N, decision 068): a hash at production's 17 is half a second of a core, and every
 * sign-up, login and password check in the tests paid it. src/server/auth/passwords.test.ts hashes at 17;
 * production refuses a lower cost, so an app or server started as production is given none.
 */
export const testPasswordHashCost = (env: Record<string, string | undefined>): Record<string, string> =>
  env.NODE_ENV === 'production' ? {} : { PASSWORD_HASH_COST: '12' };
