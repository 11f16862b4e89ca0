// @kernelforge/sdk: the contract (zod schemas) and the typed client, for the browser and Node alike.
export * from './schemas/index.js';
