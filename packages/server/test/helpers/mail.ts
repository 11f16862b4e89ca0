// Reading mail the server kept in its outbox, and pulling the one-time token out of a link.
import type { OutboxMail } from '@kernelforge/sdk';
import type { TestTarget } from './server.js';

export async function outbox(server: TestTarget): Promise<OutboxMail[]> {
  const r = await server.request('/api/v1/admin/outbox?limit=1000', { token: server.admin.token });
  if (r.status !== 200) throw new Error(`outbox answered ${r.status}`);
  return ((await r.json()) as { data: OutboxMail[] }).data;
}

/** The newest mail to `to`, failing the test when there is none. */
export async function lastMailTo(server: TestTarget, to: string): Promise<OutboxMail> {
  const mail = (await outbox(server)).find((m) => m.to === to.toLowerCase());
  if (!mail) throw new Error(`no mail to ${to} in the outbox`);
  return mail;
}

/** The `token` query parameter of the first link to `/<page>?token=` in a text. */
export function tokenFromLink(text: string, page: 'magic-link-login' | 'verify-email'): string {
  const m = new RegExp(`https?://\\S+/${page}\\?token=([A-Za-z0-9_%.-]+)`).exec(text);
  if (!m?.[1]) throw new Error(`no /${page} link in: ${text}`);
  return decodeURIComponent(m[1]);
}
