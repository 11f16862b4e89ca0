// How a problem is named in plain text (select options, labels, questions): its id, then its title.

const words = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** The title worth showing beside the id: none when it is missing or only spells the id out ("101 HardSigmoid"). */
export function extraTitle(name: string, title: string | null | undefined): string | undefined {
  const t = title?.trim();
  return t && words(t) !== words(name) ? t : undefined;
}

/** "19_ReLU · ReLU": a problem in plain text, where the ProblemName component cannot be rendered. */
export function problemLabel(name: string, title?: string | null): string {
  const extra = extraTitle(name, title);
  return extra ? `${name} · ${extra}` : name;
}
