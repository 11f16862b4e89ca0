// Pulls the candidate source out of a model's reply: the fenced block of the right language, else any fence.
import type { Language } from '@kernelforge/sdk';
import { AgentError } from '../types.js';

const EXPLANATION_CHARS = 4000;
const TAGS: Record<Language, string[]> = {
  c: ['c', 'h'],
  cpp: ['cpp', 'c++', 'cc', 'cxx', 'hpp', 'c'],
  cuda: ['cuda', 'cu', 'cpp', 'c++', 'c'],
  pytorch: ['python', 'py', 'python3'],
};

export function extractSource(reply: string, language: Language): { source: string; explanation: string } {
  // A closing fence may be missing when the reply was cut off; the end of the text closes the block then.
  const re = /(^|\n)[ \t]*```[ \t]*([\w+#-]*)[^\n]*\n([\s\S]*?)(?:\n[ \t]*```[ \t]*(?=\n|$)|$)/g;
  const blocks: { tag: string; code: string; start: number; end: number }[] = [];
  for (let m = re.exec(reply); m; m = re.exec(reply)) {
    const start = m.index + (m[1]?.length ?? 0);
    blocks.push({ tag: (m[2] ?? '').toLowerCase(), code: m[3] ?? '', start, end: m.index + m[0].length });
  }
  const fit = blocks.filter((b) => TAGS[language].includes(b.tag));
  const bare = blocks.filter((b) => b.tag === '');
  let pool = fit.length ? fit : bare.length ? bare : [];
  // A ModelNew file: among several Python blocks (a snippet, then the file), the ones that define ModelNew.
  if (language === 'pytorch') {
    const defines = pool.filter((b) => /\bclass\s+ModelNew\b/.test(b.code));
    if (defines.length) pool = defines;
  }
  // The longest block is the whole file; among equals, the last one is the model's final answer.
  const pick = pool.reduce<(typeof pool)[number] | null>(
    (a, b) => (!a || b.code.trim().length >= a.code.trim().length ? b : a),
    null,
  );
  if (!pick || pick.code.trim() === '') throw new AgentError('the model returned no code block', { retryable: false });
  const outside = (reply.slice(0, pick.start) + reply.slice(pick.end)).replace(/\n{3,}/g, '\n\n').trim();
  const explanation = outside.length > EXPLANATION_CHARS ? `${outside.slice(0, EXPLANATION_CHARS)}...` : outside;
  return { source: `${pick.code.replace(/\s+$/, '')}\n`, explanation };
}
