// @kernelforge/server's public surface: build, start and test the server from code.
export { createApp, MAX_BODY_BYTES } from './app.js';
export { type Config, loadConfig } from './config.js';
export { type AppContext, createContext, type ContextOptions } from './context.js';
export { type Database, openDatabase } from './db/client.js';
export type { Sql } from './db/sql.js';
export { migrate } from './db/migrate.js';
export {
  type AppEnv,
  authenticate,
  currentUser,
  maybeUser,
  optionalUser,
  requireSuperuser,
  requireUser,
} from './http/auth.js';
export { clientIp, createRateLimiter, type RateLimiter } from './http/rate-limit.js';
export { parseForm, parseJson, parseParams, parseQuery } from './http/validate.js';
export { HttpError, ValidationError } from './http/errors.js';
export { buildOpenApiDocument, registerRoute, type RouteDoc } from './http/openapi.js';
export { routeTable, type RouteSpec } from './http/route.js';
export { type RunningServer, startServer } from './server.js';
