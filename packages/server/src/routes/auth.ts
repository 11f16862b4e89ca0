// The auth API under /auth/ (spec section 7, DESIGN section 4): password, magic link, email verification, Google, me.
import {
  EmailVerificationRequest,
  GoogleLoginRequest,
  LoginResponse,
  MagicLinkRequest,
  Message,
  PasswordLoginInput,
  RegisterRequest,
  RegisterResponse,
  TokenLoginRequest,
  User,
} from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { type SignedInVia, signAccessToken } from '../auth/access-token.js';
import { createGoogleVerifier } from '../auth/google.js';
import { consumeOneTimeToken, issueOneTimeToken } from '../auth/one-time-tokens.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import {
  type UserRecord,
  createUser,
  findOrCreateUser,
  findUserByEmail,
  markSignedIn,
  normalizeEmail,
  toWireUser,
} from '../auth/users.js';
import type { AppContext } from '../context.js';
import { type AppEnv, currentUser, userGuards } from '../http/auth.js';
import { HttpError } from '../http/errors.js';
import { type Mail, MailDeliveryError } from '../mail/mailer.js';
import { clientIp, createRateLimiter } from '../http/rate-limit.js';
import { createMailThrottle, createSigninThrottle } from '../auth/throttle.js';
import { routeTable } from '../http/route.js';
import {
  alreadyRegisteredMail,
  magicLinkMail,
  magicLinkUrl,
  verifyEmailMail,
  verifyEmailUrl,
} from '../mail/templates.js';

export const INCORRECT_LOGIN = 'Incorrect email or password';
export const INVALID_TOKEN = 'Invalid or expired token';
const MAIL_SENT = 'If the address can receive mail, a message is on its way';

export function mountAuthRoutes(app: Hono<AppEnv>, ctx: AppContext): void {
  const { config, db } = ctx;
  const minute = 60_000;
  const limits = config.rateLimits;
  // Password guessing and mail bombing are throttled per address and per (account, address) pair, with an account-wide
  // slow-down instead of a lockout (see auth/throttle.ts); token sign-ins (magic link, Google) per address.
  const signin = createSigninThrottle(limits.signinPerMinute);
  const mail = createMailThrottle(limits.mailPerHour);
  const signinByIp = createRateLimiter(limits.signinPerMinute, minute, 'Too many sign-in attempts, try again later');
  const google = createGoogleVerifier(config.google);
  const ip = (c: Parameters<typeof clientIp>[0]) => clientIp(c, config.trustProxy);

  const issue = async (user: UserRecord, via?: SignedInVia) => {
    await markSignedIn(db, user.id);
    const access_token = await signAccessToken(config.secret, user.id, {
      expiresInSeconds: config.accessTokenDays * 86_400,
      ...(via ? { via } : {}),
    });
    return { access_token, token_type: 'bearer' };
  };
  const activeOr400 = (user: UserRecord) => {
    if (!user.is_active) throw new HttpError(400, 'Inactive user');
    return user;
  };

  const route = routeTable(app, '', userGuards(ctx));
  // Counted before the body is read, as a flood of malformed bodies is a flood all the same.
  const countSignin = createMiddleware<AppEnv>(async (c, next) => {
    signinByIp.hit(ip(c));
    await next();
  });

  route(
    {
      method: 'post',
      path: '/auth/login/access-token',
      summary: 'Sign in with email and password (form data)',
      auth: 'none',
      form: PasswordLoginInput,
      response: LoginResponse,
      errors: [400, 429],
    },
    async (c, { form }) => {
      const account = normalizeEmail(form.username);
      const address = ip(c);
      await signin.before(account, address);
      const user = await findUserByEmail(db, account);
      const ok = await verifyPassword(form.password, user?.hashed_password ?? null);
      if (!user || !ok) {
        signin.failed(account, address);
        throw new HttpError(400, INCORRECT_LOGIN);
      }
      signin.succeeded(account, address);
      return issue(activeOr400(user));
    },
  );

  route(
    {
      method: 'post',
      path: '/auth/login/magic-link',
      summary: 'Exchange a magic-link token for an access token',
      auth: 'none',
      use: [countSignin],
      body: TokenLoginRequest,
      response: LoginResponse,
      errors: [400, 429],
    },
    async (_c, { body }) => {
      const used = await consumeOneTimeToken(db, 'magic_link', body.token);
      if (!used) throw new HttpError(400, INVALID_TOKEN);
      // A new address gets its account here, on its first sign-in.
      const user = activeOr400(await findOrCreateUser(db, used.email));
      // Marked as a link's: for a while it may replace a forgotten password (services/account.ts).
      return issue(user, 'link');
    },
  );

  route(
    {
      method: 'post',
      path: '/auth/magic-link',
      summary: 'Mail a one-time sign-in link (same answer whether or not the address has an account)',
      auth: 'none',
      body: MagicLinkRequest,
      response: Message,
      errors: [429, 502],
    },
    async (c, { body }) => {
      const email = normalizeEmail(body.email);
      mail.check(email, ip(c));
      if (!mail.shouldSend(email)) return { message: MAIL_SENT };
      const existing = await findUserByEmail(db, email);
      if (!existing || existing.is_active) {
        const token = await issueOneTimeToken(db, 'magic_link', email);
        await sendMail(ctx, magicLinkMail(email, magicLinkUrl(config.publicUrl, token)));
      }
      return { message: MAIL_SENT };
    },
  );

  route(
    {
      method: 'post',
      path: '/auth/users/register/email-verification-token',
      summary: 'Start registration: mail a verification link',
      auth: 'none',
      body: EmailVerificationRequest,
      response: Message,
      errors: [429, 502],
    },
    async (c, { body }) => {
      const email = normalizeEmail(body.email);
      mail.check(email, ip(c));
      // Hashed whether or not the address has an account: otherwise the time taken tells which addresses do.
      const hashedPassword = body.password ? await hashPassword(body.password) : null;
      if (!mail.shouldSend(email)) return { message: MAIL_SENT };
      const existing = await findUserByEmail(db, email);
      if (existing) {
        // Same answer as for a new address; the owner gets a sign-in link instead, so nothing leaks.
        if (existing.is_active) {
          const token = await issueOneTimeToken(db, 'magic_link', email);
          await sendMail(ctx, alreadyRegisteredMail(email, magicLinkUrl(config.publicUrl, token)));
        }
      } else {
        const payload = {
          full_name: body.full_name ?? null,
          // The token row keeps the hash only; the password itself never touches the database.
          hashed_password: hashedPassword,
        };
        const token = await issueOneTimeToken(db, 'email_verification', email, payload);
        await sendMail(ctx, verifyEmailMail(email, verifyEmailUrl(config.publicUrl, token)));
      }
      return { message: MAIL_SENT };
    },
  );

  route(
    {
      method: 'post',
      path: '/auth/users/register',
      summary: 'Finish registration with the mailed token; answers an access token and the user',
      auth: 'none',
      use: [countSignin],
      body: RegisterRequest,
      response: RegisterResponse,
      errors: [400, 429],
    },
    async (_c, { body }) => {
      const used = await consumeOneTimeToken(db, 'email_verification', body.email_verification_token);
      if (!used) throw new HttpError(400, INVALID_TOKEN);
      let user: UserRecord;
      try {
        user = await createUser(db, {
          email: used.email,
          fullName: typeof used.payload.full_name === 'string' ? used.payload.full_name : null,
          hashedPassword: typeof used.payload.hashed_password === 'string' ? used.payload.hashed_password : null,
        });
      } catch (err) {
        if ((err as { code?: string }).code === '23505')
          throw new HttpError(400, 'The user with this email already exists in the system');
        throw err;
      }
      const token = await issue(user);
      return { token, user: toWireUser(user) };
    },
  );

  route(
    {
      method: 'post',
      path: '/auth/login/google',
      summary: 'Sign in with a Google id_token',
      auth: 'none',
      use: [countSignin],
      body: GoogleLoginRequest,
      response: LoginResponse,
      errors: [400, 429],
    },
    async (_c, { body }) => {
      if (!google) throw new HttpError(400, 'Google sign-in is not configured on this server');
      const identity = await google(body.id_token);
      if (!identity) throw new HttpError(400, 'Invalid Google credentials');
      const user = activeOr400(await findOrCreateUser(db, identity.email, identity.name));
      return issue(user);
    },
  );

  route({ method: 'get', path: '/auth/users/me', summary: 'The signed-in user', auth: 'user', response: User }, (c) =>
    toWireUser(currentUser(c)),
  );
}

/** Sends a mail; a refusing SMTP server is the request's 502, so the caller knows the link never left. */
async function sendMail(ctx: AppContext, mail: Mail): Promise<void> {
  try {
    await ctx.mailer.send(mail);
  } catch (err) {
    if (err instanceof MailDeliveryError) throw new HttpError(502, err.message);
    throw err;
  }
}
