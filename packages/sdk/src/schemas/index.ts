// Every wire schema, one import away.
export * from './common.js';
export * from './device.js';
export * from './evaluation.js';
export * from './events.js';
export * from './leaderboard.js';
export * from './problem.js';
export * from './runner.js';
export * from './session.js';
export * from './user.js';
export * from './sweep.js';
export * from './submission-progress.js';
export * from './notice.js';
