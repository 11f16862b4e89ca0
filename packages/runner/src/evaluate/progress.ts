// An evaluation's progress as the session page shows it ("Timing case 1 of 2 · 37 samples"): the runner says when it
// compiles; the trusted harness (c/harness_progress.c, kforge_torch/plan.py) rewrites a small JSON file in the job's
// progress folder while it checks and times, which the runner watches. The folder is the harness's alone: no worker
// sandbox mounts it (a worker sees only box/ or refbox/). Informational only: no verdict or figure comes from it.
import { closeSync, constants, fstatSync, openSync, readSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { EvaluationProgress } from '@kernelforge/sdk';

/** The folder in the job folder the harness writes its progress to, and the file's name in it. */
export const PROGRESS_FOLDER = 'progress';
export const PROGRESS_FILE = 'progress.json';

/** Called with each new progress of a job (the same one is not repeated). */
export type ProgressListener = (progress: EvaluationProgress) => void;

export const COMPILING: EvaluationProgress = { stage: 'compiling', case_index: 0, case_count: 0, samples: 0 };

/** How often the file is read besides on change notices (a file system without inotify still gets progress). */
const POLL_MS = 1000;
/** A progress file is some 70 bytes; anything longer is not one. */
const MAX_BYTES = 512;

/**
 * The progress file's contents, validated; null when there is none or it is not one. Opened without following a
 * link and without blocking (a sandboxed harness runs an untrusted custom reference, which could leave a fifo or a
 * link there), read only when it is a small regular file.
 */
export function readProgress(file: string): EvaluationProgress | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_BYTES) return null;
    const buf = Buffer.alloc(MAX_BYTES);
    const n = readSync(fd, buf, 0, MAX_BYTES, 0);
    const parsed = EvaluationProgress.safeParse(JSON.parse(buf.subarray(0, n).toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Watches `folder`'s progress file until the returned stop is called; tells `listener` of each change. */
export function watchProgress(folder: string, listener: ProgressListener): () => void {
  const file = join(folder, PROGRESS_FILE);
  let last = '';
  const look = () => {
    const p = readProgress(file);
    if (!p) return;
    const key = JSON.stringify(p);
    if (key === last) return;
    last = key;
    listener(p);
  };
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(folder, { persistent: false }, look);
    watcher.on('error', () => {});
  } catch {
    watcher = null;
  }
  const timer = setInterval(look, POLL_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    watcher?.close();
  };
}
