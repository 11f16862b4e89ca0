// @vitest-environment happy-dom
// The code views are CodeMirror (lib/codemirror.ts): the token classes its highlighter gives C/C++/CUDA and Python
// (comments read first: nothing inside a comment is a string or a keyword, a string holding `/*` stays a string), and
// the components mounting the read-only view, the editor and both merge views.
import { highlightCode } from '@lezer/highlight';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeView } from '../src/components/CodeView';
import { DiffView } from '../src/components/DiffView';
import { SourceEditor } from '../src/components/SourceEditor';
import { highlighterFor, languageSupport } from '../src/lib/codemirror';

afterEach(cleanup);

/** [class, text] of each highlighted run of `source`, as the views colour it. */
function classes(source: string, language?: string): [string, string][] {
  const out: [string, string][] = [];
  const tree = languageSupport(language).language.parser.parse(source);
  highlightCode(
    source,
    tree,
    highlighterFor(language),
    (text, cls) => {
      if (cls) out.push([cls, text]);
    },
    () => {},
  );
  return out;
}

describe('C/C++/CUDA highlighting', () => {
  it('a block comment with an apostrophe is one comment, and what follows it is code', () => {
    const source = "/* it's the\n   for loop's tail: return early */\nint x = 'a';\n";
    expect(classes(source)).toEqual([
      ['tok-comment', "/* it's the"],
      ['tok-comment', "   for loop's tail: return early */"],
      ['tok-type', 'int'],
      ['tok-string', "'a'"],
    ]);
  });

  it('a string holding /* stays a string, keywords, calls, numbers and preprocessor lines', () => {
    const got = classes('#include <stdint.h>\nint f(void) { puts("/* no"); return 0; } // real');
    expect(got).toEqual(
      expect.arrayContaining([
        ['tok-preproc', '#include'],
        ['tok-string', '<stdint.h>'],
        ['tok-fn', 'f'],
        ['tok-fn', 'puts'],
        ['tok-string', '"/* no"'],
        ['tok-keyword', 'return'],
        ['tok-number', '0'],
        ['tok-comment', '// real'],
      ]),
    );
    expect(got.filter(([cls]) => cls === 'tok-comment')).toEqual([['tok-comment', '// real']]);
  });

  it('reads CUDA as C++ (qualifiers and launches do not break the parse)', () => {
    const got = classes('__global__ void k(float* y) { y[threadIdx.x] = 0.0f; }\nint main() { k<<<1, 32>>>(0); }');
    expect(got).toEqual(
      expect.arrayContaining([
        ['tok-type', 'void'],
        ['tok-number', '0.0f'],
        ['tok-fn', 'main'],
      ]),
    );
  });
});

describe('Python highlighting', () => {
  it('marks keywords, strings, comments, numbers, definitions and decorators', () => {
    const got = classes('@torch.jit.script\ndef f(x):\n    """doc"""\n    return x * 2  # same\n', 'pytorch');
    expect(got).toEqual(
      expect.arrayContaining([
        ['tok-decorator', '@'],
        ['tok-decorator', 'torch'],
        ['tok-decorator', 'script'],
        ['tok-keyword', 'def'],
        ['tok-fn', 'f'],
        ['tok-string', '"""doc"""'],
        ['tok-keyword', 'return'],
        ['tok-number', '2'],
        ['tok-comment', '# same'],
      ]),
    );
  });
});

let setHostValue: (s: string) => void = () => {};
/** The editor as the submit page holds it: its value in state, replaced from outside by `setHostValue`. */
function EditorHost() {
  const [value, setValue] = useState('int a;');
  setHostValue = setValue;
  return <SourceEditor value={value} onChange={setValue} language="c" />;
}

describe('the components', () => {
  it('a code view mounts a read-only CodeMirror view, labelled, in its language', async () => {
    render(<CodeView source={'import torch\nclass M:\n    pass\n'} label="Reference source" language="pytorch" />);
    const content = await waitFor(() => {
      const el = screen.getByLabelText('Reference source');
      expect(el.classList.contains('cm-content')).toBe(true);
      return el;
    });
    expect(content.getAttribute('contenteditable')).toBe('false');
    expect(content.closest('.cm-editor')?.getAttribute('data-language')).toBe('pytorch');
    // CodeMirror parses in time slices: under load the first slice may highlight only the first line (CI on a busy
    // 2-core Intel saw ['import']), the rest comes in the next ones.
    await waitFor(() =>
      expect([...content.querySelectorAll('.tok-keyword')].map((e) => e.textContent)).toEqual([
        'import',
        'class',
        'pass',
      ]),
    );
  });

  it('diffs mount the unified and the side-by-side merge views', async () => {
    const before = 'int a;\nint b;\n';
    const after = 'int a;\nint c;\n';
    render(<DiffView before={before} after={after} label="Diff" />);
    const unified = screen.getByRole('region', { name: 'Diff' });
    expect(unified.dataset.testid).toBe('diff');
    await waitFor(() => expect(unified.querySelector('.cm-changedLine')?.textContent).toBe('int c;'));
    expect(unified.querySelector('.cm-deletedChunk')?.textContent).toContain('int b;');
    cleanup();
    render(<DiffView before={before} after={after} label="Diff" layout="split" />);
    const split = screen.getByRole('region', { name: 'Diff' });
    expect(split.dataset.testid).toBe('diff-split');
    await waitFor(() => expect(split.querySelector('.cm-mergeView')).not.toBeNull());
    expect(split.querySelector('.cm-merge-a .cm-changedLine')?.textContent).toBe('int b;');
    expect(split.querySelector('.cm-merge-b .cm-changedLine')?.textContent).toBe('int c;');
  });

  it('the editor shows the value it is given and follows a new one (a template, an uploaded file)', async () => {
    render(<EditorHost />);
    const content = await waitFor(() => {
      const el = screen.getByLabelText(/^Source/);
      expect(el.classList.contains('cm-content')).toBe(true);
      return el;
    });
    expect(content.getAttribute('contenteditable')).toBe('true');
    expect(content.textContent).toBe('int a;');
    act(() => setHostValue('float b;'));
    expect(content.textContent).toBe('float b;');
  });
});
