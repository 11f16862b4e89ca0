// Loads lib/codemirror.ts (CodeMirror and its languages, one chunk) on first use: only pages that show code ask for
// it, so the sign-in page and the leaderboards never download it. Until it is there, the code components show the
// plain text.
import { useEffect, useState } from 'react';

export type CodeMirrorModule = typeof import('../../lib/codemirror');

let pending: Promise<CodeMirrorModule> | undefined;
let loaded: CodeMirrorModule | undefined;

/** Starts loading CodeMirror (once); routes that show code call it as they match, beside their page chunk. */
export function loadCodeMirror(): Promise<CodeMirrorModule> {
  pending ??= import('../../lib/codemirror').then(
    (module) => {
      loaded = module;
      return module;
    },
    (error: unknown) => {
      pending = undefined;
      throw error;
    },
  );
  return pending;
}

/** The CodeMirror module once loaded (at once when an earlier page loaded it), else undefined. */
export function useCodeMirror(): CodeMirrorModule | undefined {
  const [module, setModule] = useState(loaded);
  useEffect(() => {
    if (module) return;
    let live = true;
    loadCodeMirror().then(
      (m) => {
        if (live) setModule(m);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [module]);
  return module;
}
