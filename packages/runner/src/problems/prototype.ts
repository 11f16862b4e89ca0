// The C prototype of the entry point, generated from a signature (shared by the API and the glue).
import type { SignatureArgDef } from './schema.js';

const C_TYPES: Record<string, string> = {
  'f32*': 'float*',
  'f64*': 'double*',
  'i32*': 'int32_t*',
  'i64*': 'int64_t*',
  f32: 'float',
  f64: 'double',
  i32: 'int32_t',
  i64: 'int64_t',
};

export function cParam(a: SignatureArgDef): string {
  const t = C_TYPES[a.type] ?? 'void*';
  return `${a.role === 'in' ? 'const ' : ''}${t} ${a.name}`;
}

export function prototypeOf(signature: readonly SignatureArgDef[], entry = 'solution'): string {
  return `void ${entry}(${signature.map(cParam).join(', ')})`;
}
