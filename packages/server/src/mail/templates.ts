// The words of each mail the server sends, with the links the web app's /verify-email and /magic-link-login pages read.
import type { Mail } from './mailer.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function linkMail(to: string, subject: string, intro: string, action: string, url: string): Mail {
  const text = `${intro}\n\n${action}:\n${url}\n\nThe link works once and expires in 15 minutes. If you did not ask for it, ignore this mail.\n`;
  const html = `<p>${esc(intro)}</p><p><a href="${esc(url)}">${esc(action)}</a></p><p>The link works once and expires in 15 minutes. If you did not ask for it, ignore this mail.</p>`;
  return { to, subject, text, html };
}

export const magicLinkUrl = (publicUrl: string, token: string) =>
  `${publicUrl}/magic-link-login?token=${encodeURIComponent(token)}`;
export const verifyEmailUrl = (publicUrl: string, token: string) =>
  `${publicUrl}/verify-email?token=${encodeURIComponent(token)}`;

export const magicLinkMail = (to: string, url: string): Mail =>
  linkMail(to, 'Your Kernelforge sign-in link', 'Here is your link to sign in to Kernelforge.', 'Sign in', url);

export const verifyEmailMail = (to: string, url: string): Mail =>
  linkMail(
    to,
    'Confirm your Kernelforge account',
    'Confirm your address to finish creating your Kernelforge account.',
    'Confirm and sign in',
    url,
  );

/** Sent instead of a verification mail when the address already has an account (the API answers the same either way). */
export const alreadyRegisteredMail = (to: string, url: string): Mail =>
  linkMail(
    to,
    'Your Kernelforge sign-in link',
    'Someone asked to create an account with this address, which already has one.',
    'Sign in',
    url,
  );

/** The confirmation link for a new address, read by the web's /account/confirm-email page (issue 35 item 11). */
export const confirmEmailUrl = (publicUrl: string, token: string) =>
  `${publicUrl}/account/confirm-email?token=${encodeURIComponent(token)}`;

export const confirmEmailChangeMail = (to: string, url: string): Mail =>
  linkMail(
    to,
    'Confirm your new Kernelforge address',
    'Someone signed in to Kernelforge asked to use this address for their account. Open the link, signed in to that account, to make the change.',
    'Confirm the new address',
    url,
  );

/** Told to the old address once the change is made, so a change its owner did not make does not go unseen. */
export function emailChangedMail(to: string, newAddress: string): Mail {
  const text = `The email address of your Kernelforge account was changed to ${newAddress}. Sign in with that address from now on.\n\nIf you did not make this change, contact the site's administrators.\n`;
  const html = `<p>The email address of your Kernelforge account was changed to ${esc(newAddress)}. Sign in with that address from now on.</p><p>If you did not make this change, contact the site's administrators.</p>`;
  return { to, subject: 'Your Kernelforge address was changed', text, html };
}
