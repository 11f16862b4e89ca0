// Sign-in and mail throttling that stops guessing and mail bombing without letting anyone lock the owner out.
//
// Sign-in (OWASP's guidance: limit per account *and* address, slow down rather than lock an account):
// - per address, every attempt: 5x the setting per minute (one address guessing many accounts);
// - per (account, address), failures: the setting per minute, answered 429 to that address only (one address
//   guessing one account); the owner at another address is not affected;
// - per account, failures from all addresses: past 5x the setting per minute the account is under attack, and
//   attempts on it from addresses it has not signed in from lately take turns, one a second; so many addresses
//   together still guess slowly, and the owner waits a moment at worst (429 only past a 30 s queue, and never at
//   an address the owner signed in from in the last 30 days).
// Mail: per address and per (recipient, address) with 429; per recipient over all addresses, once the hour's
// budget is spent, a new mail only every 5 minutes: the owner's inbox always holds a link young enough to use
// (they last 15 minutes and only the inbox sees them), and the recipient cannot be bombed.
import { LimitError } from '../errors.js';
import { createRateLimiter } from '../http/rate-limit.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const SIGNIN_DETAIL = 'Too many sign-in attempts, try again later';
const MAIL_DETAIL = 'Too many mails requested, try again later';

/** Spacing between attempts on an account under attack, and the longest an attempt waits its turn. */
export const ATTACK_SPACING_MS = 1000;
const ATTACK_MAX_WAIT_MS = 30_000;
const KNOWN_ADDRESS_MS = 30 * 24 * HOUR;
/** Once a recipient's hourly budget is spent, at most one mail per this interval. */
export const MAIL_COALESCE_MS = 5 * MINUTE;
const MAX_KEYS = 100_000;

/** Failures per key in a fixed window; forgets finished windows as it goes. */
class FailureCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  constructor(private readonly windowMs: number) {}

  count(key: string, now: number): number {
    const w = this.windows.get(key);
    return w && now - w.start < this.windowMs ? w.count : 0;
  }

  add(key: string, now: number): void {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size >= MAX_KEYS) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
  }
}

export interface SigninThrottle {
  /**
   * Call before checking a password. Throws 429 when the address or the (account, address) pair has spent its
   * budget; waits its turn when the account is under attack from many addresses.
   */
  before(account: string, address: string): Promise<void>;
  failed(account: string, address: string): void;
  succeeded(account: string, address: string): void;
}

export function createSigninThrottle(perMinute: number, now: () => number = Date.now): SigninThrottle {
  const byAddress = createRateLimiter(perMinute * 5, MINUTE, SIGNIN_DETAIL);
  const pairFailures = new FailureCounter(MINUTE);
  const accountFailures = new FailureCounter(MINUTE);
  const nextTurn = new Map<string, number>();
  const known = new Map<string, number>();
  const pair = (account: string, address: string) => `${account}\n${address}`;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  return {
    async before(account, address) {
      if (perMinute <= 0) return;
      byAddress.hit(address);
      const t = now();
      if (pairFailures.count(pair(account, address), t) >= perMinute) throw new LimitError(SIGNIN_DETAIL, 60);
      if (accountFailures.count(account, t) < perMinute * 5) return;
      if ((known.get(pair(account, address)) ?? 0) > t) return;
      const turn = Math.max(t, nextTurn.get(account) ?? 0);
      if (turn - t > ATTACK_MAX_WAIT_MS) throw new LimitError(SIGNIN_DETAIL, 30);
      nextTurn.set(account, turn + ATTACK_SPACING_MS);
      if (nextTurn.size > MAX_KEYS) nextTurn.clear();
      if (turn > t) await sleep(turn - t);
    },
    failed(account, address) {
      const t = now();
      pairFailures.add(pair(account, address), t);
      accountFailures.add(account, t);
    },
    succeeded(account, address) {
      if (known.size >= MAX_KEYS) known.clear();
      known.set(pair(account, address), now() + KNOWN_ADDRESS_MS);
    },
  };
}

export interface MailThrottle {
  /** 429 when the address, or the (recipient, address) pair, has spent its hourly budget. */
  check(recipient: string, address: string): void;
  /** Whether to send a mail to `recipient` now (false: a recent one is in the inbox already); counts it when true. */
  shouldSend(recipient: string): boolean;
}

export function createMailThrottle(perHour: number, now: () => number = Date.now): MailThrottle {
  const byAddress = createRateLimiter(perHour * 5, HOUR, MAIL_DETAIL);
  const byPair = createRateLimiter(perHour, HOUR, MAIL_DETAIL);
  const sent = new FailureCounter(HOUR);
  const lastSent = new Map<string, number>();
  return {
    check(recipient, address) {
      byAddress.hit(address);
      byPair.hit(`${recipient}\n${address}`);
    },
    shouldSend(recipient) {
      if (perHour <= 0) return true;
      const t = now();
      if (sent.count(recipient, t) >= perHour && t - (lastSent.get(recipient) ?? 0) < MAIL_COALESCE_MS) return false;
      sent.add(recipient, t);
      if (lastSent.size >= MAX_KEYS) lastSent.clear();
      lastSent.set(recipient, t);
      return true;
    },
  };
}
