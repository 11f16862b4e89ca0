// Renders a tuner template: `{{NAME}}` placeholders and `{{#if NAME}}..{{else}}..{{/if}}` blocks (nestable).
import type { ParamValue, Params } from './space.js';

/** Off-like values: a block guarded by such a parameter is left out. */
export function truthy(v: ParamValue | undefined): boolean {
  return !(v === undefined || v === 0 || v === '' || v === 'off' || v === 'none' || v === 'false');
}

// Innermost block first: its body holds no further `{{#if`, so nesting resolves from the inside out.
const IF_BLOCK =
  /\{\{#if ([A-Za-z_][A-Za-z0-9_]*)(?:\s*(==|!=)\s*([^}\s]+))?\}\}((?:(?!\{\{#if )[\s\S])*?)\{\{\/if\}\}/;

export function renderTemplate(template: string, params: Params): string {
  let out = template;
  for (let m = IF_BLOCK.exec(out); m; m = IF_BLOCK.exec(out)) {
    const [whole, name = '', op, rhs, body = ''] = m;
    const value = params[name];
    if (value === undefined) throw new Error(`template condition names unknown parameter ${name}`);
    const holds = op === '==' ? String(value) === rhs : op === '!=' ? String(value) !== rhs : truthy(value);
    const [yes, no = ''] = splitElse(body);
    out = out.slice(0, m.index) + (holds ? yes : no) + out.slice(m.index + whole.length);
  }
  out = out.replace(/\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`template names unknown parameter ${name}`);
    return String(value);
  });
  // A left-out block can leave a run of blank lines; keep the candidate tidy for people reading it.
  return out.replace(/\n{3,}/g, '\n\n');
}

function splitElse(body: string): [string, string] {
  const i = body.indexOf('{{else}}');
  return i < 0 ? [body, ''] : [body.slice(0, i), body.slice(i + '{{else}}'.length)];
}
