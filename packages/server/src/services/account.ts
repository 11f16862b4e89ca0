// A user's own account (issue 35 item 11): set or change the password, change the email address through a link
// mailed to the new one, delete the account. What deleting removes and what it keeps: docs/api.md, "Deleting an
// account".
import { PASSWORD_RESET_BY_LINK_MS } from '@kernelforge/sdk';
import { consumeOneTimeToken, issueOneTimeToken } from '../auth/one-time-tokens.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import type { SigninThrottle } from '../auth/throttle.js';
import { findUserById, normalizeEmail, type UserRecord } from '../auth/users.js';
import type { AppContext } from '../context.js';
import { ConflictError, ForbiddenError, NotFoundError, RefusedError, invalidInput } from '../errors.js';
import { cancelOwnerJobs } from '../jobs/queue.js';
import { confirmEmailChangeMail, confirmEmailUrl, emailChangedMail } from '../mail/templates.js';

export const WRONG_PASSWORD = 'Your current password is not right: type the password you sign in with';
export const NEED_PASSWORD =
  'Give your current password: this account has one. Forgot it? Sign in with an email link (the sign-in page mails one), then set a new password here within 15 minutes without it';
/** How long after signing in by an emailed link a password can be replaced without the current one (forgotten). */
export const RESET_BY_LINK_MS = PASSWORD_RESET_BY_LINK_MS;
export const INVALID_CONFIRMATION =
  'This confirmation link is invalid, used or expired: ask for a new one on the Account page';
export const ADDRESS_TAKEN =
  'That address already belongs to another Kernelforge account: sign in with it there, or use another address';
export const LAST_SUPERUSER =
  'You are the only active superuser: make another user a superuser (Admin, Users) before deleting your account';
export const CANCELLED_BY_DELETION = 'cancelled: its owner deleted their account';

async function ownRecord(ctx: AppContext, userId: string): Promise<UserRecord> {
  const user = await findUserById(ctx.db, userId);
  // Deleted or deactivated between the guard's read and this one.
  if (!user || !user.is_active) throw new NotFoundError('User not found');
  return user;
}

/**
 * A password account must give its current password for what would let a holder of a stolen access token keep the
 * account (a new password, a new address, deletion); guesses are throttled as sign-ins are. A password-less account
 * (magic link, Google) has nothing to give: its bearer token is the proof.
 */
async function checkCurrentPassword(
  user: UserRecord,
  given: string | undefined,
  throttle: SigninThrottle,
  address: string,
): Promise<void> {
  if (user.hashed_password === null) return;
  if (!given) throw invalidInput(['body', 'current_password'], NEED_PASSWORD);
  await throttle.before(user.email, address);
  if (!(await verifyPassword(given, user.hashed_password))) {
    throttle.failed(user.email, address);
    throw new RefusedError(WRONG_PASSWORD);
  }
  throttle.succeeded(user.email, address);
}

export interface Caller {
  userId: string;
  /** The client's address, for the throttle of password guesses. */
  address: string;
  /** When and how the caller's access token was issued (null: an API token, which these routes refuse anyway). */
  signedIn?: { at: number; via: 'link' | null } | null;
}

/** Signed in by a link mailed to the account's address within RESET_BY_LINK_MS: the mailbox is the proof. */
export function signedInByLinkRecently(caller: Caller, now = Date.now()): boolean {
  const s = caller.signedIn;
  return s?.via === 'link' && now - s.at >= -60_000 && now - s.at < RESET_BY_LINK_MS;
}

/**
 * Sets a first password or replaces the current one; access and API tokens already issued keep working. A forgotten
 * password is replaced without it by signing in with an emailed link first: for RESET_BY_LINK_MS after, that
 * session may set a new one (a current password given is still checked).
 */
export async function setPassword(
  ctx: AppContext,
  throttle: SigninThrottle,
  caller: Caller,
  body: { current_password?: string | undefined; new_password: string },
): Promise<{ message: string }> {
  const user = await ownRecord(ctx, caller.userId);
  const had = user.hashed_password !== null;
  if (body.current_password || !signedInByLinkRecently(caller))
    await checkCurrentPassword(user, body.current_password, throttle, caller.address);
  const hashed = await hashPassword(body.new_password);
  await ctx.db.query('UPDATE users SET hashed_password = $2, updated_at = now() WHERE id = $1', [user.id, hashed]);
  return {
    message: had
      ? 'Password changed: sign in with your email and the new password'
      : 'Password set: you can now sign in with your email and this password, as well as by email link',
  };
}

/**
 * Mails a confirmation link to the new address; nothing changes until it is used. Whether the address already has
 * an account is not told here (the answer is the same): only the owner of that mailbox learns it, when the link is
 * used, as registration tells them by mail.
 */
export async function requestEmailChange(
  ctx: AppContext,
  throttle: SigninThrottle,
  caller: Caller,
  body: { new_email: string; current_password?: string | undefined },
): Promise<{ message: string }> {
  const user = await ownRecord(ctx, caller.userId);
  const next = normalizeEmail(body.new_email);
  if (next === user.email)
    throw new RefusedError(`${next} is already your address: type the new address you want to use`);
  await checkCurrentPassword(user, body.current_password, throttle, caller.address);
  const token = await issueOneTimeToken(ctx.db, 'email_change', next, { user_id: user.id });
  // A refusing SMTP server throws MailDeliveryError: the route answers 502, so the caller knows the link never left.
  await ctx.mailer.send(confirmEmailChangeMail(next, confirmEmailUrl(ctx.config.publicUrl, token)));
  return {
    message: `A confirmation link is on its way to ${next}: open it while signed in as yourself to make the change (it expires in 15 minutes). Until then your address stays ${user.email}.`,
  };
}

/**
 * Uses a confirmation link: the signed-in user's address becomes the one it was mailed to. The link is good for the
 * account that asked for it only; the old address is told; other one-time links for either address stop working.
 */
export async function confirmEmailChange(
  ctx: AppContext,
  userId: string,
  token: string,
): Promise<{ message: string; email: string }> {
  const user = await ownRecord(ctx, userId);
  const result = await ctx.db.transaction(async (tx) => {
    const used = await consumeOneTimeToken(tx, 'email_change', token);
    if (!used) throw new RefusedError(INVALID_CONFIRMATION);
    if (used.payload.user_id !== user.id)
      throw new ForbiddenError(
        'This confirmation link belongs to another account: sign out, then sign in as the account that asked for it and open the link again',
      );
    const taken = await tx.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [used.email]);
    if (taken.length > 0 && taken[0]?.id !== user.id) throw new ConflictError(ADDRESS_TAKEN);
    try {
      await tx.query('UPDATE users SET email = $2, updated_at = now() WHERE id = $1', [user.id, used.email]);
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new ConflictError(ADDRESS_TAKEN);
      throw err;
    }
    // A sign-in link still open for the old address would now make a new account there; a second change link would
    // move the account again: neither is what the owner asked for.
    await tx.query(
      `UPDATE one_time_tokens SET used_at = now() WHERE used_at IS NULL
       AND (email = $1 OR (purpose = 'email_change' AND payload->>'user_id' = $2))`,
      [user.email, user.id],
    );
    return used.email;
  });
  // The token is spent whatever the mail does: a refusing SMTP server must not undo or block the change.
  await ctx.mailer.send(emailChangedMail(user.email, result)).catch(() => undefined);
  return { message: `Your address is now ${result}: sign in with it from now on`, email: result };
}

/**
 * Deletes the account at once: the user row and, with it (foreign keys ON DELETE CASCADE), its API tokens, SSE
 * tickets, agent sessions with their attempts and instructions, sweeps, submissions and test runs, so its leaderboard
 * entries leave every board. Its jobs in flight are cancelled; one-time links and outbox mail to its address are
 * removed; shared sweep sets it made stay, without its name. Access tokens stop working with the row.
 */
export async function deleteAccount(
  ctx: AppContext,
  throttle: SigninThrottle,
  caller: Caller,
  body: { confirm: string; current_password?: string | undefined },
): Promise<void> {
  const user = await ownRecord(ctx, caller.userId);
  const typed = body.confirm.trim().toLowerCase();
  if (typed !== 'delete' && normalizeEmail(typed) !== user.email)
    throw invalidInput(['body', 'confirm'], `Type your email address (${user.email}) or the word delete to confirm`);
  await checkCurrentPassword(user, body.current_password, throttle, caller.address);
  await ctx.db.transaction(async (tx) => {
    if (user.is_superuser) {
      // Locked, so two superusers deleting themselves at once cannot leave none.
      const others = await tx.query<{ id: string }>(
        'SELECT id FROM users WHERE is_superuser AND is_active AND id <> $1 FOR UPDATE',
        [user.id],
      );
      if (others.length === 0) throw new ConflictError(LAST_SUPERUSER);
    }
    await cancelOwnerJobs(tx, user.id, CANCELLED_BY_DELETION);
    await tx.query("DELETE FROM one_time_tokens WHERE email = $1 OR payload->>'user_id' = $2", [user.email, user.id]);
    await tx.query('DELETE FROM outbox WHERE to_address = $1', [user.email]);
    // Events name no foreign key; they go with their sessions.
    await tx.query(
      'DELETE FROM session_events WHERE session_id IN (SELECT id FROM agent_sessions WHERE owner_id = $1)',
      [user.id],
    );
    await tx.query('DELETE FROM users WHERE id = $1', [user.id]);
  });
}
