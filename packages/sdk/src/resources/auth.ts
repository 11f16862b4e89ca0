// The auth server's calls (spec section 7): password, magic link, email verification, Google, the current user.
import { z } from 'zod';
import { AuthenticationError } from '../core/errors.js';
import type { HttpClient, RequestOptions } from '../core/http.js';
import { Message } from '../schemas/common.js';
import {
  type EmailVerificationRequest,
  LoginResponse,
  type MagicLinkRequest,
  RegisterResponse,
  User,
} from '../schemas/user.js';

export const APPLICATION_NAME = 'kernelforge';

export class AuthResource {
  constructor(private readonly http: HttpClient) {}

  /** POST login/access-token, form data. Stores the token. */
  async loginWithPassword(form: { username: string; password: string }, options?: RequestOptions) {
    const response = await this.http.request({
      ...options,
      method: 'POST',
      path: '/login/access-token',
      form,
      schema: LoginResponse,
      auth: false,
    });
    await this.http.tokenStore.set(response.access_token);
    return response;
  }

  /** POST login/magic-link {token}. Stores the token. */
  async loginWithMagicLink(body: { token: string }, options?: RequestOptions) {
    const response = await this.http.request({
      ...options,
      method: 'POST',
      path: '/login/magic-link',
      json: body,
      schema: LoginResponse,
      auth: false,
    });
    await this.http.tokenStore.set(response.access_token);
    return response;
  }

  /** POST magic-link {email, application}: mails a sign-in link. */
  requestMagicLink(body: MagicLinkRequest, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'POST',
      path: '/magic-link',
      json: { application: APPLICATION_NAME, ...body },
      schema: Message,
      auth: false,
    });
  }

  /** POST users/register/email-verification-token {email, application}. */
  requestEmailVerification(body: EmailVerificationRequest, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'POST',
      path: '/users/register/email-verification-token',
      json: { application: APPLICATION_NAME, ...body },
      schema: Message.or(z.unknown()),
      auth: false,
    });
  }

  /** POST users/register {email_verification_token}. Stores the token when the response has one. */
  async register(body: { email_verification_token: string }, options?: RequestOptions) {
    const response = await this.http.request({
      ...options,
      method: 'POST',
      path: '/users/register',
      json: body,
      schema: RegisterResponse,
      auth: false,
    });
    if (response.token.access_token) await this.http.tokenStore.set(response.token.access_token);
    return response;
  }

  /** POST login/google {id_token}. Stores the token. */
  async loginWithGoogle(body: { id_token: string }, options?: RequestOptions) {
    const response = await this.http.request({
      ...options,
      method: 'POST',
      path: '/login/google',
      json: body,
      schema: LoginResponse,
      auth: false,
    });
    await this.http.tokenStore.set(response.access_token);
    return response;
  }

  /** GET users/me. A 401 removes the stored token (spec section 7). */
  async me(options?: RequestOptions) {
    try {
      return await this.http.request({ ...options, method: 'GET', path: '/users/me', schema: User });
    } catch (error) {
      if (error instanceof AuthenticationError) await this.http.tokenStore.clear();
      throw error;
    }
  }

  /** Forgets the stored token. */
  async logout() {
    await this.http.tokenStore.clear();
  }
}
