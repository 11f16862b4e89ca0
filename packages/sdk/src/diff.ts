// Line diffs of two sources (longest common subsequence; large inputs fall back to a plain before/after
// listing): the web's folded diff view and the CLI's `diff -u` text share this one implementation.
export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

const MAX_CELLS = 4_000_000;

export function diffLines(before: string, after: string): DiffLine[] {
  return diffLineArrays(before.split('\n'), after.split('\n'));
}

function diffLineArrays(a: readonly string[], b: readonly string[]): DiffLine[] {
  // Common head and tail first: most attempts change a few lines in the middle.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const out: DiffLine[] = a.slice(0, head).map((text) => ({ kind: 'same', text }));
  out.push(...lcsDiff(midA, midB));
  out.push(...a.slice(a.length - tail).map((text): DiffLine => ({ kind: 'same', text })));
  return out;
}

function lcsDiff(a: readonly string[], b: readonly string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS) {
    return [
      ...a.map((text): DiffLine => ({ kind: 'removed', text })),
      ...b.map((text): DiffLine => ({ kind: 'added', text })),
    ];
  }
  // lengths[i][j]: LCS length of a[i..] and b[j..], in one flat array.
  const lengths = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => lengths[i * (m + 1) + j] ?? 0;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * (m + 1) + j] = a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i] ?? '' });
      i++;
      j++;
    } else if (at(i + 1, j) >= at(i, j + 1)) {
      out.push({ kind: 'removed', text: a[i++] ?? '' });
    } else {
      out.push({ kind: 'added', text: b[j++] ?? '' });
    }
  }
  while (i < n) out.push({ kind: 'removed', text: a[i++] ?? '' });
  while (j < m) out.push({ kind: 'added', text: b[j++] ?? '' });
  return out;
}

export interface NumberedLine extends DiffLine {
  /** Line number in the old text (removed and unchanged lines). */
  oldNo?: number;
  /** Line number in the new text (added and unchanged lines). */
  newNo?: number;
}

export type DiffSegment = { kind: 'lines'; lines: NumberedLine[] } | { kind: 'fold'; lines: NumberedLine[] };

/** A unified diff: changed lines with `context` unchanged lines around them; longer unchanged runs folded. */
export function unifiedDiff(lines: readonly DiffLine[], context = 3): DiffSegment[] {
  let oldNo = 0;
  let newNo = 0;
  const numbered: NumberedLine[] = lines.map((line) => {
    if (line.kind === 'same') return { ...line, oldNo: ++oldNo, newNo: ++newNo };
    if (line.kind === 'removed') return { ...line, oldNo: ++oldNo };
    return { ...line, newNo: ++newNo };
  });
  // Which lines are shown: every change and `context` lines either side of it.
  const shown = numbered.map(() => false);
  numbered.forEach((line, i) => {
    if (line.kind === 'same') return;
    for (let j = Math.max(0, i - context); j <= Math.min(numbered.length - 1, i + context); j++) shown[j] = true;
  });
  const segments: DiffSegment[] = [];
  for (let i = 0; i < numbered.length; ) {
    const kind = shown[i] ? 'lines' : 'fold';
    const run: NumberedLine[] = [];
    while (i < numbered.length && (shown[i] ? 'lines' : 'fold') === kind) run.push(numbered[i++] as NumberedLine);
    segments.push({ kind, lines: run });
  }
  return segments;
}

/** `diff -u` style text of two sources (the CLI's `attempts show --diff`); empty when they are the same. */
export function unifiedDiffText(before: string, after: string, fromName: string, toName: string, context = 3): string {
  const lines = diffLineArrays(splitLines(before), splitLines(after));
  if (lines.every((l) => l.kind === 'same')) return '';
  const out = [`--- ${fromName}`, `+++ ${toName}`];
  let oldBefore = 0;
  let newBefore = 0;
  for (const segment of unifiedDiff(lines, context)) {
    const oldCount = segment.lines.filter((l) => l.kind !== 'added').length;
    const newCount = segment.lines.filter((l) => l.kind !== 'removed').length;
    if (segment.kind === 'lines') {
      const oldStart = oldCount === 0 ? oldBefore : oldBefore + 1;
      const newStart = newCount === 0 ? newBefore : newBefore + 1;
      out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
      for (const l of segment.lines) out.push(`${l.kind === 'same' ? ' ' : l.kind === 'removed' ? '-' : '+'}${l.text}`);
    }
    oldBefore += oldCount;
    newBefore += newCount;
  }
  return `${out.join('\n')}\n`;
}

/** A text's lines, without the empty one after a final newline. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
