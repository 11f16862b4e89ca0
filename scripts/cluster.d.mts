// Types of scripts/cluster.mjs, for the tests that start a local cluster.
import type { ChildProcess } from 'node:child_process';

export interface ClusterProcess {
  name: string;
  proc: ChildProcess;
  log(): string;
  stop(): Promise<void>;
}

export interface Cluster {
  databaseUrl: string;
  /** server-1's and server-2's URLs. */
  urls: [string, string];
  admin: { email: string; password: string };
  runnerToken: string;
  /** server-1, server-2, runner, in start order. */
  processes: ClusterProcess[];
  stop(): Promise<void>;
}

export function startCluster(opts?: {
  print?: (line: string) => void;
  together?: boolean;
  runnerEnv?: Record<string, string>;
}): Promise<Cluster>;
