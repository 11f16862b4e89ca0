// The problem catalogue: what a session or a submission can be about.
import { type HttpClient, path, type RequestOptions } from '../core/http.js';
import { listOf } from '../schemas/common.js';
import { Problem } from '../schemas/problem.js';

const ProblemList = listOf(Problem);

export class ProblemsResource {
  constructor(private readonly http: HttpClient) {}

  /** GET /api/v1/problems */
  list(options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: '/problems', schema: ProblemList });
  }

  /** GET /api/v1/problems/{name} */
  get(name: string, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: path`/problems/${name}`, schema: Problem });
  }
}
