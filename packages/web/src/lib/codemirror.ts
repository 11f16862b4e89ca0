// CodeMirror 6 for the code on the pages that show it: the submit editor, the read-only source views and the diffs
// (@codemirror/merge: unified and side by side). This module is only ever loaded through a dynamic import
// (components/code/loadCodeMirror.ts), so its chunk stays off the pages without code (sign-in, leaderboards).
// Colours come from the app's stylesheet: the highlighter gives tokens the `tok-*` classes of index.css (light and
// dark), and index.css styles the editor, its gutters and the merge views in the app's slate palette.
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { cpp } from '@codemirror/lang-cpp';
import { python, pythonLanguage } from '@codemirror/lang-python';
import { bracketMatching, indentOnInput, indentUnit, LanguageSupport, syntaxHighlighting } from '@codemirror/language';
import { MergeView, unifiedMergeView } from '@codemirror/merge';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { type Highlighter, styleTags, tagHighlighter, tags as t } from '@lezer/highlight';

// Python with a decorator's whole name marked (the grammar marks only its `@`).
const decoratedPython = pythonLanguage.configure({ props: [styleTags({ 'Decorator/VariableName': t.meta })] });

/** Python for `pytorch` sources; C++ (which reads C and CUDA well enough) for the rest. */
export function languageSupport(language: string | undefined): LanguageSupport {
  return language === 'pytorch' ? new LanguageSupport(decoratedPython, python().support) : cpp();
}

const COMMON = [
  { tag: [t.keyword, t.bool, t.null, t.self], class: 'tok-keyword' },
  { tag: [t.typeName, t.className, t.namespace], class: 'tok-type' },
  { tag: [t.string, t.character, t.escape], class: 'tok-string' },
  { tag: t.number, class: 'tok-number' },
  { tag: t.comment, class: 'tok-comment' },
  {
    tag: [t.function(t.variableName), t.function(t.definition(t.variableName)), t.function(t.propertyName)],
    class: 'tok-fn',
  },
];

/** Token classes (index.css's `tok-*`): preprocessor lines in C, decorators in Python. */
export function highlighterFor(language: string | undefined): Highlighter {
  return language === 'pytorch'
    ? tagHighlighter([...COMMON, { tag: [t.meta], class: 'tok-decorator' }])
    : tagHighlighter([...COMMON, { tag: [t.processingInstruction, t.meta, t.special(t.name)], class: 'tok-preproc' }]);
}

function languageExtensions(language: string | undefined): Extension {
  return [languageSupport(language), syntaxHighlighting(highlighterFor(language))];
}

/** Read-only: selectable and focusable (so keyboard users can scroll it), never editable. */
function readOnly(label: string): Extension {
  return [
    EditorState.readOnly.of(true),
    EditorView.editable.of(false),
    EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0', 'aria-readonly': 'true' }),
  ];
}

/** The app's look, in both themes: colours are index.css's `--kf-code-*` variables, which the `dark` class swaps. */
const theme = EditorView.theme({
  '&': {
    color: 'var(--kf-code-text)',
    backgroundColor: 'var(--kf-code-bg)',
    fontSize: '0.75rem',
    lineHeight: '1.25rem',
  },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.25rem' },
  '.cm-content': { padding: '0.25rem 0', caretColor: 'var(--kf-code-caret)' },
  '.cm-line': { padding: '0 0.75rem' },
  '.cm-gutters': {
    backgroundColor: 'var(--kf-code-gutter-bg)',
    color: 'var(--kf-code-gutter-text)',
    borderRight: '1px solid var(--kf-code-border)',
  },
  '.cm-lineNumbers .cm-gutterElement': { padding: '0 0.5rem 0 0.75rem' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--kf-code-caret)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection':
    { backgroundColor: 'var(--kf-code-selection)' },
  '.cm-activeLine': { backgroundColor: 'var(--kf-code-active)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--kf-code-active)', color: 'var(--kf-code-text)' },
  '&.cm-focused .cm-matchingBracket': { backgroundColor: 'var(--kf-code-selection)' },
  // The merge views: added lines green, removed lines red, changed words a shade deeper.
  '&.cm-merge-b .cm-changedLine, .cm-inlineChangedLine': { backgroundColor: 'var(--kf-diff-added)' },
  '&.cm-merge-a .cm-changedLine, .cm-deletedChunk': { backgroundColor: 'var(--kf-diff-removed)' },
  '&.cm-merge-b .cm-changedText, .cm-inlineChangedLine .cm-changedText': {
    background: 'var(--kf-diff-added-text)',
  },
  '&.cm-merge-a .cm-changedText, .cm-deletedChunk .cm-deletedText': { background: 'var(--kf-diff-removed-text)' },
  '&.cm-merge-b .cm-changedLineGutter, .cm-inlineChangedLineGutter': { background: 'var(--kf-diff-added-mark)' },
  '&.cm-merge-a .cm-changedLineGutter, .cm-deletedLineGutter': { background: 'var(--kf-diff-removed-mark)' },
  '.cm-collapsedLines': {
    color: 'var(--kf-diff-fold-text)',
    background: 'var(--kf-code-gutter-bg)',
    padding: '0.125rem 0.75rem',
    fontFamily: 'var(--font-sans)',
  },
  '.cm-collapsedLines:hover': { textDecoration: 'underline' },
  // A marked range (the hot loop of an attempt's assembly).
  '.cm-kf-marked': { backgroundColor: 'rgba(245, 158, 11, 0.18)', boxShadow: 'inset 3px 0 0 rgb(245, 158, 11)' },
  // The bar's marks in a character every font has.
  '.cm-collapsedLines:before': { content: '"⋯"' },
  '.cm-collapsedLines:after': { content: '""' },
});

const BASE: Extension = [theme, lineNumbers(), highlightSpecialChars(), drawSelection(), EditorState.tabSize.of(4)];

export interface CodeHandle {
  destroy(): void;
}

/** Lines [from, to] (1-based) marked, e.g. an assembly's hot loop. */
export interface MarkedLines {
  from: number;
  to: number;
}

function markedLines(doc: string, marked: MarkedLines): Extension {
  const state = EditorState.create({ doc });
  const last = Math.min(marked.to, state.doc.lines);
  const ranges = [];
  for (let n = Math.max(1, marked.from); n <= last; n++)
    ranges.push(Decoration.line({ class: 'cm-kf-marked' }).range(state.doc.line(n).from));
  return EditorView.decorations.of(Decoration.set(ranges));
}

/** A read-only source view with line numbers and highlighting; `asm` is shown plain. */
export function mountCodeView(
  parent: HTMLElement,
  opts: { source: string; label: string; language: string | undefined; marked?: MarkedLines | undefined },
): CodeHandle {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: opts.source,
      extensions: [
        BASE,
        readOnly(opts.label),
        opts.language === 'asm' ? [] : languageExtensions(opts.language),
        opts.marked ? markedLines(opts.source, opts.marked) : [],
      ],
    }),
  });
  view.dom.dataset.language = opts.language ?? 'c';
  if (opts.marked && opts.marked.from <= view.state.doc.lines) {
    view.dom.dataset.marked = `${opts.marked.from}-${opts.marked.to}`;
    const at = view.state.doc.line(opts.marked.from).from;
    view.dispatch({ effects: EditorView.scrollIntoView(at, { y: 'center' }) });
  }
  return view;
}

export interface EditorHandle extends CodeHandle {
  /** Replaces the text when it differs from `source` (a new template, an uploaded file). */
  setSource(source: string): void;
  setLanguage(language: string | undefined): void;
  focus(): void;
}

/** The submit page's editor: Tab indents (Escape then Tab moves on, CodeMirror's own escape from the editor), Enter
 * keeps the indentation (one level more after `{`, or `:` in Python), undo and redo. */
export function mountEditor(
  parent: HTMLElement,
  opts: {
    source: string;
    language: string | undefined;
    labelledBy: string;
    onChange: (source: string) => void;
  },
): EditorHandle {
  const language = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: opts.source,
      extensions: [
        BASE,
        highlightActiveLine(),
        highlightActiveLineGutter(),
        history(),
        bracketMatching(),
        indentOnInput(),
        indentUnit.of('    '),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        language.of(languageExtensions(opts.language)),
        EditorView.contentAttributes.of({
          'aria-labelledby': opts.labelledBy,
          'aria-multiline': 'true',
          'aria-required': 'true',
          autocapitalize: 'off',
          autocorrect: 'off',
          spellcheck: 'false',
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) opts.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  view.dom.dataset.language = opts.language ?? 'c';
  return {
    destroy: () => view.destroy(),
    focus: () => view.focus(),
    setSource(source) {
      const current = view.state.doc.toString();
      if (current !== source) view.dispatch({ changes: { from: 0, to: current.length, insert: source } });
    },
    setLanguage(next) {
      view.dom.dataset.language = next ?? 'c';
      view.dispatch({ effects: language.reconfigure(languageExtensions(next)) });
    },
  };
}

/** Unchanged runs longer than this (beyond 3 lines of context on each side) fold into a bar that unfolds on click. */
const COLLAPSE = { margin: 3, minSize: 4 };

/** A unified diff: the new source, with the removed lines shown above what replaced them. */
export function mountUnifiedDiff(
  parent: HTMLElement,
  opts: { before: string; after: string; label: string; language: string | undefined },
): CodeHandle {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: opts.after,
      extensions: [
        BASE,
        readOnly(opts.label),
        languageExtensions(opts.language),
        unifiedMergeView({
          original: opts.before,
          mergeControls: false,
          highlightChanges: true,
          gutter: true,
          syntaxHighlightDeletions: true,
          collapseUnchanged: COLLAPSE,
        }),
      ],
    }),
  });
  view.dom.dataset.language = opts.language ?? 'c';
  return view;
}

/** Side by side: the old source on the left, the new on the right, long lines wrapped. */
export function mountSplitDiff(
  parent: HTMLElement,
  opts: { before: string; after: string; label: string; language: string | undefined },
): CodeHandle {
  const side = (label: string) => [BASE, readOnly(label), EditorView.lineWrapping, languageExtensions(opts.language)];
  return new MergeView({
    parent,
    a: { doc: opts.before, extensions: side(`${opts.label}: before`) },
    b: { doc: opts.after, extensions: side(`${opts.label}: after`) },
    highlightChanges: true,
    gutter: true,
    collapseUnchanged: COLLAPSE,
  });
}
