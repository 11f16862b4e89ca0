// Site settings: analytics, sign-in options, page links, the agents on offer.
import type { HttpClient, RequestOptions } from '../core/http.js';
import { Settings } from '../schemas/user.js';

export class SettingsResource {
  constructor(private readonly http: HttpClient) {}

  /** GET /api/v1/settings (answers without a token too). */
  get(options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: '/settings', schema: Settings });
  }
}
