// Small tokenizers for the source views: C/C++/CUDA, and Python for pytorch solutions (comments, strings, numbers,
// keywords, types, calls; Python decorators too).
export type TokenKind = 'keyword' | 'type' | 'string' | 'number' | 'comment' | 'preproc' | 'decorator' | 'fn' | 'plain';
export interface Token {
  kind: TokenKind;
  text: string;
}

const KEYWORDS = new Set(
  'if else for while do switch case default break continue return goto sizeof typedef struct union enum static const volatile extern inline restrict __restrict__ __restrict template typename class namespace using public private protected virtual operator new delete this constexpr auto register __global__ __device__ __host__ __shared__ __constant__ __syncthreads #pragma true false nullptr NULL'.split(
    ' ',
  ),
);
const TYPES = new Set(
  'void char short int long float double signed unsigned bool size_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t float4 float2 dim3 __m128 __m256 __m512 __m256d __m512d __m256i __m512i half'.split(
    ' ',
  ),
);

// Comments first, as whole tokens: a block comment runs across lines to its `*/` (an unclosed one to the end of the
// source, never just the end of its line), so nothing inside one, an apostrophe or a keyword, starts a string or
// reads as a keyword. A string is matched from its opening quote, so `"/*"` or `"//"` inside it stays a string.
const PATTERN =
  /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$(?![\s\S])))|("(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?)|(^[ \t]*#[^\n]*)|(\b(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)[fFuUlL]*\b)|([A-Za-z_]\w*)/gm;

/** Tokens of `source` read as `language` (C rules unless it is `pytorch`); their texts join back to the source. */
export function tokenize(source: string, language?: string): Token[] {
  if (language === 'pytorch') return tokenizePython(source);
  const tokens: Token[] = [];
  let last = 0;
  for (const match of source.matchAll(PATTERN)) {
    const index = match.index ?? 0;
    if (index > last) tokens.push({ kind: 'plain', text: source.slice(last, index) });
    const [text, comment, string, preproc, number, word] = match;
    let kind: TokenKind = 'plain';
    if (comment) kind = 'comment';
    else if (string) kind = 'string';
    else if (preproc) kind = 'preproc';
    else if (number) kind = 'number';
    else if (word) {
      if (KEYWORDS.has(word)) kind = 'keyword';
      else if (TYPES.has(word) || /^_?_?m\d+/.test(word)) kind = 'type';
      else if (/^\s*\(/.test(source.slice(index + word.length, index + word.length + 3))) kind = 'fn';
    }
    tokens.push({ kind, text });
    last = index + text.length;
  }
  if (last < source.length) tokens.push({ kind: 'plain', text: source.slice(last) });
  return tokens;
}

/** Tokens of `source` line by line (split on `\n`, as a diff splits it): the whole source is tokenised first, so a
 * line inside a block comment or a triple-quoted string keeps that colour instead of being read on its own. */
export function tokenizeLines(source: string, language?: string): Token[][] {
  const lines: Token[][] = [[]];
  for (const token of tokenize(source, language)) {
    token.text.split('\n').forEach((text, i) => {
      if (i > 0) lines.push([]);
      if (text) (lines[lines.length - 1] as Token[]).push({ kind: token.kind, text });
    });
  }
  return lines;
}

const PY_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield self'.split(
    ' ',
  ),
);
const PY_TYPES = new Set(
  'int float bool str bytes list dict tuple set object type len range print super isinstance torch nn F Tensor'.split(
    ' ',
  ),
);

// Triple-quoted strings first (they may span lines; an unclosed one runs to the end), then one-line strings,
// comments, decorators, numbers, words.
const PY_PATTERN =
  /([rRbBuUfF]{0,2}(?:"""[\s\S]*?(?:"""|$(?![\s\S]))|'''[\s\S]*?(?:'''|$(?![\s\S]))|"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?))|(#[^\n]*)|(^[ \t]*@[A-Za-z_][\w.]*)|(\b(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|\d[\d_]*\.?[\d_]*(?:[eE][+-]?\d+)?|\.\d[\d_]*(?:[eE][+-]?\d+)?)[jJ]?\b)|([A-Za-z_]\w*)/gm;

function tokenizePython(source: string): Token[] {
  const tokens: Token[] = [];
  let last = 0;
  let afterDef = false;
  for (const match of source.matchAll(PY_PATTERN)) {
    const index = match.index ?? 0;
    if (index > last) tokens.push({ kind: 'plain', text: source.slice(last, index) });
    const [text, string, comment, decorator, number, word] = match;
    let kind: TokenKind = 'plain';
    if (string) kind = 'string';
    else if (comment) kind = 'comment';
    else if (decorator) kind = 'decorator';
    else if (number) kind = 'number';
    else if (word) {
      // The name a `def` or `class` introduces reads as a definition, whatever it is.
      if (afterDef) kind = 'fn';
      else if (PY_KEYWORDS.has(word)) kind = 'keyword';
      else if (PY_TYPES.has(word)) kind = 'type';
      else if (/^\s*\(/.test(source.slice(index + word.length, index + word.length + 3))) kind = 'fn';
    }
    afterDef = word === 'def' || word === 'class';
    tokens.push({ kind, text });
    last = index + text.length;
  }
  if (last < source.length) tokens.push({ kind: 'plain', text: source.slice(last) });
  return tokens;
}
