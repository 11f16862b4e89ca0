// Sweeps: one agent over a problem set, scored by fast_p (issue 24).
import { type HttpClient, path, type RequestOptions } from '../core/http.js';
import { PAGE_SIZE, PagePromise } from '../core/pagination.js';
import { listOf, Message } from '../schemas/common.js';
import {
  type CreateSweepRequest,
  type ListSweepsParams,
  type SaveSweepSetRequest,
  Sweep,
  SweepSet,
  SweepSummary,
} from '../schemas/sweep.js';

const SweepList = listOf(SweepSummary);
const SweepSetList = listOf(SweepSet);

export class SweepsResource {
  constructor(private readonly http: HttpClient) {}

  /** POST /api/v1/sweep: starts one agent session per problem. */
  create(body: CreateSweepRequest, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'POST', path: '/sweep', json: body, schema: Sweep });
  }

  /** GET /api/v1/sweep/{id}: status, per-problem results and fast_p so far. */
  get(id: string, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: path`/sweep/${id}`, schema: Sweep });
  }

  /** GET /api/v1/sweep: the caller's sweeps (every sweep for a superuser), newest first; `for await` walks them all. */
  list(params: ListSweepsParams = {}, options?: RequestOptions) {
    return new PagePromise(
      (offset, limit) =>
        this.http.request({
          ...options,
          method: 'GET',
          path: '/sweep',
          query: { ...params, limit, offset },
          schema: SweepList,
        }),
      params.offset ?? 0,
      params.limit ?? PAGE_SIZE,
    );
  }

  /** POST /api/v1/sweep/{id}/stop: stops every session of the sweep; problems already scored stay. */
  stop(id: string, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'POST', path: path`/sweep/${id}/stop`, schema: Sweep });
  }

  /** DELETE /api/v1/sweep/{id}: stops it and deletes it with its sessions. */
  delete(id: string, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'DELETE', path: path`/sweep/${id}`, schema: Message });
  }

  /** GET /api/v1/sweep-set: the named problem sets, built in and saved, with their problems. */
  sets(options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: '/sweep-set', schema: SweepSetList });
  }

  /** PUT /api/v1/sweep-set/{name} (superusers): save (or replace) a named problem set. */
  saveSet(name: string, body: SaveSweepSetRequest, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'PUT',
      path: path`/sweep-set/${name}`,
      json: body,
      schema: SweepSet,
    });
  }

  /** DELETE /api/v1/sweep-set/{name} (superusers): forget a saved set; sweeps made from it keep their problems. */
  deleteSet(name: string, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'DELETE', path: path`/sweep-set/${name}`, schema: Message });
  }
}
