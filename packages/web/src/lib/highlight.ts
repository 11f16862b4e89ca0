// A small C/C++/CUDA tokenizer for the source view: comments, strings, numbers, keywords, types, calls.
export type TokenKind = 'keyword' | 'type' | 'string' | 'number' | 'comment' | 'preproc' | 'fn' | 'plain';
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

const PATTERN =
  /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|("(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?)|(^[ \t]*#[^\n]*)|(\b(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)[fFuUlL]*\b)|([A-Za-z_]\w*)/gm;

export function tokenize(source: string): Token[] {
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
