import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { PASSWORD_HASH_COST } from '../kernel/config';
import { DomainError } from '../kernel/domain-error';

/**
 * Password hashing (docs/product.md §11): scrypt with N=2^17, r=8, p=1, a 16-byte salt and a 32-byte key. The parameters
 * are stored with each hash ("scrypt$17$8$1$salt$key"), so they can be raised later: a login with a hash made at
 * another cost rehashes it. The cost comes from the configuration (`passwordHashCost`), which only tests lower.
 * Passwords are NFC-normalised first, so the same characters typed on different keyboards match.
 */
const SCRYPT_PARAMS = { log2N: PASSWORD_HASH_COST, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

/**
 * At most two hashes at once (one per core): each takes 128 MiB and most of a core for a fraction of a second.
 * Requests beyond a bounded queue are turned away rather than piling up memory and latency.
 */
class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(
    private readonly limit: number,
    private readonly maxQueue: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      if (this.waiting.length >= this.maxQueue) {
        throw new DomainError('busy', 'The server is busy. Please try again in a moment.', {
          retryAfterSeconds: 5,
        });
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}

const hashing = new Semaphore(2, 200);

type Params = { log2N: number; r: number; p: number };

function derive(password: string, salt: Buffer, params: Params): Promise<Buffer> {
  const N = 2 ** params.log2N;
  // scrypt needs about 128 * N * r bytes; the default cap (32 MiB) is below what N=2^17 asks for.
  const maxmem = 256 * N * params.r;
  return hashing.run(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(
          password.normalize('NFC'),
          salt,
          KEY_LENGTH,
          { N, r: params.r, p: params.p, maxmem },
          (error, key) => (error ? reject(error) : resolve(key)),
        );
      }),
  );
}

type Parsed = Params & { salt: Buffer; key: Buffer };

function parse(stored: string): Parsed | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [log2N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  // Bounds keep a corrupted row from asking for gigabytes of memory.
  if (![log2N, r, p].every(Number.isInteger) || log2N < 10 || log2N > 20 || r < 1 || r > 32 || p < 1 || p > 4)
    return null;
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const key = Buffer.from(parts[5] ?? '', 'base64url');
  if (salt.length < 8 || key.length !== KEY_LENGTH) return null;
  return { log2N, r, p, salt, key };
}

const paramsAt = (cost: number): Params => ({ ...SCRYPT_PARAMS, log2N: cost });

export async function hashPassword(password: string, cost: number = PASSWORD_HASH_COST): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const { log2N, r, p } = paramsAt(cost);
  const key = await derive(password, salt, { log2N, r, p });
  return `scrypt$${log2N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/**
 * True when `password` matches `stored`. No stored hash (an unknown email) or a malformed one never matches, after
 * the same work at today's cost, so neither answers faster than a wrong password.
 */
export async function verifyPassword(
  password: string,
  stored: string | undefined,
  cost: number = PASSWORD_HASH_COST,
): Promise<boolean> {
  const parsed = stored === undefined ? null : parse(stored);
  if (!parsed) {
    await derive(password, randomBytes(SALT_LENGTH), paramsAt(cost));
    return false;
  }
  const key = await derive(password, parsed.salt, parsed);
  return timingSafeEqual(key, parsed.key);
}

/** True when the hash was made with other parameters than today's, so it should be replaced at the next login. */
export function needsRehash(stored: string, cost: number = PASSWORD_HASH_COST): boolean {
  const parsed = parse(stored);
  const today = paramsAt(cost);
  return !parsed || parsed.log2N !== today.log2N || parsed.r !== today.r || parsed.p !== today.p;
}
