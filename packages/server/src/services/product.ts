// The product's shared state for one server process: SQL access, the event bus, the catalogue, the device registry.
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { EventBus } from '../events/bus.js';
import { JobSignals } from '../jobs/signals.js';
import type { Logger } from '../log.js';
import { Catalogue } from './catalogue.js';
import { DeviceRegistry } from './devices.js';
import { type Sql, sqlFrom } from './sql.js';

/** What the product needs of the platform's AppContext. */
export interface ProductHost {
  config: Config;
  db: Database;
  log: Logger;
}

export interface Product {
  config: Config;
  log: Logger;
  db: Database;
  sql: Sql;
  bus: EventBus;
  signals: JobSignals;
  catalogue: Catalogue;
  devices: DeviceRegistry;
}

// Routes and background workers receive the same AppContext, so they share one Product through this map.
const products = new WeakMap<object, Product>();

export function productOf(ctx: ProductHost): Product {
  let p = products.get(ctx);
  if (!p) {
    const sql = sqlFrom(ctx.db);
    p = {
      config: ctx.config,
      log: ctx.log,
      db: ctx.db,
      sql,
      bus: new EventBus(sql, ctx.db),
      signals: new JobSignals(ctx.db),
      catalogue: new Catalogue(ctx.config.problemsDir, ctx.config.problemDirs, ctx.config.torchBudgets),
      devices: new DeviceRegistry(sql, ctx.config),
    };
    products.set(ctx, p);
  }
  return p;
}
