// A read-only source view (CodeMirror, loaded on first use): line numbers and highlighting, Python when the language
// is `pytorch`, else C++ (C and CUDA read as C++). Until CodeMirror has loaded it shows the plain text.
import { useEffect, useRef } from 'react';
import { useCodeMirror } from './code/useCodeMirror';

export function CodeView({
  source,
  label,
  language,
  marked,
}: {
  source: string;
  label: string;
  language?: string;
  /** Lines [from, to] (1-based) to mark, e.g. the hot loop of an assembly. */
  marked?: { from: number; to: number } | undefined;
}) {
  const cm = useCodeMirror();
  const host = useRef<HTMLDivElement>(null);
  const from = marked?.from;
  const to = marked?.to;
  useEffect(() => {
    if (!cm || !host.current) return;
    const view = cm.mountCodeView(host.current, {
      source,
      label,
      language,
      marked: from !== undefined && to !== undefined ? { from, to } : undefined,
    });
    return () => view.destroy();
  }, [cm, source, label, language, from, to]);
  return (
    <div className="kf-code kf-code-view overflow-hidden rounded-md border border-slate-200 dark:border-slate-800">
      {cm ? (
        <div ref={host} />
      ) : (
        <pre
          aria-label={label}
          data-language={language ?? 'c'}
          className="max-h-[36rem] overflow-auto bg-slate-50 px-3 py-1 font-mono text-xs leading-5 text-slate-900 dark:bg-slate-950 dark:text-slate-100"
        >
          {source}
        </pre>
      )}
    </div>
  );
}
